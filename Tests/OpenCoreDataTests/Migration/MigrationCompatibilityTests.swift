import Testing

@testable import OpenCoreDataCore

/// The first seed's `CoreDataMigrationManager`, in Swift as a Core Data user writes it: check whether
/// a store needs migration from its metadata, back it up, then migrate by adding it with the options.
final class CoreDataMigrationManager {
    let coordinator: NSPersistentStoreCoordinator

    init(coordinator: NSPersistentStoreCoordinator) {
        self.coordinator = coordinator
    }

    func performLightweightMigration(storeURL: URL) throws -> Bool {
        if try !requiresMigration(storeURL) { return true }
        backupStoreBeforeMigration(storeURL)
        let options: [AnyHashable: Any] = [
            NSMigratePersistentStoresAutomaticallyOption: true,
            NSInferMappingModelAutomaticallyOption: true,
            NSSQLitePragmasOption: ["journal_mode": "WAL", "synchronous": "NORMAL"],
        ]
        _ = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL, options: options)
        return true
    }

    func requiresMigration(_ storeURL: URL) throws -> Bool {
        guard FileManager.default.fileExists(atPath: storeURL.path) else { return false }
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: storeURL, options: nil)
        let currentModel = coordinator.managedObjectModel
        let compatible = currentModel.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
        return !compatible
    }

    func backupStoreBeforeMigration(_ storeURL: URL) {
        let backupURL = URL(fileURLWithPath: storeURL.path + ".backup")
        try? FileManager.default.copyItem(at: storeURL, to: backupURL)
    }
}

/// Compatibility checks: store metadata, `isConfiguration(withName:compatibleWithStoreMetadata:)`,
/// `versionChecksum`, and the seed's requiresMigration/backup recipe.
@Suite("Migration compatibility")
struct MigrationCompatibilityTests {
    @Test("the seed's requiresMigration is false for a new location and the same model, true for a changed model")
    func requiresMigration() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("DataModel.sqlite")
        let v1 = MigrationKit.libraryV1()
        #expect(try CoreDataMigrationManager(coordinator: NSPersistentStoreCoordinator(managedObjectModel: v1)).requiresMigration(url) == false)
        try MigrationKit.makeStore(v1, at: url) { context in context.make("Tag", ["label": "x"]) }
        #expect(
            try CoreDataMigrationManager(coordinator: NSPersistentStoreCoordinator(managedObjectModel: MigrationKit.libraryV1())).requiresMigration(
                url) == false)
        let v2 = MigrationKit.libraryV1()
        v2.entitiesByName["Tag"]?.properties += [ModelKit.attribute("color", .stringAttributeType)]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v2)
        coordinator.migrationSourceModels = [MigrationKit.libraryV1()]
        let manager = CoreDataMigrationManager(coordinator: coordinator)
        #expect(try manager.requiresMigration(url))
        #expect(try manager.performLightweightMigration(storeURL: url))
        #expect(try manager.requiresMigration(url) == false)
        // The backup is the old store: it opens with V1 and holds the row.
        let backup = URL(fileURLWithPath: url.path + ".backup")
        let old = try MigrationKit.open(MigrationKit.libraryV1(), at: backup, sources: [], options: nil)
        #expect(MigrationKit.strings(try old.all("Tag"), "label") == ["x"])
    }

    @Test("store metadata records the model's version hashes and checksum; other models are incompatible")
    func metadata() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Library.sqlite")
        let v1 = MigrationKit.libraryV1()
        try MigrationKit.makeStore(v1, at: url) { _ in }
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        let hashes = try #require(metadata[NSStoreModelVersionHashesKey] as? [String: Data])
        #expect(hashes == v1.entityVersionHashesByName)
        #expect(metadata[NSStoreModelVersionChecksumKey] as? String == v1.versionChecksum)
        #expect(v1.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        let v2 = MigrationKit.libraryV1()
        v2.entitiesByName["Book"]?.attributesByName["price"]?.isOptional = false
        #expect(v2.versionChecksum != v1.versionChecksum)
        #expect(!v2.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        let missing = directory.file("none.sqlite")
        let error = try #require(throws: NSError.self) {
            _ = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: missing, options: nil)
        }
        #expect(error.localizedDescription.contains(missing.path))
    }

    @Test("backup with replacePersistentStore, migrate, and restore the backup with replace + destroy")
    func backupRecipe() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Library.sqlite")
        let backup = directory.file("Library-backup.sqlite")
        try MigrationKit.makeStore(MigrationKit.libraryV1(), at: url) { context in context.make("Tag", ["label": "kept"]) }
        let v2 = MigrationKit.libraryV1()
        v2.entitiesByName["Tag"]?.properties += [ModelKit.attribute("color", .stringAttributeType)]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v2)
        coordinator.migrationSourceModels = [MigrationKit.libraryV1()]
        try coordinator.replacePersistentStore(
            at: backup, destinationOptions: nil, withPersistentStoreFrom: url,
            sourceOptions: nil, type: .sqlite)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url, options: MigrationKit.lightweight)
        try coordinator.remove(store)
        #expect(try MigrationKit.differences(url, v2) == [])
        // Roll back: the backup replaces the migrated store, then is destroyed.
        try coordinator.replacePersistentStore(
            at: url, destinationOptions: nil, withPersistentStoreFrom: backup,
            sourceOptions: nil, type: .sqlite)
        try coordinator.destroyPersistentStore(at: backup, type: .sqlite)
        #expect(!FileManager.default.fileExists(atPath: backup.path))
        #expect(try MigrationKit.differences(url, MigrationKit.libraryV1()) == [])
        let old = try MigrationKit.open(MigrationKit.libraryV1(), at: url, sources: [], options: nil)
        #expect(MigrationKit.strings(try old.all("Tag"), "label") == ["kept"])
    }
}
