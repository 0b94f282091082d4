/// Inferring a mapping model from two models, as lightweight migration does.
extension NSMappingModel {
    /// The mapping model Core Data infers between two models for a lightweight migration.
    ///
    /// A destination entity comes from the source entity with its name, or with the name its
    /// `renamingIdentifier` gives; so does each destination attribute and relationship within its
    /// entity. Entities, attributes and relationships without a source are added; source entities
    /// without a destination are removed (mappings named `IEM_Add_<Entity>` and `IEM_Remove_<Entity>`).
    /// An unchanged entity's mapping is named `IEM_Copy_<Entity>`
    /// (``NSEntityMappingType/copyEntityMappingType``), a changed one's `IEM_Transform_<Entity>`
    /// (``NSEntityMappingType/transformEntityMappingType``). Integer attributes may change width and floating-point
    /// attributes precision; relationships may change between to-one and to-many and between ordered
    /// and unordered.
    ///
    /// - Throws: ``NSInferredMappingModelError`` (134190) naming the entity and property when a mapping
    ///   cannot be inferred: an attribute whose type changed, a relationship whose destination entity
    ///   is not the one it had, a property that changed between attribute and relationship, or two
    ///   destination entities or properties claiming the same source.
    static func _inferredMappingModel(
        forSourceModel sourceModel: NSManagedObjectModel,
        destinationModel: NSManagedObjectModel
    ) throws -> NSMappingModel {
        let model = NSMappingModel()
        var mappings: [NSEntityMapping] = []
        var claimed: [String: String] = [:]
        let destinationEntities = destinationModel.entities.sorted { ($0.name ?? "") < ($1.name ?? "") }
        for destination in destinationEntities {
            guard let destinationName = destination.name else { continue }
            let mapping = NSEntityMapping()
            mapping.destinationEntityName = destinationName
            mapping.destinationEntityVersionHash = destination.versionHash
            guard let source = Self._sourceEntity(for: destination, in: sourceModel), let sourceName = source.name else {
                mapping.name = "IEM_Add_" + destinationName
                mapping.mappingType = .addEntityMappingType
                mapping.attributeMappings = []
                mapping.relationshipMappings = []
                mappings.append(mapping)
                continue
            }
            if let other = claimed[sourceName] {
                throw _inferenceError("the destination entities \(other) and \(destinationName) both come from the source entity \(sourceName)")
            }
            claimed[sourceName] = destinationName
            mapping.sourceEntityName = sourceName
            mapping.sourceEntityVersionHash = source.versionHash
            mapping.attributeMappings = try Self._attributeMappings(destination, source)
            mapping.relationshipMappings = try Self._relationshipMappings(destination, source, sourceModel: sourceModel)
            mapping.mappingType =
                (sourceName == destinationName && source.versionHash == destination.versionHash)
                ? .copyEntityMappingType : .transformEntityMappingType
            // Apple's names for inferred mappings: IEM_Copy_<Entity> and IEM_Transform_<Entity>.
            mapping.name = (mapping.mappingType == .copyEntityMappingType ? "IEM_Copy_" : "IEM_Transform_") + destinationName
            mappings.append(mapping)
        }
        for source in sourceModel.entities.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }) {
            guard let sourceName = source.name, claimed[sourceName] == nil else { continue }
            let mapping = NSEntityMapping()
            mapping.name = "IEM_Remove_" + sourceName
            mapping.mappingType = .removeEntityMappingType
            mapping.sourceEntityName = sourceName
            mapping.sourceEntityVersionHash = source.versionHash
            mappings.append(mapping)
        }
        model.entityMappings = mappings
        return model
    }

    /// The source entity a destination entity comes from: the one named by its renaming identifier
    /// (or its own name), else the one whose renaming identifier is that name.
    static func _sourceEntity(for destination: NSEntityDescription, in sourceModel: NSManagedObjectModel) -> NSEntityDescription? {
        let key = destination.renamingIdentifier ?? destination.name ?? ""
        if let source = sourceModel.entitiesByName[key] { return source }
        return sourceModel.entities.first { $0.renamingIdentifier == key }
    }

    /// The source property a destination property comes from, within the source entity.
    static func _sourceProperty<P: NSPropertyDescription>(for destination: NSPropertyDescription, in sources: [String: P]) -> P? {
        let key = destination.renamingIdentifier ?? destination.name
        if let source = sources[key] { return source }
        return sources.values.sorted { $0.name < $1.name }.first { ($0.renamingIdentifier ?? "") == key && !key.isEmpty }
    }

    /// The attribute mappings of a destination entity coming from a source entity.
    static func _attributeMappings(_ destination: NSEntityDescription, _ source: NSEntityDescription) throws -> [NSPropertyMapping] {
        let entityName = destination.name ?? ""
        let sources = source.attributesByName.filter { !$0.value.isTransient }
        var result: [NSPropertyMapping] = []
        var claimed: [String: String] = [:]
        for (name, attribute) in destination.attributesByName.sorted(by: { $0.key < $1.key }) where !attribute.isTransient {
            guard let from = _sourceProperty(for: attribute, in: sources) else {
                if source.relationshipsByName[attribute.renamingIdentifier ?? name] != nil {
                    throw _inferenceError("attribute \(name) of entity \(entityName) was a relationship in the source model")
                }
                let mapping = NSPropertyMapping()
                mapping.name = name
                result.append(mapping)
                continue
            }
            guard _typesAreCompatible(from.attributeType, attribute.attributeType) else {
                throw _inferenceError(
                    "attribute \(name) of entity \(entityName) changed type from \(from.attributeType) to \(attribute.attributeType) (source attribute \(source.name ?? "").\(from.name))"
                )
            }
            if let other = claimed[from.name] {
                throw _inferenceError("attributes \(other) and \(name) of entity \(entityName) both come from the source attribute \(from.name)")
            }
            claimed[from.name] = name
            result.append(NSPropertyMapping(copying: from.name, into: name))
        }
        return result
    }

    /// The relationship mappings of a destination entity coming from a source entity.
    static func _relationshipMappings(
        _ destination: NSEntityDescription, _ source: NSEntityDescription,
        sourceModel: NSManagedObjectModel
    ) throws -> [NSPropertyMapping] {
        let entityName = destination.name ?? ""
        let sources = source.relationshipsByName.filter { !$0.value.isTransient }
        var result: [NSPropertyMapping] = []
        for (name, relationship) in destination.relationshipsByName.sorted(by: { $0.key < $1.key }) where !relationship.isTransient {
            guard let from = _sourceProperty(for: relationship, in: sources) else {
                if source.attributesByName[relationship.renamingIdentifier ?? name] != nil {
                    throw _inferenceError("relationship \(name) of entity \(entityName) was an attribute in the source model")
                }
                let mapping = NSPropertyMapping()
                mapping.name = name
                result.append(mapping)
                continue
            }
            if let target = relationship.destinationEntity, let oldTarget = from.destinationEntity {
                let mapped = _sourceEntity(for: target, in: sourceModel)
                let related = mapped.map { _isSameOrRelated($0, oldTarget) } ?? false
                guard related else {
                    throw _inferenceError(
                        "relationship \(name) of entity \(entityName) now leads to \(target.name ?? "?"), which does not come from its source destination \(oldTarget.name ?? "?")"
                    )
                }
            }
            let mapping = NSPropertyMapping()
            mapping.name = name
            mapping._sourcePropertyName = from.name
            mapping.valueExpression = NSExpression(
                format:
                    "FUNCTION($manager, \"destinationInstancesForSourceRelationshipNamed:sourceInstances:\" , \"\(from.name)\", $source.\(from.name))"
            )
            result.append(mapping)
        }
        return result
    }

    /// Whether two source entities are the same or one inherits from the other.
    static func _isSameOrRelated(_ a: NSEntityDescription, _ b: NSEntityDescription) -> Bool {
        if a === b { return true }
        var current = a.superentity
        while let next = current {
            if next === b { return true }
            current = next.superentity
        }
        current = b.superentity
        while let next = current {
            if next === a { return true }
            current = next.superentity
        }
        return false
    }

    /// Whether an attribute may change from one type to the other in a lightweight migration.
    static func _typesAreCompatible(_ from: NSAttributeType, _ to: NSAttributeType) -> Bool {
        if from == to { return true }
        let integers: Set<NSAttributeType> = [.integer16AttributeType, .integer32AttributeType, .integer64AttributeType]
        let floats: Set<NSAttributeType> = [.floatAttributeType, .doubleAttributeType]
        return (integers.contains(from) && integers.contains(to)) || (floats.contains(from) && floats.contains(to))
    }
}

/// The error thrown when a mapping model cannot be inferred.
func _inferenceError(_ reason: String) -> NSError {
    NSError(
        domain: NSCocoaErrorDomain, code: NSInferredMappingModelError,
        userInfo: [
            NSLocalizedDescriptionKey: "Cannot infer a mapping model: \(reason).",
            NSLocalizedFailureReasonErrorKey: reason,
            "reason": reason,
        ])
}
