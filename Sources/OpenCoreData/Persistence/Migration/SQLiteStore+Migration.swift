/// Lightweight migration when a store is opened with a model it was not written with.
extension SQLiteStore {
    /// Migrates the store file in place to `model` when the options ask for automatic migration
    /// (``NSMigratePersistentStoresAutomaticallyOption``) with an inferred mapping
    /// (``NSInferMappingModelAutomaticallyOption``). When no mapping goes straight from the store's
    /// model to `model`, the store is migrated progressively through the versions of the model's
    /// bundle (``ProgressiveMigration``). Returns `false` when migration is not asked for.
    ///
    /// - Throws: ``NSMigrationMissingSourceModelError`` (134130) when no candidate model matches the
    ///   store; ``NSMigrationMissingMappingModelError`` (134140) when inference is off (mapping model
    ///   files are not read); ``NSInferredMappingModelError`` (134190) when the mapping cannot be
    ///   inferred, directly or through intermediate versions; ``NSMigrationError`` (134110) for a
    ///   read-only store or a failed migration. The file is unchanged whenever an error is thrown.
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
        let defers = PersistentStoreOptions.bool(options?[NSPersistentStoreDeferredLightweightMigrationOptionKey]) == true
        let progress = options?[OCDMigrationProgressOptionKey] as? Progress
        let sourceConfiguration = configuration.flatMap { source.configurations.contains($0) ? $0 : nil }
        let direct: SQLiteMigrationPlan
        do {
            let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: model)
            direct = try SQLiteMigrationPlan(source: source, sourceConfiguration: sourceConfiguration, destination: model,
                                             destinationConfiguration: configuration, mapping: mapping)
        } catch let error as NSError where error.code == NSInferredMappingModelError || error.code == NSMigrationMissingMappingModelError {
            guard configuration == nil || configuration == NSManagedObjectModel.defaultConfigurationName else { throw error }
            let versions = MigrationSourceModels.orderedVersions(for: model, registered: registered)
            let steps = try ProgressiveMigration.steps(from: source, to: model, through: versions.map(\.model)) { candidate in
                versions.first { $0.model.versionChecksum == candidate.versionChecksum }?.name
            }
            try ProgressiveMigration(storeURL: url, steps: steps)
                .run(progress: progress, handler: nil, defersCleanup: defers, sqlDebugLog: _sqlDebugLog, configuration: nil)
            return true
        }
        var migration = SQLiteLightweightMigration(url: url, plan: direct, destinationConfiguration: configuration)
        migration.defersCleanup = defers
        migration.sqlDebugLog = _sqlDebugLog
        if let progress {
            progress.totalUnitCount = 100
            migration.progress = { fraction, _ in progress.completedUnitCount = Int64((fraction * 100).rounded()) }
        }
        try migration.run()
        return true
    }
}
