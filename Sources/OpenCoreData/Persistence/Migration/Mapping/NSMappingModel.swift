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

    /// The mapping whose destination entity is `name`.
    func entityMapping(forDestinationEntityNamed name: String) -> NSEntityMapping? {
        (entityMappings ?? []).first { $0.destinationEntityName == name && $0.mappingType != .removeEntityMappingType }
    }

    /// A description listing the entity mappings.
    open override var description: String {
        "NSMappingModel(" + (entityMappings ?? []).map(\.description).joined(separator: "; ") + ")"
    }
}
