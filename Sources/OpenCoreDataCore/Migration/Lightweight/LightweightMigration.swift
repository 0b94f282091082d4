/// Lightweight migration of SQLite store files, for tools that migrate a store outside a coordinator
/// (`ocd migrate`) and show what a migration will do.
///
/// This type is an OpenCoreData addition. Apps migrate by adding the store to a coordinator with
/// ``NSMigratePersistentStoresAutomaticallyOption`` and ``NSInferMappingModelAutomaticallyOption``.
public enum LightweightMigration {
    /// Returns the model among `candidates` that the SQLite store at `url` was written with: the first
    /// whose entity version hashes are the store's, else the first whose layout is exactly the file's.
    ///
    /// - Throws: the errors of reading the store's metadata; ``NSMigrationMissingSourceModelError``
    ///   (134130) naming the file when no candidate matches.
    public static func sourceModel(forStoreAt url: URL, among candidates: [NSManagedObjectModel]) throws -> NSManagedObjectModel {
        let metadata = try SQLiteStoreMetadata.read(fromStoreAt: url).dictionary
        guard
            let model = MigrationSourceModels.sourceModel(
                forStoreAt: url, metadata: metadata, configuration: nil,
                candidates: candidates)
        else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSMigrationMissingSourceModelError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "None of the \(candidates.count) model(s) searched is the model the store at \(url.path) was written with.",
                    NSURLErrorKey: url,
                ])
        }
        return model
    }

    /// Migrates the SQLite store at `url` in place from `sourceModel` to `destinationModel`, in one
    /// transaction, with `mapping` or the inferred mapping model. `progress` is called with the
    /// fraction done (0…1) and what is being done.
    ///
    /// - Throws: ``NSInferredMappingModelError`` (134190) when no mapping is given and none can be
    ///   inferred; ``NSMigrationMissingMappingModelError`` (134140) when the mapping needs a custom
    ///   policy or expression; ``NSMigrationManagerSourceStoreError`` (134150) when the file is not
    ///   laid out for the source model; ``NSMigrationError`` (134110) or
    ///   ``NSMigrationConstraintViolationError`` (134111) when rows cannot be migrated. The file is
    ///   unchanged whenever an error is thrown.
    public static func migrateStore(
        at url: URL, sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel,
        mapping: NSMappingModel? = nil, progress: ((Double, String) -> Void)? = nil
    ) throws {
        let mapping = try mapping ?? NSMappingModel.inferredMappingModel(forSourceModel: sourceModel, destinationModel: destinationModel)
        let plan = try SQLiteMigrationPlan(
            source: sourceModel, sourceConfiguration: nil, destination: destinationModel,
            destinationConfiguration: nil, mapping: mapping)
        var migration = SQLiteLightweightMigration(url: url, plan: plan, destinationConfiguration: nil)
        migration.progress = progress
        try migration.run()
    }

    /// Lines describing a mapping: entities and properties added, removed and renamed
    /// (`+ entity Shelf`, `- Person.age`, `~ Person.nickname → alias`), in entity-name order. An empty
    /// array means the models store the same entities and properties.
    public static func summary(
        of mapping: NSMappingModel, sourceModel: NSManagedObjectModel,
        destinationModel: NSManagedObjectModel
    ) -> [String] {
        var lines: [String] = []
        let mappings = (mapping.entityMappings ?? []).sorted {
            ($0.destinationEntityName ?? $0.sourceEntityName ?? "") < ($1.destinationEntityName ?? $1.sourceEntityName ?? "")
        }
        for entityMapping in mappings {
            switch entityMapping.mappingType {
            case .addEntityMappingType:
                lines.append("+ entity \(entityMapping.destinationEntityName ?? "?")")
                continue
            case .removeEntityMappingType:
                lines.append("- entity \(entityMapping.sourceEntityName ?? "?")")
                continue
            default:
                break
            }
            guard let name = entityMapping.destinationEntityName, let sourceName = entityMapping.sourceEntityName,
                destinationModel.entitiesByName[name] != nil, let source = sourceModel.entitiesByName[sourceName]
            else { continue }
            if name != sourceName { lines.append("~ entity \(sourceName) → \(name)") }
            var used: Set<String> = []
            let properties = (entityMapping.attributeMappings ?? []) + (entityMapping.relationshipMappings ?? [])
            for property in properties.sorted(by: { ($0.name ?? "") < ($1.name ?? "") }) {
                guard let propertyName = property.name else { continue }
                if let from = property.sourcePropertyName {
                    used.insert(from)
                    if from != propertyName { lines.append("~ \(name).\(from) → \(propertyName)") }
                } else {
                    lines.append("+ \(name).\(propertyName)")
                }
            }
            for property in source.propertiesByName.values.sorted(by: { $0.name < $1.name })
            where !property.isTransient && !used.contains(property.name) {
                lines.append("- \(name).\(property.name)")
            }
        }
        return lines
    }
}
