import OpenCoreData

/// Small builders for model descriptions, shared by the model-layer tests.
enum ModelKit {
    static func attribute(
        _ name: String, _ type: NSAttributeType, optional: Bool = true,
        transient: Bool = false
    ) -> NSAttributeDescription {
        let attribute = NSAttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        attribute.isOptional = optional
        attribute.isTransient = transient
        return attribute
    }

    static func relationship(
        _ name: String, to destination: NSEntityDescription?, toMany: Bool = false,
        optional: Bool = true
    ) -> NSRelationshipDescription {
        let relationship = NSRelationshipDescription()
        relationship.name = name
        relationship.destinationEntity = destination
        relationship.maxCount = toMany ? 0 : 1
        relationship.isOptional = optional
        return relationship
    }

    static func entity(_ name: String, _ properties: [NSPropertyDescription] = []) -> NSEntityDescription {
        let entity = NSEntityDescription()
        entity.name = name
        entity.managedObjectClassName = name
        entity.properties = properties
        return entity
    }

    /// Makes two relationships each other's inverse.
    static func pair(_ first: NSRelationshipDescription, _ second: NSRelationshipDescription) {
        first.inverseRelationship = second
        second.inverseRelationship = first
    }

    static func hex(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }
}
