/// An entity's derived lookups, computed once when its model becomes immutable so that the by-name
/// accessors and the version hash cost a dictionary read afterwards. A class: reading one lookup through
/// `entity._frozen?` retains one reference instead of copying every field.
final class FrozenEntityLookups {
    let allProperties: [NSPropertyDescription]
    let propertiesByName: [String: NSPropertyDescription]
    let attributesByName: [String: NSAttributeDescription]
    let relationshipsByName: [String: NSRelationshipDescription]
    let versionHash: Data
    let writeTraits: EntityWriteTraits
    let slotLayout: PropertySlotLayout
    /// The property of each slot of `slotLayout`.
    let propertiesBySlot: [NSPropertyDescription?]
    /// The validation traits of the property of each slot (`.skipped` for a slot without one).
    let validationTraitsBySlot: [PropertyValidationTraits]
    /// Values computed once from the entity by the layers above (the default values new objects
    /// start with).
    let derivedValues = EntityValuesCache()

    /// Computes the lookups of an entity that is still editable (its `_frozen` is `nil`).
    init(_ entity: NSEntityDescription) {
        allProperties = entity._allProperties
        propertiesByName = entity.propertiesByName
        attributesByName = entity.attributesByName
        relationshipsByName = entity.relationshipsByName
        versionHash = VersionHashing.hash(of: entity)
        writeTraits = EntityWriteTraits(entity)
        let slotLayout = PropertySlotLayout.shared(entity)
        let byName = entity.propertiesByName
        self.slotLayout = slotLayout
        propertiesBySlot = slotLayout.names.map { byName[$0] }
        validationTraitsBySlot = propertiesBySlot.map { property in
            property.map(PropertyValidationTraits.init) ?? .skipped
        }
    }
}
