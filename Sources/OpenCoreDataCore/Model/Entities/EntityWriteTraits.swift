/// Facts about an entity that saving and change tracking read for every object, computed once when
/// the entity's model becomes immutable (and afresh while it is still editable).
struct EntityWriteTraits {
    /// Whether every property is a persistent attribute: the entity has no relationships, no
    /// transient properties and no fetched properties, so an object's current values are exactly the
    /// values of its row.
    let storesOnlyPersistentAttributes: Bool
    /// The derived attributes, recomputed before each save.
    let derivedAttributes: [NSDerivedAttributeDescription]

    init(_ entity: NSEntityDescription) {
        let properties = entity._allProperties
        storesOnlyPersistentAttributes = properties.allSatisfy { property in
            property is NSAttributeDescription && !property.isTransient
        }
        derivedAttributes = properties.compactMap { $0 as? NSDerivedAttributeDescription }
    }
}

extension NSEntityDescription {
    /// The entity's write traits: fixed once the model is in use.
    var _writeTraits: EntityWriteTraits {
        _frozen?.writeTraits ?? EntityWriteTraits(self)
    }
}
