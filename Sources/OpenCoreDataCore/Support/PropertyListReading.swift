import Foundation

/// Reads property lists from files and stores without the ones that stop the program inside Foundation.
///
/// On Linux, Foundation's `PropertyListSerialization` (and so `NSKeyedUnarchiver`, which reads an archive
/// with it) crashes on a binary property list holding a set object (marker `0xC_`), where it throws for
/// every other kind of damage. Neither Core Data's metadata, model bundles, strings files nor keyed
/// archives ever hold one, so such bytes come only from damaged or hostile files: they are refused here
/// with an error, before Foundation sees them.
enum PropertyListReading {
    /// The property list in `data`, as `PropertyListSerialization.propertyList(from:options:format:)`
    /// reads it; throws Foundation's error for damaged data, and a Cocoa error 3840
    /// (`NSPropertyListReadCorruptError`) naming the object for a binary property list with a set.
    static func propertyList(from data: Data) throws -> Any {
        if let refusal = refusal(of: data) {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPropertyListReadCorruptError,
                userInfo: [NSLocalizedDescriptionKey: refusal, refusalKey: refusal])
        }
        return try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
    }

    /// What an error of ``propertyList(from:)`` adds to a message that the data is not a property list:
    /// the reason, in parentheses, when it refused the data itself; nothing for Foundation's errors.
    static func reason(_ error: any Error) -> String {
        let error = error as NSError
        guard error.domain == NSCocoaErrorDomain, error.code == NSPropertyListReadCorruptError,
            let reason = error.userInfo[refusalKey] as? String
        else { return "" }
        return " (\(reason))"
    }

    /// The user-info key of the reason ``propertyList(from:)`` gives when it refuses data itself.
    private static let refusalKey = "OCDPropertyListRefusal"

    /// Why Foundation cannot be given `data`, or `nil` when it can: data that is not a binary property
    /// list, or one whose layout Foundation refuses with an error of its own, is left to Foundation.
    static func refusal(of data: Data) -> String? {
        data.withUnsafeBytes { bytes -> String? in
            BinaryPropertyList(bytes)?.firstSetObjectOffset().map(setRefusal(at:))
        }
    }

    /// The reason to refuse a binary property list whose object at byte `offset` is a set.
    static func setRefusal(at offset: Int) -> String {
        "the binary property list holds a set (the object at byte \(offset)), which no Core Data file holds "
            + "and Foundation cannot read on this platform"
    }
}
