/// Lightweight migration when a store is opened with a model it was not written with.
extension SQLiteStore {
    /// Migrates the store file in place to `model` when the options ask for automatic migration
    /// (``NSMigratePersistentStoresAutomaticallyOption``) with an inferred mapping
    /// (``NSInferMappingModelAutomaticallyOption``). Returns `false` when migration is not asked for.
    ///
    /// - Throws: ``NSMigrationMissingSourceModelError`` (134130) when no candidate model matches the
    ///   store; ``NSMigrationMissingMappingModelError`` (134140) when inference is off (mapping model
    ///   files are not read); ``NSInferredMappingModelError`` (134190) when the mapping cannot be
    ///   inferred; ``NSMigrationError`` (134110) for a read-only store or a failed migration. The file
    ///   is unchanged whenever an error is thrown.
    func migrateOnOpenIfAsked(metadata: SQLiteStoreMetadata, model: NSManagedObjectModel,
                              configuration: String?) throws -> Bool {
        if try migrateThroughStagesIfAsked(metadata: metadata, model: model) { return true }
        guard PersistentStoreOptions.bool(options?[NSMigratePersistentStoresAutomaticallyOption]) == true else { return false }
        let url = fileURL
        guard !isReadOnly else {
            throw NSError(domain: NSCocoaErrorDomain, code: NSMigrationError, userInfo: [
                NSLocalizedDescriptionKey: "The store at \(url.path) needs migration but was opened read-only.",
                NSURLErrorKey: url,
            ])
        }
        let registered = persistentStoreCoordinator?.migrationSourceModels ?? []
        let candidates = MigrationSourceModels.candidates(for: model, registered: registered)
        guard let source = MigrationSourceModels.sourceModel(forStoreAt: url, metadata: metadata.dictionary,
                                                             configuration: configuration, candidates: candidates) else {
            throw NSError(domain: NSCocoaErrorDomain, code: NSMigrationMissingSourceModelError, userInfo: [
                NSLocalizedDescriptionKey: "Cannot migrate the store at \(url.path): the model it was written with was not found (searched \(MigrationSourceModels.searchedPlaces(for: model, registered: registered))).",
                NSURLErrorKey: url,
                "metadata": metadata.dictionary,
            ])
        }
        guard PersistentStoreOptions.bool(options?[NSInferMappingModelAutomaticallyOption]) == true else {
            throw NSError(domain: NSCocoaErrorDomain, code: NSMigrationMissingMappingModelError, userInfo: [
                NSLocalizedDescriptionKey: "Cannot migrate the store at \(url.path): no mapping model was found and NSInferMappingModelAutomaticallyOption is off (OpenCoreData does not read .xcmappingmodel files).",
                NSURLErrorKey: url,
            ])
        }
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: model)
        let sourceConfiguration = configuration.flatMap { source.configurations.contains($0) ? $0 : nil }
        let plan = try SQLiteMigrationPlan(source: source, sourceConfiguration: sourceConfiguration, destination: model,
                                           destinationConfiguration: configuration, mapping: mapping)
        var migration = SQLiteLightweightMigration(url: url, plan: plan, destinationConfiguration: configuration)
        migration.defersCleanup = PersistentStoreOptions.bool(options?[NSPersistentStoreDeferredLightweightMigrationOptionKey]) == true
        try migration.run()
        return true
    }
}
