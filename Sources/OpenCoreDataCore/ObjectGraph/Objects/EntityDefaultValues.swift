import Foundation

/// The values a new object of an entity starts with: each attribute's default value from the model,
/// in canonical form (numbers of Integer and Double attributes unboxed in their slots).
///
/// They are computed once per entity of an immutable model (one in use by a coordinator), kept with the
/// entity's frozen lookups and shared by every object, which copies them only when it first changes a
/// value. Entities still being edited get them computed afresh each time.
enum EntityDefaultValues {
    /// The default values of every attribute of `entity` (inherited ones included) that has one.
    static func values(for entity: NSEntityDescription) -> PropertyValues {
        // Unretained: the entity keeps its lookups, and they keep their cache.
        guard let frozen = entity._frozen.map(Unmanaged.passUnretained) else { return compute(entity) }
        return frozen.withBorrowedReference { frozen in
            Unmanaged.passUnretained(frozen.derivedValues).withBorrowedReference { cache in
                cache.defaults { compute(entity) }
            }
        }
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
