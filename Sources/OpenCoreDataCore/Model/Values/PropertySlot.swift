import Foundation

/// The value of one property in a ``PropertyValues``.
///
/// Integer and Double attributes keep their numbers unboxed; every other value is kept in the
/// canonical form `value(forKey:)` returns (an `NSNumber` for Boolean, Float and Decimal attributes, a
/// `String`, `Date`, `Data`, destination object or object ID, …).
///
/// A slot takes 24 bytes: strings and dates are kept as they are, class instances by reference, and the
/// few other kinds of values (`Data`, `UUID`, `URL`, arrays of object IDs, composite dictionaries,
/// transformable values, …) in a box, so an entity's values take a third less memory than with an
/// `Any` in every slot.
enum PropertySlot {
    /// No value: the property is `nil`.
    case absent
    /// The value of an Integer 16, 32 or 64 attribute.
    case integer(Int64)
    /// The value of a Double attribute.
    case double(Double)
    /// A value that is a class instance: an `NSNumber` (Boolean, Float and Decimal attributes), a
    /// destination object, an object ID, …
    case object(AnyObject)
    /// A `String` value.
    case string(String)
    /// A `Date` value.
    case date(Date)
    /// Any other value, boxed.
    case other(PropertySlotBox)

    /// A slot holding `value` as it is (`nil` and `NSNull` are absent).
    @inline(__always)
    init(_ value: Any?) {
        guard let value else {
            self = .absent
            return
        }
        self.init(present: value)
    }

    /// A slot holding a value that is not `nil`.
    init(present value: Any) {
        let type = Swift.type(of: value)
        if type == String.self, let string = value as? String {
            self = .string(string)
        } else if type == Date.self, let date = value as? Date {
            self = .date(date)
        } else if type is AnyObject.Type {
            let object = value as AnyObject
            self = object is NSNull ? .absent : .object(object)
        } else {
            self = .other(PropertySlotBox(value))
        }
    }

    /// The value in canonical form: integers and doubles boxed as `NSNumber`.
    @inline(__always)
    var boxed: Any? {
        switch self {
        case .absent: return nil
        case .integer(let integer): return NSNumber(value: integer)
        case .double(let double): return NSNumber(value: double)
        case .object(let object): return object
        case .string(let string): return string
        case .date(let date): return date
        case .other(let box): return box.value
        }
    }

    /// The object ID the slot holds (a to-one relationship's destination in a row), if any.
    @inline(__always)
    var objectID: NSManagedObjectID? {
        if case .object(let object) = self, Swift.type(of: object) == NSManagedObjectID.self {
            return assumedDowncast(object, to: NSManagedObjectID.self)
        }
        return nil
    }

    /// Whether the slot holds no reference to release: no value, a number or a date.
    @inline(__always)
    var holdsNoReference: Bool {
        // With the technique off (``RuntimeTechniques/byteCopiedSlots``) every slot is copied, assigned
        // and destroyed through the enum's value witnesses.
        guard RuntimeTechniques.byteCopiedSlots else { return false }
        return switch self {
        case .absent, .integer, .double, .date: true
        case .object, .string, .other: false
        }
    }

    /// Whether the slot holds a value.
    @inline(__always)
    var isPresent: Bool {
        if case .absent = self { return false }
        return true
    }
}

/// A value of a ``PropertySlot`` that is neither a number, a string, a date nor a class instance.
final class PropertySlotBox {
    let value: Any

    init(_ value: Any) {
        self.value = value
    }
}
