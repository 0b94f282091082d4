import COpenCoreDataRuntime
import Synchronization

/// Whether a managed object class overrides `validateValue(_:forKey:)`.
///
/// A save validates every property of every object it writes through `validateValue(_:forKey:)`, which
/// takes each value as an object: a number becomes an `NSNumber`. On Apple platforms small numbers are
/// tagged pointers and cost nothing; here each is an allocation. When the class keeps `NSManagedObject`'s
/// implementation and no per-key method is registered, a value that passes the model's checks without
/// them being made (see `PropertyValidation.passesWithoutChecks`) needs no call at all, and no box.
///
/// The answer comes from the Swift runtime's class-method lookup (`swift_lookUpClassMethod`): the
/// implementation the class's vtable holds for the method, compared with `NSManagedObject`'s own.
enum ValidateValueOverrides {
    /// Answers found so far, by class.
    private static let answers = Mutex<[ObjectIdentifier: Bool]>([:])

    /// The address of `NSManagedObject`'s own implementation (0 when the runtime gave none).
    private static let baseImplementation = implementation(of: NSManagedObject.self)

    /// The address of the implementation instances of `type` call, or 0.
    private static func implementation(of type: NSManagedObject.Type) -> UInt {
        let metadata = unsafeBitCast(type as AnyClass, to: UnsafeRawPointer.self)
        return ocd_validateValueImplementation(metadata).map { UInt(bitPattern: $0) } ?? 0
    }

    /// Whether instances of `type` call an implementation of `validateValue(_:forKey:)` other than
    /// `NSManagedObject`'s.
    static func overrides(_ type: NSManagedObject.Type) -> Bool {
        let key = ObjectIdentifier(type)
        if let known = answers.withLock({ $0[key] }) { return known }
        let implementation = implementation(of: type)
        // Without an answer from the runtime, assume an override: the method is then called as usual.
        let overrides = implementation == 0 || baseImplementation == 0 || implementation != baseImplementation
        answers.withLock { $0[key] = overrides }
        return overrides
    }
}
