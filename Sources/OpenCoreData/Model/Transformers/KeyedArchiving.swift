import Foundation

/// Keyed archiving of transformable values, with the checks that keep Foundation's archiver from trapping on
/// values it cannot encode.
enum KeyedArchiving {
    /// Whether `value` and everything an array, set or dictionary in it holds is an `NSCoding` object
    /// (`NSSecureCoding` when `secure`).
    static func canArchive(_ value: Any, secure: Bool) -> Bool {
        let object = value as AnyObject
        guard secure ? object is NSSecureCoding : object is NSCoding, archiverNames(object) else { return false }
        switch object {
        case let array as NSArray:
            return array.allObjects(secure: secure)
        case let set as NSSet:
            return set.allObjects.allSatisfy { canArchive($0, secure: secure) }
        case let dictionary as NSDictionary:
            return dictionary.allKeys.allSatisfy { canArchive($0, secure: secure) }
                && dictionary.allValues.allSatisfy { canArchive($0, secure: secure) }
        default:
            return true
        }
    }

    /// Whether Foundation's keyed archiver can name the class it would record for `object` and that
    /// class's superclasses.
    ///
    /// The archiver records classes by name, and on this platform names only top-level classes
    /// (`Module.Class`): for a class nested in another type, declared in a function or generic, it stops
    /// the program. Such an object is not archived; the save that needs it fails instead.
    static func archiverNames(_ object: AnyObject) -> Bool {
        var recorded: AnyClass? = (object as? NSObject)?.classForKeyedArchiver ?? type(of: object)
        while let type = recorded, type != NSObject.self {
            if !ArchivableClassNames.isTopLevel(type) { return false }
            recorded = _getSuperclass(type)
        }
        return true
    }

    /// The name `NSKeyedArchiver` records for `type` is nameable, by class (classes met once are
    /// remembered: a transformable value's class is checked on every save).
    private enum ArchivableClassNames {
        private static let known = LockedValue<[ObjectIdentifier: Bool]>([:])

        static func isTopLevel(_ type: AnyClass) -> Bool {
            let key = ObjectIdentifier(type)
            if let answer = known.withLock({ $0[key] }) { return answer }
            let answer = String(reflecting: type).split(separator: ".", omittingEmptySubsequences: false).count == 2
            known.withLock { $0[key] = answer }
            return answer
        }
    }

    /// `value` as a keyed archive, or `nil` when it cannot be archived.
    static func archive(_ value: Any, secure: Bool) -> Data? {
        guard canArchive(value, secure: secure) else { return nil }
        return try? NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: secure)
    }

    /// The root object of a keyed archive decoded without class restrictions, or `nil` when `data` is not
    /// one or names a class the program does not have (an archive another program wrote).
    ///
    /// Foundation's unarchiver stops the program on such an archive unless told to report the failure;
    /// told to, it returns what it decoded before the failure, which is not the archive's value.
    static func unarchive(_ data: Data) -> Any? {
        guard data.starts(with: Array("bplist".utf8)),
              let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
        unarchiver.requiresSecureCoding = false
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        defer { unarchiver.finishDecoding() }
        let object = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
        return unarchiver.error == nil ? object : nil
    }
}

private extension NSArray {
    func allObjects(secure: Bool) -> Bool {
        for element in self where !KeyedArchiving.canArchive(element, secure: secure) { return false }
        return true
    }
}
