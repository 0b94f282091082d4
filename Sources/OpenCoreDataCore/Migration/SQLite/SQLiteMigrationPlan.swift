/// What a lightweight migration of a SQLite store does, computed from the two models' layouts and a
/// mapping model before the file is touched.
struct SQLiteMigrationPlan {
    /// One destination entity whose rows come from one source entity.
    struct EntityPlan {
        /// The destination entity and its layout.
        let destination: NSEntityDescription
        let destinationLayout: SQLiteEntityLayout
        /// The source entity and its layout.
        let source: NSEntityDescription
        let sourceLayout: SQLiteEntityLayout
        /// Destination attribute name → source attribute name, for the attributes that keep values.
        let attributes: [String: String]
        /// Destination relationship name → source relationship name.
        let relationships: [String: String]
    }

    let sourceSchema: SQLiteSchema
    let destinationSchema: SQLiteSchema
    let sourceModel: NSManagedObjectModel
    let destinationModel: NSManagedObjectModel
    /// The plans, in destination entity-number order.
    let entities: [EntityPlan]
    /// Plans by destination entity name.
    let entitiesByDestination: [String: EntityPlan]

    /// Computes the plan.
    ///
    /// - Throws: ``NSMigrationMissingMappingModelError`` (134140) when an entity or property mapping
    ///   needs more than copying values (a custom policy or expression), which only a migration
    ///   manager can run; the layout errors of either model.
    init(
        source: NSManagedObjectModel, sourceConfiguration: String?, destination: NSManagedObjectModel,
        destinationConfiguration: String?, mapping: NSMappingModel
    ) throws {
        sourceModel = source
        destinationModel = destination
        sourceSchema = try SQLiteSchema(model: source, configurationName: sourceConfiguration)
        destinationSchema = try SQLiteSchema(model: destination, configurationName: destinationConfiguration)
        var plans: [EntityPlan] = []
        for layout in destinationSchema.entities {
            guard let entity = destination.entitiesByName[layout.name],
                let entityMapping = mapping.entityMapping(forDestinationEntityNamed: layout.name),
                entityMapping.mappingType != .addEntityMappingType
            else { continue }
            guard
                entityMapping.entityMigrationPolicyClassName == nil
                    || entityMapping.entityMigrationPolicyClassName == "NSEntityMigrationPolicy",
                entityMapping.mappingType != .customEntityMappingType,
                entityMapping.mappingType != .undefinedEntityMappingType
            else {
                throw Self.needsManager("the entity mapping \(entityMapping.name ?? layout.name) uses a custom migration policy")
            }
            guard let sourceName = entityMapping.sourceEntityName, let sourceEntity = source.entitiesByName[sourceName],
                let sourceLayout = sourceSchema.entity(named: sourceName)
            else { continue }
            if let filter = entityMapping.sourceExpression?.description, filter.contains("$source.") {
                throw Self.needsManager("the entity mapping \(entityMapping.name ?? layout.name) filters its source instances")
            }
            plans.append(
                EntityPlan(
                    destination: entity, destinationLayout: layout, source: sourceEntity,
                    sourceLayout: sourceLayout,
                    attributes: try Self.sources(of: entityMapping.attributeMappings, entity: layout.name),
                    relationships: try Self.sources(of: entityMapping.relationshipMappings, entity: layout.name)))
        }
        entities = plans
        var byName: [String: EntityPlan] = [:]
        for plan in plans { byName[plan.destinationLayout.name] = plan }
        entitiesByDestination = byName
    }

    /// Destination property → source property for property mappings that copy a value; mappings
    /// without an expression leave the property at its default.
    private static func sources(of mappings: [NSPropertyMapping]?, entity: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for mapping in mappings ?? [] {
            guard let name = mapping.name else { continue }
            if let source = mapping.sourcePropertyName {
                result[name] = source
            } else if mapping.valueExpression != nil {
                throw needsManager("the value of \(entity).\(name) is computed by the expression \(mapping.valueExpression?.description ?? "")")
            }
        }
        return result
    }

    /// The error for a mapping the in-place SQLite migration cannot run.
    static func needsManager(_ reason: String) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSMigrationMissingMappingModelError,
            userInfo: [
                NSLocalizedDescriptionKey: "The store cannot be migrated in place: \(reason); migrate it with an NSMigrationManager."
            ])
    }

    /// The source relationship a destination relationship comes from, with the source layout that
    /// declares it.
    func sourceRelationship(for relationship: NSRelationshipDescription) -> NSRelationshipDescription? {
        guard let owner = relationship.entity.name, let plan = entitiesByDestination[owner],
            let sourceName = plan.relationships[relationship.name]
        else { return nil }
        return plan.source.relationshipsByName[sourceName]
    }
}
