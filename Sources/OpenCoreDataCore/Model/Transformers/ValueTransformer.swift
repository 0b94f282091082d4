import Foundation

/// An abstract class used to transform values from one representation to another.
///
/// Subclass `ValueTransformer` and override ``transformedValue(_:)`` (and ``reverseTransformedValue(_:)``
/// when the transformation is reversible), then register an instance with
/// ``setValueTransformer(_:forName:)`` so that other parts of your app, such as a transformable attribute's
/// `valueTransformerName`, can find it by name with ``init(forName:)``.
open class ValueTransformer: NSObject {
    /// Creates a value transformer.
    public override init() { super.init() }

    /// Registers a value transformer under a name, or removes the one registered under it when `transformer`
    /// is `nil`.
    open class func setValueTransformer(_ transformer: ValueTransformer?, forName name: NSValueTransformerName) {
        ValueTransformerRegistry.shared.set(transformer, for: name)
    }

    /// The names of all registered value transformers.
    open class func valueTransformerNames() -> [NSValueTransformerName] {
        ValueTransformerRegistry.shared.names
    }

    /// The class of the value that ``transformedValue(_:)`` returns.
    open class func transformedValueClass() -> AnyClass { NSObject.self }

    /// Returns a Boolean value that indicates whether the receiver can reverse a transformation.
    /// The default is `true`.
    open class func allowsReverseTransformation() -> Bool { true }

    /// Returns the result of transforming a given value. The default implementation simply returns `value`.
    open func transformedValue(_ value: Any?) -> Any? { value }

    /// Returns the result of the reverse transformation of a given value.
    ///
    /// The default implementation raises a programmer error when ``allowsReverseTransformation()`` returns
    /// `false`; otherwise it invokes ``transformedValue(_:)`` with `value`.
    open func reverseTransformedValue(_ value: Any?) -> Any? {
        guard type(of: self).allowsReverseTransformation() else {
            preconditionFailure("\(type(of: self)) does not allow reverse transformation.")
        }
        return transformedValue(value)
    }
}

/// Gives ``ValueTransformer`` its lookup initializer, which returns the registered instance itself.
public protocol _ValueTransformerLookup {}

extension ValueTransformer: _ValueTransformerLookup {}

extension _ValueTransformerLookup where Self: ValueTransformer {
    /// Returns the value transformer registered under a name, or `nil` when none is (or when the registered
    /// one is not of this class).
    public init?(forName name: NSValueTransformerName) {
        guard let transformer = ValueTransformerRegistry.shared.transformer(named: name) as? Self else { return nil }
        self = transformer
    }
}
