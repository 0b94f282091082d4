/// A value of any `Optional` type, seen through `Any`.
private protocol AnyOptionalBox {
    var unboxedValue: Any? { get }
}

extension Optional: AnyOptionalBox {
    fileprivate var unboxedValue: Any? {
        switch self {
        case .none: return nil
        case .some(let wrapped): return wrapped
        }
    }
}

/// Helpers shared by evaluation: how values met in object graphs are normalized before they are compared.
package enum EvaluationValues {
    /// Removes every level of optional wrapping hidden inside `Any`, unwraps `AnyHashable` boxes, and
    /// turns `NSNull` into `nil`, so that `nil`, `Optional<Int>.none` boxed in `Any` and `NSNull()` all
    /// read as "no value".
    package static func flatten(_ value: Any?) -> Any? {
        var current = value
        while let present = current {
            let presentKind = type(of: present)
            // Objects are never optionals nor `AnyHashable` boxes: one metatype check settles them,
            // without the costlier protocol cast below (this runs for every value a save writes).
            if presentKind is NSObject.Type {
                return presentKind is NSNull.Type ? nil : present
            }
            if let box = present as? AnyOptionalBox {
                current = box.unboxedValue
                continue
            }
            let kind = type(of: present)
            if kind == AnyHashable.self, let hashable = present as? AnyHashable {
                current = hashable.base
                continue
            }
            if kind is NSNull.Type { return nil }
            return present
        }
        return nil
    }

    /// Whether a value is `NSNull` (`value is NSNull`), answered for objects with a metatype check:
    /// a cast that fails costs far more, and this is asked for every value a save writes.
    static func isNull(_ value: Any) -> Bool {
        let kind = type(of: value)
        if kind is NSObject.Type { return kind is NSNull.Type }
        return value is NSNull
    }

    /// The elements of a collection value (Swift arrays and sets, `NSArray`, `NSSet`, `NSOrderedSet`),
    /// or `nil` when the value is not a collection. Strings and dictionaries are not collections here.
    ///
    /// Foundation classes are recognized by their exact class, so Swift collections are never bridged.
    static func elements(of value: Any?) -> [Any]? {
        guard let value = flatten(value) else { return nil }
        if let sequence = value as? any AnySequenceConvertible { return sequence.anyElements }
        let kind = type(of: value)
        if kind is NSOrderedSet.Type, let orderedSet = value as? NSOrderedSet { return orderedSet.array }
        if kind is NSSet.Type, let set = value as? NSSet { return set.allObjects }
        if kind is NSArray.Type, let array = value as? NSArray { return array.map { $0 } }
        return nil
    }

    /// Whether the value is an unordered collection (a set), whose mapped values KVC returns as a set.
    static func isUnordered(_ value: Any?) -> Bool {
        guard let value = flatten(value) else { return false }
        if let sequence = value as? any AnySequenceConvertible { return sequence.isUnordered }
        return type(of: value) is NSSet.Type
    }

    /// Removes duplicates, keeping the first occurrence, using predicate equality.
    static func distinct(_ values: [Any]) -> [Any] {
        var result: [Any] = []
        var seen = Set<DistinctKey>()
        for value in values {
            if let key = hashKey(value) {
                if seen.insert(key).inserted { result.append(value) }
            } else if !result.contains(where: { ValueComparison.isEqual($0, value, options: []) }) {
                result.append(value)
            }
        }
        return result
    }

    /// A hashable key under which values equal by predicate rules coincide, when one can be formed.
    static func hashKey(_ value: Any?) -> DistinctKey? {
        guard let value = flatten(value) else { return .null }
        if let number = NumericValue(flattened: value) { return number.hashKey }
        if let string = ValueComparison.string(value) { return .string(string) }
        // Collections and dictionaries compare element by element, across kinds (an array equals a set
        // with the same elements): no single hashable value represents them.
        if elements(of: value) != nil || value is any AnyKeyedLookup || type(of: value) is NSDictionary.Type {
            return nil
        }
        // `NSNull` and numbers are handled above: Foundation's `NSNull` instances on Linux are equal to
        // each other but hash by address, so they must never reach `AnyHashable`; nor may the values
        // Foundation cannot hash (see `FoundationHashing`).
        return FoundationHashing.hashable(value).map(DistinctKey.other)
    }
}

/// The identity of a value for duplicate removal and hashing: numbers by value, strings by canonical
/// equivalence, `nil`/`NSNull` as one value, other hashable values as themselves.
enum DistinctKey: Hashable {
    case null
    case integer(Int64)
    case double(Double)
    case string(String)
    case other(AnyHashable)
}

/// A sequence whose elements can be listed as `Any`, so generic Swift collections (e.g. `[Int]`,
/// `Set<String>`, `ArraySlice<Int>`) are recognized as collections by evaluation without bridging.
protocol AnySequenceConvertible {
    /// The elements, in iteration order.
    var anyElements: [Any] { get }
    /// Whether the collection has no order (a set).
    var isUnordered: Bool { get }
}

extension Array: AnySequenceConvertible {
    var anyElements: [Any] { map { $0 } }
    var isUnordered: Bool { false }
}

extension Set: AnySequenceConvertible {
    var anyElements: [Any] { map { $0 } }
    var isUnordered: Bool { true }
}

extension ArraySlice: AnySequenceConvertible {
    var anyElements: [Any] { map { $0 } }
    var isUnordered: Bool { false }
}

extension ContiguousArray: AnySequenceConvertible {
    var anyElements: [Any] { map { $0 } }
    var isUnordered: Bool { false }
}

/// A Swift dictionary read by key without being converted or bridged.
protocol AnyKeyedLookup {
    /// The value for a key, or `nil` when absent (or when the dictionary's keys are not of that kind).
    func anyValue(forKey key: String) -> Any?
    /// The dictionary's values.
    var anyValues: [Any] { get }
}

extension Dictionary: AnyKeyedLookup {
    func anyValue(forKey key: String) -> Any? {
        if let key = key as? Key { return self[key] }
        if let key = AnyHashable(key) as? Key { return self[key] }
        return nil
    }

    var anyValues: [Any] { values.map { $0 } }
}
