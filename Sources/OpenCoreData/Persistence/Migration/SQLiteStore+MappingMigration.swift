import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Migration at store open with a mapping model found in the app's bundles, as Apple's Core Data
/// does before it infers one: a mapping that only copies values runs in place like a lightweight
/// migration; any other (custom policies, value expressions, filter predicates) runs through an
/// ``NSMigrationManager`` into a new file that then replaces the store.
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
           folder.standardizedFileURL != Bundle.main.bundleURL.standardizedFileURL, let bundle = Bundle(url: folder) {
            bundles.append(bundle)
        }
        return bundles
    }

    /// Migrates the store file with a mapping model: in place when the mapping only copies values,
    /// else through a migration manager and a file swap.
    func migrate(with mapping: NSMappingModel, from source: NSManagedObjectModel, to destination: NSManagedObjectModel,
                 configuration: String?, progress: Progress?) throws {
        let sourceConfiguration = configuration.flatMap { source.configurations.contains($0) ? $0 : nil }
        if let plan = try? SQLiteMigrationPlan(source: source, sourceConfiguration: sourceConfiguration, destination: destination,
                                               destinationConfiguration: configuration, mapping: mapping) {
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
        try Self.migrateWithManager(at: fileURL, from: source, to: destination, mapping: mapping,
                                    configuration: configuration) { fraction, _ in
            progress?.completedUnitCount = Int64((fraction * 100).rounded())
        }
    }

    /// Runs a migration manager from the store at `url` into a new file beside it, then moves the new
    /// file over the store. A failure or a crash before the move leaves the store as it was; the move
    /// itself is atomic. For a store of a named configuration, the manager reads and writes that
    /// configuration's entities only. The store keeps its UUID and metadata keys. Once the new file
    /// has replaced the store, externally stored values it no longer references are removed.
    static func migrateWithManager(at url: URL, from source: NSManagedObjectModel, to destination: NSManagedObjectModel,
                                   mapping: NSMappingModel, configuration: String? = nil,
                                   report: ((Double, String) -> Void)?) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).migrating")
        removeFiles(of: temporary)
        let manager = NSMigrationManager(sourceModel: source, destinationModel: destination)
        manager._sourceConfiguration = ProgressiveMigration.configuration(configuration, in: source)
        manager._destinationConfiguration = ProgressiveMigration.configuration(configuration, in: destination)
        let mapping = mapping._restricted(sourceEntities: source.entities(forConfigurationName: manager._sourceConfiguration),
                                          destinationEntities: destination.entities(forConfigurationName: manager._destinationConfiguration))
        if let report { manager.migrationProgressHandler = { fraction in report(Double(fraction), "Migrating with a mapping model") } }
        do {
            try manager.migrateStore(from: url, type: .sqlite, options: nil, mapping: mapping, to: temporary, type: .sqlite, options: nil)
        } catch {
            removeFiles(of: temporary)
            throw error
        }
        try replaceStore(at: url, withMigratedFile: temporary)
        SQLiteExternalDataCleanup.removeUnreferencedFiles(ofStoreAt: url, model: destination,
                                                          configuration: manager._destinationConfiguration)
    }

    /// Copies the store at `url`, with its write-ahead log folded in, to a working file beside it, for a
    /// migration that must not touch the store until it has finished.
    static func makeWorkingCopy(of url: URL) throws -> URL {
        let working = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).progressive")
        removeFiles(of: working)
        do {
            try checkpoint(url)
            try FileManager.default.copyItem(at: url, to: working)
            try shareExternalData(of: url, with: working)
        } catch {
            removeFiles(of: working)
            throw NSError(domain: NSCocoaErrorDomain, code: NSMigrationError, userInfo: [
                NSLocalizedDescriptionKey: "Migrating the store at \(url.path) failed: it could not be copied to a working file (\(error.localizedDescription)). The store was left unchanged.",
                NSURLErrorKey: url,
                NSUnderlyingErrorKey: error,
            ])
        }
        return working
    }

    /// Moves a fully migrated file over the store at `url` in one atomic rename, after folding both files'
    /// write-ahead logs into them. A failure before the rename leaves the store as it was and removes the
    /// migrated file.
    static func replaceStore(at url: URL, withMigratedFile migrated: URL) throws {
        do {
            try checkpoint(migrated)
            try checkpoint(url)
            // The migrated file's externally stored values join the store's before the rename, so the
            // store finds them whichever file it turns out to be after a crash.
            try shareExternalData(of: migrated, with: url)
        } catch {
            removeFiles(of: migrated)
            throw error
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        guard rename(migrated.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            removeFiles(of: migrated)
            throw NSError(domain: NSCocoaErrorDomain, code: NSMigrationError, userInfo: [
                NSLocalizedDescriptionKey: "Migrating the store at \(url.path) failed: the migrated file could not replace it (\(reason)). The store was left unchanged.",
                NSURLErrorKey: url,
            ])
        }
        removeFiles(of: migrated)
    }

    /// Moves everything the write-ahead log of the file holds into the file, and empties the log.
    private static func checkpoint(_ url: URL) throws {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try SQLiteStoreFileAccess.run(url) {
            try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        }
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
