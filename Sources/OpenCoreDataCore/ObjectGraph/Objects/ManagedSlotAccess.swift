/// The common cases of `@Managed` accessors on slots: an Integer or Double attribute read as, or set
/// from, one of the Swift number types (or its optional), without boxing the number; a String or Date
/// attribute read as `String` or `Date` (or its optional).
///
/// Gives the results of the general conversion (``ManagedValueConversion``, which reads an `NSNumber`'s
/// `int64Value`, `intValue`, …); returns `nil` for every other case, which that path then handles.
enum ManagedSlotAccess {
    /// The slot's value as `Value`, or `nil` when the general conversion must answer.
    @inline(__always)
    static func value<Value>(_ slot: PropertySlot, as type: Value.Type) -> Value? {
        switch slot {
        case .integer(let integer):
            return integerValue(integer, as: Value.self)
        case .double(let double):
            if Value.self == Double.self { return typeComparedCast(double, to: Value.self) }
            if Value.self == Double?.self { return typeComparedCast(Double?.some(double), to: Value.self) }
            if Value.self == Float.self { return typeComparedCast(Float(double), to: Value.self) }
            if Value.self == Float?.self { return typeComparedCast(Float?.some(Float(double)), to: Value.self) }
            return nil
        case .absent:
            return absentValue(as: Value.self)
        case .string(let string):
            // Specialized for `String` and `String?`, these casts are plain copies.
            if Value.self == String.self || Value.self == String?.self { return string as? Value }
            return nil
        case .date(let date):
            if Value.self == Date.self || Value.self == Date?.self { return date as? Value }
            return nil
        case .object, .other:
            return nil
        }
    }

    @inline(__always)
    private static func integerValue<Value>(_ integer: Int64, as type: Value.Type) -> Value? {
        if Value.self == Int64.self { return typeComparedCast(integer, to: Value.self) }
        if Value.self == Int.self { return typeComparedCast(Int(truncatingIfNeeded: integer), to: Value.self) }
        if Value.self == Int32.self { return typeComparedCast(Int32(truncatingIfNeeded: integer), to: Value.self) }
        if Value.self == Int16.self { return typeComparedCast(Int16(truncatingIfNeeded: integer), to: Value.self) }
        if Value.self == Int64?.self { return typeComparedCast(Int64?.some(integer), to: Value.self) }
        if Value.self == Int?.self { return typeComparedCast(Int?.some(Int(truncatingIfNeeded: integer)), to: Value.self) }
        if Value.self == Int32?.self { return typeComparedCast(Int32?.some(Int32(truncatingIfNeeded: integer)), to: Value.self) }
        if Value.self == Int16?.self { return typeComparedCast(Int16?.some(Int16(truncatingIfNeeded: integer)), to: Value.self) }
        return nil
    }

    /// A number property without a value: zero for a number type, `nil` for its optional.
    @inline(__always)
    private static func absentValue<Value>(as type: Value.Type) -> Value? {
        if Value.self == Int64.self { return typeComparedCast(Int64(0), to: Value.self) }
        if Value.self == Int.self { return typeComparedCast(0, to: Value.self) }
        if Value.self == Double.self { return typeComparedCast(Double(0), to: Value.self) }
        if Value.self == Int64?.self { return typeComparedCast(Int64?.none, to: Value.self) }
        if Value.self == Int?.self { return typeComparedCast(Int?.none, to: Value.self) }
        if Value.self == Double?.self { return typeComparedCast(Double?.none, to: Value.self) }
        return nil
    }

    /// The slot `value` gives a slot of the given kind, or `nil` when the general path must convert it.
    @inline(__always)
    static func slot<Value>(_ value: Value, kind: PropertySlotLayout.Kind) -> PropertySlot? {
        switch kind {
        case .integer:
            if Value.self == Int64.self { return .integer(typeComparedCast(value, to: Int64.self)) }
            if Value.self == Int.self { return .integer(Int64(typeComparedCast(value, to: Int.self))) }
            if Value.self == Int32.self { return .integer(Int64(typeComparedCast(value, to: Int32.self))) }
            if Value.self == Int16.self { return .integer(Int64(typeComparedCast(value, to: Int16.self))) }
            if Value.self == Int64?.self { return typeComparedCast(value, to: Int64?.self).map { .integer($0) } ?? .absent }
            if Value.self == Int?.self { return typeComparedCast(value, to: Int?.self).map { .integer(Int64($0)) } ?? .absent }
            return nil
        case .double:
            if Value.self == Double.self { return .double(typeComparedCast(value, to: Double.self)) }
            if Value.self == Double?.self { return typeComparedCast(value, to: Double?.self).map { .double($0) } ?? .absent }
            return nil
        case .other, .toMany:
            return nil
        }
    }
}
