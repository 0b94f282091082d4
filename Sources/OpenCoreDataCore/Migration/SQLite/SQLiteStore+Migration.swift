/// Lightweight migration when a store is opened with a model it was not written with.
extension SQLiteStore {
    /// Migrates the store file to `model` when the options ask for automatic migration
    /// (``NSMigratePersistentStoresAutomaticallyOption``), as Apple's Core Data does: with a mapping
    /// model found in the bundles first, else with an inferred one when
    /// ``NSInferMappingModelAutomaticallyOption`` is on. When no mapping goes straight from the store's
    /// model to `model`, the store is migrated progressively through the versions of the model's
    /// bundle (``ProgressiveMigration``). Returns `false` when migration is not asked for.
    ///
    /// - Throws: ``NSMigrationMissingSourceModelError`` (134130) when no candidate model matches the
    ///   store; ``NSMigrationMissingMappingModelError`` (134140) when no mapping model is found and
    ///   inference is off; ``NSInferredMappingModelError`` (134190) when the mapping cannot be
    ///   inferred, directly or through intermediate versions; ``NSMigrationError`` (134110) for a
    ///   read-only store or a failed migration; the errors of ``NSMigrationManager``. The file is
    ///   unchanged whenever an error is thrown.
    func migrateOnOpenIfAsked(
        metadata: SQLiteStoreMetadata, model: NSManagedObjectModel,
        configuration: String?
    ) throws -> Bool {
        if try migrateThroughStagesIfAsked(metadata: metadata, model: model) { return true }
        guard PersistentStoreOptions.bool(options?[NSMigratePersistentStoresAutomaticallyOption]) == true else { return false }
        let url = fileURL
        guard !isReadOnly else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSMigrationError,
                userInfo: [
                    NSLocalizedDescriptionKey: "The store at \(url.path) needs migration but was opened read-only.",
                    NSURLErrorKey: url,
                ])
        }
        let registered = persistentStoreCoordinator?.migrationSourceModels ?? []
        let candidates = MigrationSourceModels.candidates(for: model, registered: registered)
        guard
            let source = MigrationSourceModels.sourceModel(
                forStoreAt: url, metadata: metadata.dictionary,
                configuration: configuration, candidates: candidates)
        else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSMigrationMissingSourceModelError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "Cannot migrate the store at \(url.path): the model it was written with was not found (searched \(MigrationSourceModels.searchedPlaces(for: model, registered: registered))).",
                    NSURLErrorKey: url,
                    "metadata": metadata.dictionary,
                ])
        }
        let defers = PersistentStoreOptions.bool(options?[NSPersistentStoreDeferredLightweightMigrationOptionKey]) == true
        let progress = options?[OCDMigrationProgressOptionKey] as? Progress
        if let found = Self.foundMappingModel(from: source, to: model) {
            try migrate(with: found, from: source, to: model, configuration: configuration, progress: progress)
            return true
        }
        let infers = PersistentStoreOptions.bool(options?[NSInferMappingModelAutomaticallyOption]) == true
        let sourceConfiguration = configuration.flatMap { source.configurations.contains($0) ? $0 : nil }
        let direct: SQLiteMigrationPlan
        do {
            guard infers else {
                throw NSError(
                    domain: NSCocoaErrorDomain, code: NSMigrationMissingMappingModelError,
                    userInfo: [
                        NSLocalizedDescriptionKey:
                            "Cannot migrate the store at \(url.path): no mapping model was found (searched the main bundle and the folder of the model's bundle) and NSInferMappingModelAutomaticallyOption is off.",
                        NSURLErrorKey: url,
                    ])
            }
            let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: model)
            direct = try SQLiteMigrationPlan(
                source: source, sourceConfiguration: sourceConfiguration, destination: model,
                destinationConfiguration: configuration, mapping: mapping)
        } catch let error as NSError where error.code == NSInferredMappingModelError || error.code == NSMigrationMissingMappingModelError {
            let versions = candidates.orderedVersions()
            let name = ProgressiveMigration.versionNames(versions)
            let found = ProgressiveMappingFiles()
            let sources = ProgressiveMigration.MappingSources(
                lookup: { found.mapping(from: $0, to: $1) }, infers: infers,
                configuration: configuration)
            let steps = try ProgressiveMigration.steps(
                from: source, to: model, through: versions.map(\.model),
                name: name, sources: sources)
            try ProgressiveMigration(storeURL: url, steps: steps)
                .run(progress: progress, handler: nil, defersCleanup: defers, sqlDebugLog: _sqlDebugLog, configuration: configuration)
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
