import Foundation

/// The values a new object of an entity starts with: each attribute's default value from the model,
/// in canonical form.
///
/// They are computed once per entity of an immutable model (one in use by a coordinator) and shared by
/// every object, which copies the dictionary only when it first changes a value. Entities still being
/// edited get them computed afresh each time.
// @unchecked Sendable: `cache` is only read and changed with `lock` held; the cached dictionaries hold
// immutable canonical values (NSNumber, String, Date, Data, …) and are never mutated in place (objects
// copy them on their first change).
final class EntityDefaultValues: @unchecked Sendable {
    private static let shared = EntityDefaultValues()
    private let lock = NSLock()
    /// Default values by entity; the entity is kept so that an identifier is never reused for another.
    private var cache: [ObjectIdentifier: (entity: NSEntityDescription, values: PropertyValues)] = [:]

    /// The default values of every attribute of `entity` (inherited ones included) that has one.
    static func values(for entity: NSEntityDescription) -> PropertyValues {
        guard entity._frozen != nil else { return compute(entity) }
        let key = ObjectIdentifier(entity)
        if let cached = shared.lock.withLock({ shared.cache[key] }), cached.entity === entity {
            return cached.values
        }
        let values = compute(entity)
        shared.lock.withLock { shared.cache[key] = (entity, values) }
        return values
    }

    private static func compute(_ entity: NSEntityDescription) -> PropertyValues {
        var values = PropertyValues(entity: entity)
        for (name, attribute) in entity.attributesByName {
            if let value = attribute.defaultValue {
                values.setCanonical(ManagedValueCoercion.canonical(value, for: attribute.attributeType) ?? value, forKey: name)
            }
        }
        return values
    }
}
