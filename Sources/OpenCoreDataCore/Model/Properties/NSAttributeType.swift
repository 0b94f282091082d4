/// The types of value an attribute can hold.
///
/// The raw values are Core Data's; they appear in store metadata and in version hashes.
public enum NSAttributeType: UInt, Sendable, CaseIterable {
    /// An undefined attribute type, usable only for transient attributes.
    case undefinedAttributeType = 0
    /// A 16-bit signed integer.
    case integer16AttributeType = 100
    /// A 32-bit signed integer.
    case integer32AttributeType = 200
    /// A 64-bit signed integer.
    case integer64AttributeType = 300
    /// A decimal number (`NSDecimalNumber`).
    case decimalAttributeType = 400
    /// A double-precision floating-point number.
    case doubleAttributeType = 500
    /// A single-precision floating-point number.
    case floatAttributeType = 600
    /// A string.
    case stringAttributeType = 700
    /// A Boolean value.
    case booleanAttributeType = 800
    /// A date.
    case dateAttributeType = 900
    /// Binary data.
    case binaryDataAttributeType = 1000
    /// A universally unique identifier.
    case UUIDAttributeType = 1100
    /// A uniform resource identifier.
    case URIAttributeType = 1200
    /// A value stored through a value transformer.
    case transformableAttributeType = 1800
    /// A managed object identifier.
    case objectIDAttributeType = 2000
    /// A composite value made of several attributes.
    case compositeAttributeType = 2100
}
