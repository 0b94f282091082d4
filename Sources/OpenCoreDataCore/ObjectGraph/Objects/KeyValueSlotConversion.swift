import Foundation

/// The common cases of `setValue(_:forKey:)` on an Integer or Double attribute's slot: the value an
/// `NSNumber` or one of the Swift number types, taken out of its `Any` without a dynamic cast.
///
/// The `Any` is opened with the standard library's `_openExistential` (an `Any` is never opened
/// implicitly: a generic parameter binds to `Any` itself), so the type it holds is a type parameter:
/// comparing it with each number type is a comparison of metadata addresses, and a value of a type
/// found equal is reinterpreted as that type (as ``ManagedSlotAccess`` does for `@Managed` values).
/// Built with `-D OCD_KVC_CASTS`, the same comparisons are made on `type(of:)` and the value taken out
/// with a conditional cast (see Docs/Internals.md). An `NSNumber` is taken when its class is `NSNumber` itself, which leaves its subclasses
/// (`NSDecimalNumber`, the Boolean class Foundation makes for `NSNumber(value: Bool)`) to the general
/// path.
///
/// Gives the slot the general path (``ManagedValueCoercion/attributeValue(_:attribute:object:)``, then
/// ``PropertySlot/init(canonical:kind:)``) gives; returns `nil` for every other value, which that path
/// then converts or rejects: a `Bool` for an Integer attribute (rejected), an `NSDecimalNumber`, an
/// `NSNull`, a `String`, an optional wrapped in `Any`, …
enum KeyValueSlotConversion {
    /// The slot `value` gives a slot of the given kind, or `nil` when the general path must convert it.
    @inline(__always)
    static func slot(_ value: Any?, kind: PropertySlotLayout.Kind) -> PropertySlot? {
        switch kind {
        case .integer:
            guard let value else { return .absent }
            #if OCD_KVC_CASTS || OCD_PLAIN_SWIFT
            return castIntegerSlot(value)
            #else
            return _openExistential(value, do: openedIntegerSlot)
            #endif
        case .double:
            guard let value else { return .absent }
            #if OCD_KVC_CASTS || OCD_PLAIN_SWIFT
            return castDoubleSlot(value)
            #else
            return _openExistential(value, do: openedDoubleSlot)
            #endif
        case .other, .toMany:
            return nil
        }
    }

    #if OCD_KVC_CASTS || OCD_PLAIN_SWIFT
    /// `openedIntegerSlot(_:)` through `type(of:)` and conditional casts.
    private static func castIntegerSlot(_ value: Any) -> PropertySlot? {
        let type = ObjectIdentifier(Swift.type(of: value))
        // The type compared first, so that no cast bridges (an `Int64` cast `as? NSNumber` makes one).
        if type == ObjectIdentifier(NSNumber.self), let number = value as? NSNumber { return .integer(number.int64Value) }
        if type == ObjectIdentifier(Int64.self), let integer = value as? Int64 { return .integer(integer) }
        if type == ObjectIdentifier(Int.self), let integer = value as? Int { return .integer(Int64(integer)) }
        if type == ObjectIdentifier(Int32.self), let integer = value as? Int32 { return .integer(Int64(integer)) }
        if type == ObjectIdentifier(Int16.self), let integer = value as? Int16 { return .integer(Int64(integer)) }
        return nil
    }

    /// `openedDoubleSlot(_:)` through `type(of:)` and conditional casts.
    private static func castDoubleSlot(_ value: Any) -> PropertySlot? {
        let type = ObjectIdentifier(Swift.type(of: value))
        if type == ObjectIdentifier(NSNumber.self), let number = value as? NSNumber { return .double(number.doubleValue) }
        if type == ObjectIdentifier(Double.self), let double = value as? Double { return .double(double) }
        return nil
    }
    #endif
}

// File-scope functions: `_openExistential` given a static method of `KeyValueSlotConversion` crashes
// the compiler (Swift 6.3, LocalArchetypeRequirementCollector).

/// An Integer attribute's slot for an opened value.
@inline(__always)
private func openedIntegerSlot<Value>(_ value: Value) -> PropertySlot? {
    if Value.self == NSNumber.self {
        let number = unsafeDowncast(unsafeBitCast(value, to: AnyObject.self), to: NSNumber.self)
        return Swift.type(of: number) == NSNumber.self ? .integer(number.int64Value) : nil
    }
    if Value.self == Int64.self { return .integer(unsafeBitCast(value, to: Int64.self)) }
    if Value.self == Int.self { return .integer(Int64(unsafeBitCast(value, to: Int.self))) }
    if Value.self == Int32.self { return .integer(Int64(unsafeBitCast(value, to: Int32.self))) }
    if Value.self == Int16.self { return .integer(Int64(unsafeBitCast(value, to: Int16.self))) }
    return nil
}

/// A Double attribute's slot for an opened value.
@inline(__always)
private func openedDoubleSlot<Value>(_ value: Value) -> PropertySlot? {
    if Value.self == NSNumber.self {
        let number = unsafeDowncast(unsafeBitCast(value, to: AnyObject.self), to: NSNumber.self)
        return Swift.type(of: number) == NSNumber.self ? .double(number.doubleValue) : nil
    }
    if Value.self == Double.self { return .double(unsafeBitCast(value, to: Double.self)) }
    return nil
}
