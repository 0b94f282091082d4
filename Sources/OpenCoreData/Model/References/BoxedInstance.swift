import Foundation

/// Reads the instance an `Any?` holds as an `NSObject`, in place.
///
/// `NSObject`'s `==` hands `isEqual(_:)` its other operand as `Any?`, so every probe of a set or a
/// dictionary of managed objects or object IDs compares through an existential. Unwrapping it, or asking
/// for its dynamic type, copies the value through the runtime's generic value witnesses: more work than
/// the comparison itself. An existential keeps the metadata of the type it was made from in its last word
/// (an empty optional has none there) and a class instance in the first word of its inline buffer; when
/// that type is `NSObject`, as `==` makes it, this reads the instance where it is.
enum BoxedInstance {
    /// What an `Any?` holds, as far as reading it in place tells.
    enum Contents {
        /// Nothing.
        case none
        /// An instance, put in as an `NSObject`: its address (valid while the `Any?` is).
        case object(UnsafeRawPointer)
        /// Something else: the caller unwraps the value itself.
        case other
    }

    /// What `value` holds.
    @inline(__always)
    static func contents(of value: borrowing Any?) -> Contents {
        let wordSize = MemoryLayout<UnsafeRawPointer>.stride
        guard MemoryLayout<Any?>.size == 4 * wordSize else { return .other }
        let (type, reference) = withUnsafePointer(to: value) { pointer in
            let raw = UnsafeRawPointer(pointer)
            return (raw.load(fromByteOffset: 3 * wordSize, as: UnsafeRawPointer?.self), raw.load(as: UnsafeRawPointer?.self))
        }
        guard let type else { return .none }
        guard type == unsafeBitCast(NSObject.self as AnyClass, to: UnsafeRawPointer.self), let reference else { return .other }
        return .object(reference)
    }
}
