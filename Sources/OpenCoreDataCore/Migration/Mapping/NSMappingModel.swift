/// How the instances of a source model become instances of a destination model during migration: one
/// entity mapping per destination entity (and per removed source entity).
open class NSMappingModel: NSObject, @unchecked Sendable {
    // @unchecked Sendable: a mapping model is configured before a migration starts and only read while
    // it runs; Apple documents mapping models as not to be changed during a migration.

    /// The entity mappings of the model.
    open var entityMappings: [NSEntityMapping]! = []

    /// The entity mappings of the model, keyed by their names.
    open var entityMappingsByName: [String: NSEntityMapping] {
        var result: [String: NSEntityMapping] = [:]
        for mapping in entityMappings ?? [] {
            if let name = mapping.name { result[name] = mapping }
        }
        return result
    }

    /// Creates an empty mapping model.
    public override init() {
        super.init()
    }

    /// Returns the mapping model Core Data infers between two models for a lightweight migration, or
    /// throws ``NSInferredMappingModelError`` (134190) naming why it cannot be inferred.
    ///
    /// See ``_inferredMappingModel(forSourceModel:destinationModel:)`` for the rules.
    open class func inferredMappingModel(
        forSourceModel sourceModel: NSManagedObjectModel,
        destinationModel: NSManagedObjectModel
    ) throws -> NSMappingModel {
        try _inferredMappingModel(forSourceModel: sourceModel, destinationModel: destinationModel)
    }

    /// The mapping whose destination entity is `name`.
    func entityMapping(forDestinationEntityNamed name: String) -> NSEntityMapping? {
        (entityMappings ?? []).first { $0.destinationEntityName == name && $0.mappingType != .removeEntityMappingType }
    }

    /// The mapping model restricted to the entity mappings that read entities among `sourceEntities`
    /// and write entities among `destinationEntities` (`nil`: any entity), for a store that holds one
    /// configuration of its model. Returns the receiver when nothing is left out.
    func _restricted(sourceEntities: [NSEntityDescription]?, destinationEntities: [NSEntityDescription]?) -> NSMappingModel {
        let sources = sourceEntities.map { Set($0.compactMap(\.name)) }
        let destinations = destinationEntities.map { Set($0.compactMap(\.name)) }
        let mappings = entityMappings ?? []
        let kept = mappings.filter { mapping in
            if let name = mapping.sourceEntityName, let sources, mapping.mappingType != .addEntityMappingType,
                !sources.contains(name)
            {
                return false
            }
            if let name = mapping.destinationEntityName, let destinations, mapping.mappingType != .removeEntityMappingType,
                !destinations.contains(name)
            {
                return false
            }
            return true
        }
        guard kept.count != mappings.count else { return self }
        let restricted = NSMappingModel()
        restricted.entityMappings = kept
        return restricted
    }

    /// A description listing the entity mappings.
    open override var description: String {
        "NSMappingModel(" + (entityMappings ?? []).map(\.description).joined(separator: "; ") + ")"
    }
}
