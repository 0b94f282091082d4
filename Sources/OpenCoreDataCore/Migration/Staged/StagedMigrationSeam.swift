/// The option whose value, an `NSStagedMigrationManager`, migrates the store through the manager's
/// stages when it is added.
public let NSPersistentStoreStagedMigrationManagerOptionKey = "NSPersistentStoreStagedMigrationManagerOptionKey"

/// What the store needs from a staged migration manager (the Migration layer's
/// `NSStagedMigrationManager`), so that opening a store can run the stages without the Persistence
/// layer knowing about containers and contexts.
protocol StagedMigrationRunning: AnyObject {
    /// Migrates the SQLite store at `url`, whose metadata is `metadata`, through the stages to
    /// `model`; `coordinator` is the coordinator the store is being added to.
    func _migrateStore(
        at url: URL, metadata: [String: Any], to model: NSManagedObjectModel,
        coordinator: NSPersistentStoreCoordinator?) throws
}

extension SQLiteStore {
    /// Runs the staged migration manager of the options, if any; returns whether there was one.
    func migrateThroughStagesIfAsked(metadata: SQLiteStoreMetadata, model: NSManagedObjectModel) throws -> Bool {
        guard let manager = options?[NSPersistentStoreStagedMigrationManagerOptionKey] as? StagedMigrationRunning else { return false }
        guard !isReadOnly else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSMigrationError,
                userInfo: [
                    NSLocalizedDescriptionKey: "The store at \(fileURL.path) needs migration but was opened read-only.",
                    NSURLErrorKey: fileURL,
                ])
        }
        try manager._migrateStore(at: fileURL, metadata: metadata.dictionary, to: model, coordinator: persistentStoreCoordinator)
        return true
    }

    /// Migrates the store file in place from `source` to `destination` with the inferred mapping.
    static func migrateInPlace(at url: URL, from source: NSManagedObjectModel, to destination: NSManagedObjectModel) throws {
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
        let plan = try SQLiteMigrationPlan(
            source: source, sourceConfiguration: nil, destination: destination,
            destinationConfiguration: nil, mapping: mapping)
        try SQLiteLightweightMigration(url: url, plan: plan, destinationConfiguration: nil).run()
    }
}
