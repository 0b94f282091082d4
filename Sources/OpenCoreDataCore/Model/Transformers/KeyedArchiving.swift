import Foundation

/// Keyed archiving of transformable values, with the checks that keep Foundation's archiver from trapping on
/// values it cannot encode.
enum KeyedArchiving {
    /// Why a value cannot be archived.
    enum Refusal: Equatable {
        /// An object in it is no `NSCoding` object (`NSSecureCoding` when archiving securely).
        case notCoding
        /// The archiver cannot name an object's class (see ``archiverNames(_:)``): the class, as Swift
        /// names it.
        case unnameable(String)
        /// The archiver cannot hash an object (see ``FoundationHashing/hashesSafely(_:)``): the object's class.
        case unhashable(String)
    }

    /// Whether `value` and everything an array, set, ordered set or dictionary in it holds is an `NSCoding`
    /// object (`NSSecureCoding` when `secure`) that Foundation's archiver can name and hash.
    static func canArchive(_ value: Any, secure: Bool) -> Bool {
        refusal(value, secure: secure) == nil
    }

    /// Why `value` cannot be archived: the first object in it (itself, or an element of an array, set,
    /// ordered set or dictionary in it) that ``canArchive(_:secure:)`` refuses; `nil` when it can be archived.
    ///
    /// Objects that an object's own `encode(with:)` encodes are not seen: the archiver may still stop
    /// the program on one of those.
    static func refusal(_ value: Any, secure: Bool) -> Refusal? {
        let object = value as AnyObject
        guard secure ? object is NSSecureCoding : object is NSCoding else { return .notCoding }
        // The archiver hashes every object it writes.
        guard FoundationHashing.hashesSafely(object) else { return .unhashable(String(reflecting: type(of: object))) }
        guard archiverNames(object) else { return .unnameable(String(reflecting: type(of: object))) }
        let elements: [Any]
        switch object {
        case let array as NSArray: elements = array.map { $0 }
        case let set as NSSet: elements = set.allObjects
        case let orderedSet as NSOrderedSet: elements = orderedSet.array
        case let dictionary as NSDictionary: elements = dictionary.allKeys + dictionary.allValues
        default: return nil
        }
        for element in elements {
            if let refusal = refusal(element, secure: secure) { return refusal }
        }
        return nil
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
    /// one, names a class the program does not have (an archive another program wrote), or is one that
    /// Foundation's unarchiver cannot be given (see ``KeyedArchiveCheck``: objects that contain themselves,
    /// damaged strings, …).
    ///
    /// Foundation's unarchiver stops the program on such an archive unless told to report the failure;
    /// told to, it returns what it decoded before the failure, which is not the archive's value.
    static func unarchive(_ data: Data) -> Any? {
        guard data.starts(with: Array("bplist".utf8)), KeyedArchiveCheck.refusal(of: data, allowed: nil) == nil,
            let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: data)
        else { return nil }
        unarchiver.requiresSecureCoding = false
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        defer { unarchiver.finishDecoding() }
        let object = unarchiver.decodeObject(forKey: NSKeyedArchiveRootObjectKey)
        return unarchiver.error == nil ? object : nil
    }

    /// The root object of a keyed archive decoded securely with `allowedClasses`, or `nil` when `data` is
    /// not an archive whose objects are of those classes (see ``KeyedArchiveCheck``): Foundation's
    /// unarchiver on Linux stops the program on a class outside them, where Apple's fails the decode.
    static func unarchive(_ data: Data, allowedClasses allowed: [AnyClass]) -> Any? {
        guard KeyedArchiveCheck.refusal(of: data, allowed: allowed) == nil,
            let object = try? NSKeyedUnarchiver.unarchivedObject(ofClasses: allowed, from: data),
            let instance = object as AnyObject as? NSObject,
            allowed.contains(where: { instance.isKind(of: $0) })
        else { return nil }
        return object
    }
}
