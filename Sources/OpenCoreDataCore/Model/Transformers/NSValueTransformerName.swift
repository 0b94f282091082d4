import Foundation

/// The name under which a value transformer is registered with
/// ``ValueTransformer/setValueTransformer(_:forName:)`` and found with ``ValueTransformer/init(forName:)``.
public struct NSValueTransformerName: Hashable, Equatable, RawRepresentable, Sendable {
    /// The name as a string.
    public let rawValue: String

    /// Creates a value transformer name from a string.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Creates a value transformer name from a string.
    public init(rawValue: String) { self.rawValue = rawValue }
}

extension NSValueTransformerName {
    /// The name of the transformer that negates a Boolean value: `true` becomes `false` and the reverse.
    public static let negateBooleanTransformerName = NSValueTransformerName("NSNegateBoolean")
    /// The name of the transformer that returns `true` when the value is `nil`.
    public static let isNilTransformerName = NSValueTransformerName("NSIsNil")
    /// The name of the transformer that returns `true` when the value is not `nil`.
    public static let isNotNilTransformerName = NSValueTransformerName("NSIsNotNil")
    /// The name of the transformer that unarchives an object from data, and archives it in reverse.
    @available(*, deprecated, message: "Use secureUnarchiveFromDataTransformerName instead")
    public static let unarchiveFromDataTransformerName = NSValueTransformerName("NSUnarchiveFromData")
    /// The name of the transformer that unarchives an object from keyed-archive data, and archives it in reverse.
    @available(*, deprecated, message: "Use secureUnarchiveFromDataTransformerName instead")
    public static let keyedUnarchiveFromDataTransformerName = NSValueTransformerName("NSKeyedUnarchiveFromData")
    /// The name of the transformer that securely unarchives an object of an allowed top-level class from data,
    /// and archives it in reverse.
    public static let secureUnarchiveFromDataTransformerName = NSValueTransformerName("NSSecureUnarchiveFromData")
}
