import Foundation

/// `AnyHashable` forms of values that Foundation's own hashing cannot be trusted with on Linux.
///
/// `NSDecimalNumber.hash` calls itself until the stack overflows, and `NSError.hash` stops the program:
/// a decimal number is keyed by its `Decimal` (equal decimals are equal keys, whichever of the two forms
/// holds them), and an error has no hashable form.
enum FoundationHashing {
    /// The value as a dictionary or set key; `nil` when it is not hashable or cannot be hashed safely.
    static func hashable(_ value: Any) -> AnyHashable? {
        if let decimal = value as? NSDecimalNumber { return AnyHashable(decimal.decimalValue) }
        guard hashesSafely(value) else { return nil }
        return value as? AnyHashable
    }

    /// Whether Foundation's own `hash` of `value` returns: `false` for a decimal number (a `Decimal`
    /// becomes one when it is bridged) and an error.
    static func hashesSafely(_ value: Any) -> Bool {
        !(value is NSDecimalNumber) && !(value is NSError)
    }
}
