import Foundation

/// Reads the instance an `Any?` holds as an `NSObject`, in place.
///
/// `NSObject`'s `==` hands `isEqual(_:)` its other operand as `Any?`, so every probe of a set or a
/// dictionary of managed objects or object IDs compares through an existential. Unwrapping it, or asking
/// for its dynamic type, copies the value through the runtime's generic value witnesses: more work than
/// the comparison itself. An existential keeps the metadata of the type it was made from in its last word
/// (an empty optional has none there) and a class instance in the first word of its inline buffer; when
/// that type is `NSObject`, as `==` makes it, or the class a caller names (a direct call such as
/// `id.isEqual(otherID)`), this reads the instance where it is.
enum BoxedInstance {
    /// What an `Any?` holds, as far as reading it in place tells.
    enum Contents {
        /// Nothing.
        case none
        /// An instance, put in as an `NSObject` or as the class asked about: its address (valid while the
        /// `Any?` is).
        case object(UnsafeRawPointer)
        /// Something else: the caller unwraps the value itself.
        case other
    }

    /// What `value` holds; an instance put in as `NSObject` or as `expected` is read in place.
    @inline(__always)
    static func contents(of value: borrowing Any?, orPutInAs expected: AnyClass) -> Contents {
        let wordSize = MemoryLayout<UnsafeRawPointer>.stride
        guard RuntimeTechniques.boxedInstance, MemoryLayout<Any?>.size == 4 * wordSize else { return .other }
        let (typeWord, reference) = withUnsafePointer(to: value) { pointer in
            let raw = UnsafeRawPointer(pointer)
            return (raw.load(fromByteOffset: 3 * wordSize, as: UnsafeRawPointer?.self), raw.load(as: UnsafeRawPointer?.self))
        }
        guard let typeWord else { return .none }
        let readable =
            typeWord == unsafeBitCast(NSObject.self as AnyClass, to: UnsafeRawPointer.self)
            || typeWord == unsafeBitCast(expected, to: UnsafeRawPointer.self)
        guard readable, let reference else { return .other }
        return .object(reference)
    }
}
