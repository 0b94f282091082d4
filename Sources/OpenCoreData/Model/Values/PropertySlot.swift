import Foundation

/// The value of one property in a ``PropertyValues``.
///
/// Integer and Double attributes keep their numbers unboxed; every other value is kept in the
/// canonical form `value(forKey:)` returns (an `NSNumber` for Boolean, Float and Decimal attributes, a
/// `String`, `Date`, `Data`, destination object or object ID, …).
enum PropertySlot {
    /// No value: the property is `nil`.
    case absent
    /// The value of an Integer 16, 32 or 64 attribute.
    case integer(Int64)
    /// The value of a Double attribute.
    case double(Double)
    /// Any other value, in canonical form.
    case value(Any)

    /// A slot holding `value` as it is (`nil` and `NSNull` are absent).
    @inline(__always)
    init(_ value: Any?) {
        guard let value else {
            self = .absent
            return
        }
        self = value is NSNull ? .absent : .value(value)
    }

    /// The value in canonical form: integers and doubles boxed as `NSNumber`.
    @inline(__always)
    var boxed: Any? {
        switch self {
        case .absent: return nil
        case .integer(let integer): return NSNumber(value: integer)
        case .double(let double): return NSNumber(value: double)
        case .value(let value): return value
        }
    }

    /// Does nothing: lets `dictionary[key, default: slot].keep()` insert a slot only when the key is
    /// missing, in one lookup.
    @inline(__always)
    mutating func keep() {}

    /// Whether the slot holds a value.
    @inline(__always)
    var isPresent: Bool {
        if case .absent = self { return false }
        return true
    }
}
