import COpenCoreDataRuntime
import Synchronization

/// Which of `NSManagedObject`'s hooks a managed object class overrides.
///
/// - A save validates every property of every object it writes through `validateValue(_:forKey:)`,
///   which takes each value as an object: a number becomes an `NSNumber`, an allocation here (on Apple
///   platforms small numbers are tagged pointers). When the class keeps `NSManagedObject`'s
///   implementation and no per-key method is registered, a value that passes the model's checks
///   without them being made (see `PropertyValidation.passesWithoutChecks`) needs no call and no box.
/// - A `@Managed` accessor calls the access or change notifications around every read or write. When
///   the class keeps `NSManagedObject`'s, which only fire a fault, an accessor of an object that is not
///   a fault reads or writes its slot without calling them.
/// - Firing a fault calls `awakeFromFetch()`. When the class keeps `NSManagedObject`'s, which does
///   nothing, no code of the app runs while the fault fires, and the object's context is used without
///   retaining it.
///
/// The answer comes from the Swift runtime's class-method lookup (`swift_lookUpClassMethod`): the
/// implementation the class's vtable holds for each method, compared with `NSManagedObject`'s own.
struct ManagedObjectOverrides: OptionSet, Sendable {
    let rawValue: UInt8

    /// `validateValue(_:forKey:)`.
    static let validateValue = ManagedObjectOverrides(rawValue: 1 << 0)
    /// `willAccessValue(forKey:)` or `didAccessValue(forKey:)`.
    static let accessNotifications = ManagedObjectOverrides(rawValue: 1 << 1)
    /// `willChangeValue(forKey:)` or `didChangeValue(forKey:)`.
    static let changeNotifications = ManagedObjectOverrides(rawValue: 1 << 2)
    /// `awakeFromFetch()`.
    static let awakeFromFetch = ManagedObjectOverrides(rawValue: 1 << 3)

    /// The hooks instances of `type` call other implementations of than `NSManagedObject`'s.
    static func of(_ type: NSManagedObject.Type) -> ManagedObjectOverrides {
        #if _pointerBitWidth(_64)
        let metadata = UInt(bitPattern: ObjectIdentifier(type))
        // Objects are made many at a time, nearly always of the class made last.
        let last = lastAnswer.load(ordering: .relaxed)
        if last & ~answerMask == metadata { return ManagedObjectOverrides(rawValue: UInt8(last >> answerShift)) }
        let answer = answer(for: type)
        lastAnswer.store(metadata | UInt(answer.rawValue) << answerShift, ordering: .relaxed)
        return answer
        #else
        return answer(for: type)
        #endif
    }

    #if _pointerBitWidth(_64)
    /// Where an answer starts in ``lastAnswer``: its top byte, which no user-space address sets on the
    /// 64-bit platforms Swift runs on (their addresses have at most 56 significant bits). An address
    /// with a tag in its top byte never matches the word, and its class's answer is looked up each time.
    private static var answerShift: Int { UInt.bitWidth - 8 }
    /// The bits of ``lastAnswer`` an answer takes.
    private static var answerMask: UInt { 0xFF << answerShift }

    /// The last answer given: the class's metadata address, with the answer in its top byte. One word,
    /// so a reader sees a class and its answer together; an answer never changes, so no ordering is
    /// needed.
    private static let lastAnswer = Atomic<UInt>(0)
    #endif

    /// Answers found so far, by class.
    private static let answers = LockedValue<[ObjectIdentifier: ManagedObjectOverrides]>([:])

    /// `NSManagedObject`'s own implementations, by method (0 where the runtime gave none).
    private static let baseImplementations = Method.allCases.map { implementation(of: $0, in: NSManagedObject.self) }

    private static func answer(for type: NSManagedObject.Type) -> ManagedObjectOverrides {
        let key = ObjectIdentifier(type)
        if let known = answers.withLock({ $0[key] }) { return known }
        var answer: ManagedObjectOverrides = []
        for method in Method.allCases where overrides(method, in: type) {
            answer.insert(method.overrides)
        }
        answers.withLock { $0[key] = answer }
        return answer
    }

    /// Whether instances of `type` call an implementation of `method` other than `NSManagedObject`'s.
    /// Without an answer from the runtime, an override is assumed: the method is then called as usual.
    private static func overrides(_ method: Method, in type: NSManagedObject.Type) -> Bool {
        let base = baseImplementations[method.rawValue]
        let implementation = implementation(of: method, in: type)
        return implementation == 0 || base == 0 || implementation != base
    }

    /// The address of the implementation of `method` instances of `type` call, or 0.
    private static func implementation(of method: Method, in type: NSManagedObject.Type) -> UInt {
        // With the technique off, no answer: every class counts as overriding every method.
        guard RuntimeTechniques.vtableLookup else { return 0 }
        let metadata = unsafeBitCast(type as AnyClass, to: UnsafeRawPointer.self)
        return ocd_managedObjectMethodImplementation(metadata, method.runtimeMethod).map { UInt(bitPattern: $0) } ?? 0
    }

    /// The methods looked up.
    private enum Method: Int, CaseIterable {
        case validateValue, willAccessValue, didAccessValue, willChangeValue, didChangeValue, awakeFromFetch

        /// The answer an override of the method belongs to.
        var overrides: ManagedObjectOverrides {
            switch self {
            case .validateValue: .validateValue
            case .willAccessValue, .didAccessValue: .accessNotifications
            case .willChangeValue, .didChangeValue: .changeNotifications
            case .awakeFromFetch: .awakeFromFetch
            }
        }

        var runtimeMethod: OCDManagedObjectMethod {
            switch self {
            case .validateValue: OCDManagedObjectMethodValidateValue
            case .willAccessValue: OCDManagedObjectMethodWillAccessValue
            case .didAccessValue: OCDManagedObjectMethodDidAccessValue
            case .willChangeValue: OCDManagedObjectMethodWillChangeValue
            case .didChangeValue: OCDManagedObjectMethodDidChangeValue
            case .awakeFromFetch: OCDManagedObjectMethodAwakeFromFetch
            }
        }
    }
}
