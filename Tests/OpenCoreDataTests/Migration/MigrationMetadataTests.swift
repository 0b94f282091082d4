import OpenCoreData
import Testing

/// A store migrated through `NSMigrationManager` keeps its identity: the store UUID and the metadata
/// keys its user set, while the model version keys become the destination model's.
@Suite("Migration keeps the store's metadata", .serialized)
struct MigrationMetadataTests {
    /// The user's own metadata keys.
    static var custom: [String: Any] { ["AppSyncToken": "token-17", "AppImportCount": 42] }

    /// A Staff V1 store (MappingFileKit) with one department, three employees and the custom metadata
    /// keys set through the coordinator; returns its project folder, URL and UUID.
    func makeStore(_ directory: TemporaryDirectory) throws -> (project: URL, store: URL, uuid: String) {
        let project = directory.url.appendingPathComponent("Staff")
        try MappingFileKit.writeProject(in: project)
        let url = directory.file("Staff.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try MappingFileKit.version("Staff", in: project))
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let department = context.make("Department", ["title": "R&D"])
        for (name, height) in [("ann", 95.0), ("bob", 180.0), ("cy", 99.0)] {
            context.make("Employee", ["name": name, "height": height, "department": department])
        }
        var metadata = coordinator.metadata(for: store)
        for (key, value) in Self.custom { metadata[key] = value }
        coordinator.setMetadata(metadata, for: store)
        try context.save()
        let uuid = try #require(store.identifier)
        try coordinator.remove(store)
        return (project, url, uuid)
    }

    /// Checks that `metadata` has the store's UUID, the custom keys and `model`'s version hashes.
    func expectKept(_ metadata: [String: Any], uuid: String, model: NSManagedObjectModel, old: NSManagedObjectModel) {
        #expect(metadata[NSStoreUUIDKey] as? String == uuid)
        #expect(metadata["AppSyncToken"] as? String == "token-17")
        #expect((metadata["AppImportCount"] as? NSNumber)?.intValue == 42)
        #expect(metadata[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(!old.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
    }

    @Test("migrateStore writes a destination store with the source store's UUID and metadata keys and the new model's hashes")
    func explicitMigration() throws {
        let directory = TemporaryDirectory()
        let (project, url, uuid) = try makeStore(directory)
        let v1 = try MappingFileKit.version("Staff", in: project)
        let v2 = try MappingFileKit.version("Staff 2", in: project)
        let mapping = try #require(NSMappingModel(contentsOf: project.appendingPathComponent("Staff1to2.xcmappingmodel")))
        let manager = NSMigrationManager(sourceModel: v1, destinationModel: v2)
        let destination = directory.file("Staff-migrated.sqlite")
        try manager.migrateStore(from: url, type: .sqlite, mapping: mapping, to: destination, type: .sqlite)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: destination)
        expectKept(metadata, uuid: uuid, model: v2, old: v1)

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v2)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: destination)
        #expect(store.identifier == uuid)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let ann = try #require(try context.all("Employee2", sortedBy: "name").first)
        #expect(ann.objectID.uriRepresentation().host?.uppercased() == uuid.uppercased())
    }

    @Test("a mapping model found at store open runs through the manager and the store keeps its UUID and metadata keys")
    func mappingModelAtStoreOpen() throws {
        let directory = TemporaryDirectory()
        let (project, url, uuid) = try makeStore(directory)
        let v2 = try MappingFileKit.version("Staff 2", in: project)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v2)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url, options: MigrationKit.lightweight)
        #expect(store.identifier == uuid)
        expectKept(coordinator.metadata(for: store), uuid: uuid, model: v2, old: try MappingFileKit.version("Staff", in: project))
        expectKept(
            try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url), uuid: uuid, model: v2,
            old: try MappingFileKit.version("Staff", in: project))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        #expect(MigrationKit.strings(try context.all("Employee2"), "name") == ["ann", "cy"])
    }

    @Test("a progressive chain whose first step runs through the manager keeps the store's UUID and metadata keys")
    func progressiveChainWithManagerStep() throws {
        let directory = TemporaryDirectory()
        let (project, url, uuid) = try makeStore(directory)
        let v3 = try MappingFileKit.version("Staff 3", in: project)
        let options: [AnyHashable: Any] = [
            NSMigratePersistentStoresAutomaticallyOption: true,
            NSInferMappingModelAutomaticallyOption: false,
        ]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v3)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
        #expect(store.identifier == uuid)
        expectKept(
            try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url), uuid: uuid, model: v3,
            old: try MappingFileKit.version("Staff", in: project))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        #expect(try context.all("Department").count == 1)
    }

    @Test("migrating into a store that already exists keeps that store's own UUID")
    func existingDestinationKeepsItsIdentity() throws {
        let directory = TemporaryDirectory()
        let (project, url, uuid) = try makeStore(directory)
        let v1 = try MappingFileKit.version("Staff", in: project)
        let v2 = try MappingFileKit.version("Staff 2", in: project)
        let destination = directory.file("Existing.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v2)
        let existing = try coordinator.addPersistentStore(type: .sqlite, at: destination)
        let existingUUID = try #require(existing.identifier)
        try coordinator.remove(existing)
        let mapping = try #require(NSMappingModel(contentsOf: project.appendingPathComponent("Staff1to2.xcmappingmodel")))
        try NSMigrationManager(sourceModel: v1, destinationModel: v2)
            .migrateStore(from: url, type: .sqlite, mapping: mapping, to: destination, type: .sqlite)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: destination)
        #expect(metadata[NSStoreUUIDKey] as? String == existingUUID)
        #expect(existingUUID != uuid)
        #expect(metadata["AppSyncToken"] == nil)
    }
}
