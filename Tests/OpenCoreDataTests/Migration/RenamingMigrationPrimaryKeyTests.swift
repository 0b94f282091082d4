import OpenCoreData
import Testing

/// After a lightweight migration that renames an entity through its renaming identifier, Apple's Core
/// Data keeps the entity's old name in `Z_PRIMARYKEY.Z_NAME` while the metadata's version hashes carry the
/// new name (as in the shared store `alemar11__CoreDataPlus__SampleModel_V2`). Such stores open, and
/// OpenCoreData's renaming migrations leave `Z_NAME` as Apple's do.
@Suite("Renaming migrations and Z_PRIMARYKEY")
struct RenamingMigrationPrimaryKeyTests {
    static func model(renamed: Bool) -> NSManagedObjectModel {
        let car = ModelKit.entity(renamed ? "Auto" : "Car", [ModelKit.attribute("plate", .stringAttributeType)])
        car.managedObjectClassName = "NSManagedObject"
        if renamed { car.renamingIdentifier = "Car" }
        let model = NSManagedObjectModel()
        model.entities = [car]
        return model
    }

    @Test("a lightweight migration renaming Car to Auto keeps Z_NAME 'Car'; the hashes name Auto; the store reopens")
    func keepsOldName() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Cars.sqlite")
        do {
            let (coordinator, store) = try StoreKit.sqliteCoordinator(Self.model(renamed: false), at: url)
            try StoreKit.insert(coordinator, "Car", [["plate": "AB-1"]])
            try coordinator.remove(store)
        }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model(renamed: true))
        coordinator.migrationSourceModels = [Self.model(renamed: false)]
        let store = try coordinator.addPersistentStore(
            type: .sqlite, at: url,
            options: [
                NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
            ])
        let hashes = try #require(store.metadata[NSStoreModelVersionHashesKey] as? [String: Data])
        #expect(Set(hashes.keys) == ["Auto"])
        let names = try StoreKit.rows(url, "SELECT Z_NAME FROM Z_PRIMARYKEY").compactMap { $0["Z_NAME"] as String? }
        #expect(names == ["Car"])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let plates = try context.performAndWait {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Auto")).map { $0.value(forKey: "plate") as? String }
        }
        #expect(plates == ["AB-1"])
        try coordinator.remove(store)
        let reopened = NSPersistentStoreCoordinator(managedObjectModel: Self.model(renamed: true))
        try reopened.addPersistentStore(type: .sqlite, at: url)
        try StoreKit.insert(reopened, "Auto", [["plate": "CD-2"]])
        let again = try StoreKit.rows(url, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY")
        #expect(again.map { $0["Z_NAME"] as String? } == ["Car"])
        #expect(again.map { $0["Z_MAX"] as Int64? } == [2])
    }

    /// Auto with a second attribute and no renaming identifier: a later version of the renamed model.
    static func laterModel() -> NSManagedObjectModel {
        let car = ModelKit.entity(
            "Auto",
            [
                ModelKit.attribute("plate", .stringAttributeType),
                ModelKit.attribute("color", .stringAttributeType),
            ])
        car.managedObjectClassName = "NSManagedObject"
        let model = NSManagedObjectModel()
        model.entities = [car]
        return model
    }

    static func open(_ url: URL, _ model: NSManagedObjectModel, sources: [NSManagedObjectModel]) throws -> NSPersistentStoreCoordinator {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        coordinator.migrationSourceModels = sources
        try coordinator.addPersistentStore(
            type: .sqlite, at: url,
            options: [
                NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
            ])
        return coordinator
    }

    @Test("a later migration that renames nothing keeps the name an earlier one kept")
    func laterMigrationKeepsOldName() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Cars.sqlite")
        do {
            let (coordinator, store) = try StoreKit.sqliteCoordinator(Self.model(renamed: false), at: url)
            try StoreKit.insert(coordinator, "Car", [["plate": "AB-1"]])
            try coordinator.remove(store)
        }
        do {
            let renamed = try Self.open(url, Self.model(renamed: true), sources: [Self.model(renamed: false)])
            for store in renamed.persistentStores { try renamed.remove(store) }
        }
        let coordinator = try Self.open(url, Self.laterModel(), sources: [Self.model(renamed: true)])
        #expect(try StoreKit.rows(url, "SELECT Z_NAME FROM Z_PRIMARYKEY").map { $0["Z_NAME"] as String? } == ["Car"])
        #expect(try StoreKit.rows(url, "SELECT ZPLATE FROM ZAUTO").map { $0[0] as String? } == ["AB-1"])
        try StoreKit.insert(coordinator, "Auto", [["plate": "CD-2", "color": "red"]])
        #expect(try StoreKit.rows(url, "SELECT Z_MAX FROM Z_PRIMARYKEY").map { $0[0] as Int64? } == [2])
    }
}
