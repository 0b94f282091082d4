// The operations whose checks only debug builds make (`Docs/Internals.md`, "Checks left to debug
// builds"). Each call site states the check or invariant that makes the operation sound. With the
// technique off (``RuntimeTechniques/uncheckedOperations``) every one of them checks in every build.

extension Optional {
    /// The wrapped value of an optional the caller knows holds one.
    ///
    /// `unsafelyUnwrapped` in an optimized build, which then reads the value without looking; a debug
    /// build, and every build with the technique off, stops the program on `nil`.
    @inline(__always)
    var unsafelyAssumedValue: Wrapped {
        #if OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_OPERATIONS
        self!
        #else
        unsafelyUnwrapped
        #endif
    }
}

/// `object` as a `T` the caller knows it is: `unsafeDowncast` in an optimized build, a checked cast in
/// a debug build and in every build with the technique off.
@inline(__always)
func assumedDowncast<T: AnyObject>(_ object: AnyObject, to type: T.Type) -> T {
    #if OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_OPERATIONS
    object as! T
    #else
    unsafeDowncast(object, to: type)
    #endif
}

/// Checks `condition` in a debug build, and in every build with the technique off.
@inline(__always)
func assumeInRange(_ condition: @autoclosure () -> Bool, _ message: StaticString = "Index out of range") {
    #if OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_OPERATIONS
    precondition(condition(), "\(message)")
    #else
    assert(condition(), "\(message)")
    #endif
}
