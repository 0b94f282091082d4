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
        // A save asks once per object, nearly always about the class it asked about last.
        let metadata = UInt(bitPattern: key)
        let last = lastAnswer.load(ordering: .relaxed)
        if last & ~1 == metadata { return last & 1 == 1 }
        let answer = answer(for: type, key: key)
        lastAnswer.store(metadata | (answer ? 1 : 0), ordering: .relaxed)
        return answer
    }

    /// The last answer given: the class's metadata address, with the answer in the lowest bit (class
    /// metadata is aligned, so that bit is free). One word, so a reader sees a class and its answer
    /// together; the answer never changes, so no ordering is needed.
    private static let lastAnswer = Atomic<UInt>(0)

    private static func answer(for type: NSManagedObject.Type, key: ObjectIdentifier) -> Bool {
        if let known = answers.withLock({ $0[key] }) { return known }
        let implementation = implementation(of: type)
        // Without an answer from the runtime, assume an override: the method is then called as usual.
        let overrides = implementation == 0 || baseImplementation == 0 || implementation != baseImplementation
        answers.withLock { $0[key] = overrides }
        return overrides
    }
}
