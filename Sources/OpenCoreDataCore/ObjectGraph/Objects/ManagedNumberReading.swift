import Foundation

/// The common case of reading a `@Managed` property: a number stored as `NSNumber` read as one of the
/// Swift number types (or its optional), without the general conversion's dynamic casts.
///
/// Gives the same results as ``ManagedValueConversion``'s general path (`int64Value`, `intValue`, … of
/// the number); returns `nil` for every other case, which that path then handles.
enum ManagedNumberReading {
    @inline(__always)
    static func value<Value>(_ value: Any?, as type: Value.Type) -> Value? {
        if Value.self == Int64.self { return number(value).map { typeComparedCast($0.int64Value, to: Value.self) } }
        if Value.self == Int.self { return number(value).map { typeComparedCast($0.intValue, to: Value.self) } }
        if Value.self == Int32.self { return number(value).map { typeComparedCast($0.int32Value, to: Value.self) } }
        if Value.self == Int16.self { return number(value).map { typeComparedCast($0.int16Value, to: Value.self) } }
        if Value.self == Double.self { return number(value).map { typeComparedCast($0.doubleValue, to: Value.self) } }
        if Value.self == Float.self { return number(value).map { typeComparedCast($0.floatValue, to: Value.self) } }
        if Value.self == Bool.self { return number(value).map { typeComparedCast($0.boolValue, to: Value.self) } }
        if Value.self == Int64?.self { return number(value).map { typeComparedCast(Int64?.some($0.int64Value), to: Value.self) } }
        if Value.self == Int?.self { return number(value).map { typeComparedCast(Int?.some($0.intValue), to: Value.self) } }
        if Value.self == Int32?.self { return number(value).map { typeComparedCast(Int32?.some($0.int32Value), to: Value.self) } }
        if Value.self == Int16?.self { return number(value).map { typeComparedCast(Int16?.some($0.int16Value), to: Value.self) } }
        if Value.self == Double?.self { return number(value).map { typeComparedCast(Double?.some($0.doubleValue), to: Value.self) } }
        if Value.self == Float?.self { return number(value).map { typeComparedCast(Float?.some($0.floatValue), to: Value.self) } }
        if Value.self == Bool?.self { return number(value).map { typeComparedCast(Bool?.some($0.boolValue), to: Value.self) } }
        return nil
    }

    @inline(__always)
    private static func number(_ value: Any?) -> NSNumber? {
        guard let value else { return nil }
        return value as? NSNumber
    }
}
