import Foundation
import Synchronization

extension NSManagedObject {
    /// Registers a per-key validation method: the Swift form of Core Data's `validate<Key>:error:`
    /// methods, which the Objective-C runtime finds by name on Apple platforms.
    ///
    /// `validateValue(_:forKey:)` calls the method after the model's own checks (optionality, minimum and
    /// maximum, validation predicates) succeed, for objects of this class and its subclasses; it runs
    /// during `validateForInsert()`, `validateForUpdate()` and every save. The method may replace the
    /// value through the pointer, and throws to reject it.
    ///
    /// ```swift
    /// final class User: NSManagedObject {
    ///     func validateName(_ value: AutoreleasingUnsafeMutablePointer<AnyObject?>) throws { … }
    /// }
    /// User.registerValidation(forKey: "name", User.validateName)
    /// ```
    ///
    /// Registering again for the same class and key replaces the earlier method.
    public static func registerValidation(
        forKey key: String,
        _ method: @escaping (Self) -> (AutoreleasingUnsafeMutablePointer<AnyObject?>) throws -> Void
    ) {
        KeyValidationRegistry.shared.register(ObjectIdentifier(Self.self), key: key) { object, value in
            guard let typed = object as? Self else { return }
            try method(typed)(value)
        }
    }

    /// Removes the per-key validation method registered for this class and key, if any.
    public static func unregisterValidation(forKey key: String) {
        KeyValidationRegistry.shared.unregister(ObjectIdentifier(Self.self), key: key)
    }
}

/// The per-key validation methods registered with `NSManagedObject.registerValidation(forKey:_:)`.
///
/// `@unchecked Sendable`: `validators` is read and written under `lock`; `registrationCount` is an atomic
/// changed only under `lock` too, and read without it to skip the lock when nothing is registered.
final class KeyValidationRegistry: @unchecked Sendable {
    typealias Validator = (NSManagedObject, AutoreleasingUnsafeMutablePointer<AnyObject?>) throws -> Void

    static let shared = KeyValidationRegistry()

    private let lock = NSLock()
    /// Key → registrations in registration order, each for one class.
    // Unchecked exclusivity: every access is made under `lock` and calls no validator.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    private var validators: [String: [(owner: ObjectIdentifier, validator: Validator)]] = [:]
    /// The number of registrations in `validators`.
    private let registrationCount = Atomic<Int>(0)

    func register(_ owner: ObjectIdentifier, key: String, _ validator: @escaping Validator) {
        lock.withLock {
            var list = validators[key, default: []]
            list.removeAll { $0.owner == owner }
            list.append((owner, validator))
            validators[key] = list
            registrationCount.store(validators.values.reduce(0) { $0 + $1.count }, ordering: .releasing)
        }
    }

    func unregister(_ owner: ObjectIdentifier, key: String) {
        lock.withLock {
            validators[key]?.removeAll { $0.owner == owner }
            registrationCount.store(validators.values.reduce(0) { $0 + $1.count }, ordering: .releasing)
        }
    }

    /// Whether any method is registered (for any class and key).
    var hasRegistrations: Bool {
        registrationCount.load(ordering: .acquiring) > 0
    }

    /// Runs every method registered for `key` whose class the object is an instance of.
    func validate(_ object: NSManagedObject, key: String, value: AutoreleasingUnsafeMutablePointer<AnyObject?>) throws {
        // Most programs register none: then neither the lock is taken nor a key hashed for the values a
        // save validates.
        guard registrationCount.load(ordering: .acquiring) > 0 else { return }
        let list = lock.withLock { validators[key] ?? [] }
        for entry in list { try entry.validator(object, value) }
    }
}
