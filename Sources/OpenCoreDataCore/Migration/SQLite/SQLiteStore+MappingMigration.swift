import GRDB

/// Migration at store open with a mapping model found in the app's bundles, as Apple's Core Data
/// does before it infers one: a mapping that only copies values runs in place like a lightweight
/// migration; any other (custom policies, value expressions, filter predicates) runs through an
/// ``NSMigrationManager`` into a new file whose content then replaces the store's.
extension SQLiteStore {
    /// The mapping model from `source` to `destination` found in the main bundle or in the folder that
    /// holds the model's `.xcdatamodeld` bundle (and its subfolders), if any.
    static func foundMappingModel(from source: NSManagedObjectModel, to destination: NSManagedObjectModel) -> NSMappingModel? {
        NSMappingModel(from: mappingModelBundles(for: destination), forSourceModel: source, destinationModel: destination)
    }

    /// The bundles searched for mapping models into `destination`: the main bundle and the folder that
    /// holds the model's `.xcdatamodeld` bundle.
    static func mappingModelBundles(for destination: NSManagedObjectModel) -> [Bundle] {
        var bundles = [Bundle.main]
        if let folder = MigrationSourceModels.bundleURL(of: destination)?.deletingLastPathComponent(),
            folder.standardizedFileURL != Bundle.main.bundleURL.standardizedFileURL, let bundle = Bundle(url: folder)
        {
            bundles.append(bundle)
        }
        return bundles
    }

    /// Migrates the store file with a mapping model: in place when the mapping only copies values,
    /// else through a migration manager whose result replaces the store's content (``SQLiteStoreRewrite``).
    func migrate(
        with mapping: NSMappingModel, from source: NSManagedObjectModel, to destination: NSManagedObjectModel,
        configuration: String?, progress: Progress?
    ) throws {
        let sourceConfiguration = configuration.flatMap { source.configurations.contains($0) ? $0 : nil }
        if let plan = try? SQLiteMigrationPlan(
            source: source, sourceConfiguration: sourceConfiguration, destination: destination,
            destinationConfiguration: configuration, mapping: mapping)
        {
            var migration = SQLiteLightweightMigration(url: fileURL, plan: plan, destinationConfiguration: configuration)
            migration.sqlDebugLog = _sqlDebugLog
            migration.defersCleanup = PersistentStoreOptions.bool(options?[NSPersistentStoreDeferredLightweightMigrationOptionKey]) == true
            if let progress {
                progress.totalUnitCount = 100
                migration.progress = { fraction, _ in progress.completedUnitCount = Int64((fraction * 100).rounded()) }
            }
            try migration.run()
            return
        }
        progress?.totalUnitCount = 100
        try Self.migrateWithManager(
            at: fileURL, from: source, to: destination, mapping: mapping,
            configuration: configuration
        ) { fraction, _ in
            progress?.completedUnitCount = Int64((fraction * 100).rounded())
        }
    }

    /// Runs a migration manager from the store at `url` into a new file beside it, then copies the new
    /// file's content into the store, all while holding the store's write lock (see
    /// ``SQLiteStoreRewrite``): other connections and processes keep a store with a name, a failure or a
    /// crash leaves the store as it was, and no save of another process can fall between the read and
    /// the replacement. For a store of a named configuration, the manager reads and writes that
    /// configuration's entities only. The store keeps its UUID, its metadata keys and its persistent
    /// history (``SQLiteHistoryCarryOver``). Once the store holds
    /// the migrated content, externally stored values it no longer references are removed.
    static func migrateWithManager(
        at url: URL, from source: NSManagedObjectModel, to destination: NSManagedObjectModel,
        mapping: NSMappingModel, configuration: String? = nil,
        report: ((Double, String) -> Void)?
    ) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).migrating")
        defer { removeFiles(of: temporary) }
        let manager = NSMigrationManager(sourceModel: source, destinationModel: destination)
        manager._sourceConfiguration = ProgressiveMigration.configuration(configuration, in: source)
        manager._destinationConfiguration = ProgressiveMigration.configuration(configuration, in: destination)
        let mapping = mapping._restricted(
            sourceEntities: source.entities(forConfigurationName: manager._sourceConfiguration),
            destinationEntities: destination.entities(forConfigurationName: manager._destinationConfiguration))
        if let report { manager.migrationProgressHandler = { fraction in report(Double(fraction), "Migrating with a mapping model") } }
        try SQLiteStoreRewrite(url: url).run {
            // Another process may have migrated the store while this one waited for the write lock.
            if try SQLiteStoreRewrite.isAtModel(destination, configuration: manager._destinationConfiguration, storeAt: url) {
                return nil
            }
            removeFiles(of: temporary)
            try manager.migrateStore(from: url, type: .sqlite, options: nil, mapping: mapping, to: temporary, type: .sqlite, options: nil)
            // The store's persistent history goes with it, renamed for the new file; the manager's own
            // writes (into a store without tracking) are not recorded.
            try SQLiteHistoryCarryOver.copy(from: url, into: temporary, manager: manager, mapping: mapping)
            // The migrated file's externally stored values join the store's before the store changes, so
            // the store finds them whether or not the replacement commits.
            try shareExternalData(of: temporary, with: url)
            return temporary
        }
        SQLiteExternalDataCleanup.removeUnreferencedFiles(
            ofStoreAt: url, model: destination,
            configuration: manager._destinationConfiguration)
    }

    /// Copies the store at `url` (what its write-ahead log holds included) to a working file beside it,
    /// through SQLite's backup API, for a migration that must not touch the store until it has finished.
    static func makeWorkingCopy(of url: URL) throws -> URL {
        let working = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).progressive")
        removeFiles(of: working)
        do {
            let source = try SQLiteStoreFileAccess.openForReading(url)
            defer { try? source.close() }
            let destination = try DatabaseQueue(path: working.path)
            defer { try? destination.close() }
            try source.backup(to: destination)
            try shareExternalData(of: url, with: working)
        } catch {
            removeFiles(of: working)
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSMigrationError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "Migrating the store at \(url.path) failed: it could not be copied to a working file (\(error.localizedDescription)). The store was left unchanged.",
                    NSURLErrorKey: url,
                    NSUnderlyingErrorKey: error,
                ])
        }
        return working
    }

    /// Removes a temporary SQLite file of a migration, its journal files and its folder of externally
    /// stored values, if present.
    static func removeFiles(of url: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        try? FileManager.default.removeItem(at: ExternalBinaryStorage(storeURL: url).directory.deletingLastPathComponent())
    }

    /// Makes the externally stored values of the store at `source` available to the store at
    /// `destination` as well (hard links where the file system allows, copies otherwise). Files are
    /// named by UUID, so a name the destination already has is the same value and is left alone.
    static func shareExternalData(of source: URL, with destination: URL) throws {
        let manager = FileManager.default
        let from = ExternalBinaryStorage(storeURL: source).directory
        let to = ExternalBinaryStorage(storeURL: destination).directory
        guard let names = try? manager.contentsOfDirectory(atPath: from.path), !names.isEmpty else { return }
        try manager.createDirectory(at: to, withIntermediateDirectories: true)
        for name in names where !manager.fileExists(atPath: to.appendingPathComponent(name).path) {
            let file = from.appendingPathComponent(name)
            do {
                try manager.linkItem(at: file, to: to.appendingPathComponent(name))
            } catch {
                try manager.copyItem(at: file, to: to.appendingPathComponent(name))
            }
        }
    }
}
