/// Run-time checks of the invariants the techniques of `Docs/Internals.md` rely on, compiled only into
/// a build that names the `OCD_INTERNAL_CHECKS` condition (`OCD_INTERNAL_CHECKS=1 swift test`, which
/// `Package.swift` turns into the condition, as CI runs the test suite), in the manner of
/// swift-collections' `COLLECTIONS_INTERNAL_CHECKS`.
///
/// A check that fails stops the program naming the invariant: it means that a technique read memory it
/// had no right to, which an unchecked build would go on with silently. Checks may be slow (a weak
/// shadow of every unretained reference, a lookup in a lock-protected table); they never change a result.
enum InternalChecks {
    /// Whether this build checks the invariants.
    static var isEnabled: Bool {
        #if OCD_INTERNAL_CHECKS
        true
        #else
        false
        #endif
    }

    /// Stops the program with `message` when the build checks invariants and `condition` is false.
    @inline(__always)
    static func check(
        _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        #if OCD_INTERNAL_CHECKS
        if !condition() {
            preconditionFailure("OpenCoreData internal check failed: \(message())", file: file, line: line)
        }
        #endif
    }
}
