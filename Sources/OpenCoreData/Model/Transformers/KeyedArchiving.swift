import Foundation

/// Keyed archiving of transformable values, with the checks that keep Foundation's archiver from trapping on
/// values it cannot encode.
enum KeyedArchiving {
    /// Whether `value` and everything an array, set or dictionary in it holds is an `NSCoding` object
    /// (`NSSecureCoding` when `secure`).
    static func canArchive(_ value: Any, secure: Bool) -> Bool {
        let object = value as AnyObject
        guard secure ? object is NSSecureCoding : object is NSCoding else { return false }
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

    /// `value` as a keyed archive, or `nil` when it cannot be archived.
    static func archive(_ value: Any, secure: Bool) -> Data? {
        guard canArchive(value, secure: secure) else { return nil }
        return try? NSKeyedArchiver.archivedData(withRootObject: value, requiringSecureCoding: secure)
    }

    /// The root object of a keyed archive decoded without class restrictions, or `nil` when `data` is not one.
    static func unarchive(_ data: Data) -> Any? {
        guard data.starts(with: Array("bplist".utf8)),
              let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data) else { return nil }
        unarchiver.requiresSecureCoding = false
        defer { unarchiver.finishDecoding() }
        return unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
    }
}

private extension NSArray {
    func allObjects(secure: Bool) -> Bool {
        for element in self where !KeyedArchiving.canArchive(element, secure: secure) { return false }
        return true
    }
}
