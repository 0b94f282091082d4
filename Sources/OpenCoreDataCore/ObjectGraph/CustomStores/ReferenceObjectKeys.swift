import Foundation

/// The reference objects of a custom store's object IDs and the primary keys the IDs carry.
///
/// An object ID holds a 64-bit key. A reference object that is a positive integer (an `Int`, an
/// `Int64` or an integer `NSNumber`) is its own key, and its ID's URI ends in `p<number>`, as a SQLite
/// store's does. Any other reference object (a string, a UUID, a number that is not a positive integer)
/// gets a negative key the first time the store names it, kept for the life of the store: IDs made
/// twice from equal reference objects are equal.
// @unchecked Sendable: `_keys`, `_references` and `_lastKey` are read and written only while holding
// `_lock`.
final class ReferenceObjectKeys: @unchecked Sendable {
    private let _lock = NSLock()
    private var _keys: [AnyHashable: Int64] = [:]
    private var _references: [Int64: Any] = [:]
    private var _lastKey: Int64 = 0

    /// The key of a reference object.
    func key(for reference: Any) -> Int64 {
        if let key = Self.integerKey(reference) { return key }
        let hashable = Self.hashable(reference)
        return _lock.withLock {
            if let key = _keys[hashable] { return key }
            _lastKey -= 1
            _keys[hashable] = _lastKey
            _references[_lastKey] = reference
            return _lastKey
        }
    }

    /// The reference object of a key: an `NSNumber` for a positive key, the object the store gave for a
    /// negative one; `nil` for a key the store never made.
    func reference(for key: Int64) -> Any? {
        if key > 0 { return NSNumber(value: key) }
        return _lock.withLock { _references[key] }
    }

    /// The key of a positive integer reference object, `nil` for any other.
    private static func integerKey(_ reference: Any) -> Int64? {
        let type = Swift.type(of: reference)
        let value: Int64?
        if type == Int.self {
            value = (reference as? Int).map(Int64.init)
        } else if type == Int64.self {
            value = reference as? Int64
        } else if type == Int32.self {
            value = (reference as? Int32).map(Int64.init)
        } else if let number = reference as? NSNumber, !(number is NSDecimalNumber),
            "qlisQLIS".contains(String(cString: number.objCType))
        {
            value = number.int64Value
        } else {
            value = nil
        }
        guard let value, value > 0 else { return nil }
        return value
    }

    /// A reference object as a dictionary key: strings as `String` whichever class holds them, other
    /// hashable values as they are, anything else by its description.
    private static func hashable(_ reference: Any) -> AnyHashable {
        if let string = reference as? String { return AnyHashable(string) }
        if let string = reference as? NSString { return AnyHashable(string as String) }
        if let hashable = reference as? AnyHashable { return hashable }
        return AnyHashable(String(describing: reference))
    }
}
