import Foundation

/// The process-wide table of named value transformers, with the built-in transformers registered first.
///
/// `@unchecked Sendable`: the dictionary is only read or written while `lock` is held.
final class ValueTransformerRegistry: @unchecked Sendable {
    static let shared = ValueTransformerRegistry()

    private let lock = NSLock()
    private var transformers: [NSValueTransformerName: ValueTransformer]

    private init() {
        transformers = [
            NSValueTransformerName("NSNegateBoolean"): NegateBooleanValueTransformer(),
            NSValueTransformerName("NSIsNil"): IsNilValueTransformer(negated: false),
            NSValueTransformerName("NSIsNotNil"): IsNilValueTransformer(negated: true),
            NSValueTransformerName("NSUnarchiveFromData"): UnarchiveFromDataValueTransformer(),
            NSValueTransformerName("NSKeyedUnarchiveFromData"): UnarchiveFromDataValueTransformer(),
            NSValueTransformerName("NSSecureUnarchiveFromData"): NSSecureUnarchiveFromDataTransformer(),
        ]
    }

    func transformer(named name: NSValueTransformerName) -> ValueTransformer? {
        lock.lock()
        defer { lock.unlock() }
        return transformers[name]
    }

    func set(_ transformer: ValueTransformer?, for name: NSValueTransformerName) {
        lock.lock()
        defer { lock.unlock() }
        transformers[name] = transformer
    }

    var names: [NSValueTransformerName] {
        lock.lock()
        defer { lock.unlock() }
        return transformers.keys.sorted { $0.rawValue < $1.rawValue }
    }
}
