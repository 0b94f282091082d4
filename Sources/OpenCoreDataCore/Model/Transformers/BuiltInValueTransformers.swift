import Foundation

/// The transformer registered as ``NSValueTransformerName/negateBooleanTransformerName``: `true` ↔ `false`.
final class NegateBooleanValueTransformer: ValueTransformer {
    override class func transformedValueClass() -> AnyClass { NSNumber.self }
    override class func allowsReverseTransformation() -> Bool { true }

    override func transformedValue(_ value: Any?) -> Any? {
        NSNumber(value: !Self.boolValue(value))
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        transformedValue(value)
    }

    static func boolValue(_ value: Any?) -> Bool {
        switch value {
        case let flag as Bool: return flag
        case let number as NSNumber: return number.boolValue
        case let number as Int: return number != 0
        default: return false
        }
    }
}

/// The transformers registered as ``NSValueTransformerName/isNilTransformerName`` and
/// ``NSValueTransformerName/isNotNilTransformerName``; they cannot be reversed.
final class IsNilValueTransformer: ValueTransformer {
    private let negated: Bool

    init(negated: Bool) {
        self.negated = negated
        super.init()
    }

    override class func transformedValueClass() -> AnyClass { NSNumber.self }
    override class func allowsReverseTransformation() -> Bool { false }

    override func transformedValue(_ value: Any?) -> Any? {
        let isNil = value == nil || value is NSNull
        return NSNumber(value: negated ? !isNil : isNil)
    }
}

/// Marks the transformers whose forward direction turns archived data into an object: a store archives a
/// transformable value with their reverse transformation and reads it back with the forward one.
protocol UnarchivingValueTransformer {}

/// The transformer registered as ``NSValueTransformerName/unarchiveFromDataTransformerName`` and
/// ``NSValueTransformerName/keyedUnarchiveFromDataTransformerName``: keyed-archive data → object, without
/// restricting the archive's classes.
final class UnarchiveFromDataValueTransformer: ValueTransformer, UnarchivingValueTransformer {
    override class func transformedValueClass() -> AnyClass { NSObject.self }
    override class func allowsReverseTransformation() -> Bool { true }

    override func transformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return KeyedArchiving.unarchive(data)
    }

    override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let value, !(value is NSNull) else { return nil }
        return KeyedArchiving.archive(value, secure: false)
    }
}
