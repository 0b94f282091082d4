import Foundation

/// A value transformer that securely unarchives objects of allowed top-level classes from data, and archives
/// them into data in reverse.
///
/// Subclass it and override ``allowedTopLevelClasses`` to store your own `NSSecureCoding` classes in a
/// transformable attribute.
open class NSSecureUnarchiveFromDataTransformer: ValueTransformer, UnarchivingValueTransformer {
    /// The classes an archive's top-level object may be: by default `NSArray`, `NSDictionary`, `NSSet`,
    /// `NSString`, `NSNumber`, `NSDate`, `NSData`, `NSURL`, `NSUUID` and `NSNull`.
    open class var allowedTopLevelClasses: [AnyClass] {
        [
            NSArray.self, NSDictionary.self, NSSet.self, NSString.self, NSNumber.self, NSDate.self,
            NSData.self, NSURL.self, NSUUID.self, NSNull.self,
        ]
    }

    /// The class of the value that ``transformedValue(_:)`` returns.
    open override class func transformedValueClass() -> AnyClass { NSObject.self }

    /// Returns `true`: the transformation archives in reverse.
    open override class func allowsReverseTransformation() -> Bool { true }

    /// Returns the object unarchived from `value` (data), or `nil` when `value` is not an archive whose objects
    /// are of allowed classes.
    ///
    /// The archive's root object, and the elements of the arrays, sets, ordered sets and dictionaries it
    /// holds, must be of the allowed classes (or their subclasses) and support secure coding.
    open override func transformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return KeyedArchiving.unarchive(data, allowedClasses: type(of: self).allowedTopLevelClasses)
    }

    /// Returns `value` archived into data, or `nil` when it cannot be archived securely.
    open override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let value, !(value is NSNull) else { return nil }
        return KeyedArchiving.archive(value, secure: true)
    }
}
