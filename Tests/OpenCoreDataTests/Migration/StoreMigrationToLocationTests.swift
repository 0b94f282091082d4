import Testing

@testable import OpenCoreDataCore

/// `migratePersistentStore(_:to:options:type:)` as Apple's Core Data does it: every object validated
/// against the model first, a store already at the target keeping its rows, a failed migration leaving
/// the old store the coordinator's only store.
@Suite("Migrating a store to another location")
final class StoreMigrationToLocationTests {
    let directory: URL

    init() throws {
        directory = try Fixtures.temporaryDirectory()
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Note(title) with, when `maximumLength` is given, a validation rule on the title's length (which
    /// stays out of the version hash, so stores of both models open with either).
    private func noteModel(maximumLength: Int? = nil) -> NSManagedObjectModel {
        let title = ModelKit.attribute("title", .stringAttributeType)
        if let maximumLength {
            title.setValidationPredicates(
                [NSPredicate(format: "length <= %d", maximumLength)],
                withValidationWarnings: ["Title too long"])
        }
        let model = NSManagedObjectModel()
        model.entities = [ModelKit.entity("Note", [title])]
        return model
    }

    private func writeStore(at url: URL, titles: [String]) throws {
        let (coordinator, store) = try StoreKit.sqliteCoordinator(noteModel(), at: url)
        try StoreKit.insert(coordinator, "Note", titles.map { ["title": $0] })
        try coordinator.remove(store)
    }

    private func titles(_ url: URL) throws -> [String] {
        try StoreKit.rows(url, "SELECT ZTITLE FROM ZNOTE ORDER BY ZTITLE").map { $0[0] as String }
    }

    @Test("an object failing the model's validation makes the migration throw; the old store stays and a new target holds nothing")
    func validationFailureToNewTarget() throws {
        let source = directory.appendingPathComponent("Source.sqlite")
        try writeStore(at: source, titles: ["ok", "far too long a title"])
        let (coordinator, store) = try StoreKit.sqliteCoordinator(noteModel(maximumLength: 5), at: source)
        let target = directory.appendingPathComponent("Target.sqlite")
        let error = try #require(throws: NSError.self) {
            try coordinator.migratePersistentStore(store, to: target, type: .sqlite)
        }
        #expect(error.domain == NSCocoaErrorDomain)
        // A validation predicate whose warning is a message fails with 1550, as in a save.
        #expect(error.code == NSManagedObjectValidationError)
        #expect(coordinator.persistentStores.count == 1 && coordinator.persistentStores.first === store)
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(try titles(source) == ["far too long a title", "ok"])
    }

    @Test("a failed migration into an existing store leaves that store's rows as they were")
    func validationFailureToExistingTarget() throws {
        let source = directory.appendingPathComponent("Source.sqlite")
        let target = directory.appendingPathComponent("Target.sqlite")
        try writeStore(at: source, titles: ["ok", "far too long a title"])
        try writeStore(at: target, titles: ["kept1", "kept2"])
        let (coordinator, store) = try StoreKit.sqliteCoordinator(noteModel(maximumLength: 5), at: source)
        #expect(throws: NSError.self) { try coordinator.migratePersistentStore(store, to: target, type: .sqlite) }
        #expect(coordinator.persistentStores.count == 1 && coordinator.persistentStores.first === store)
        #expect(try titles(target) == ["kept1", "kept2"])
    }

    @Test("migrating into an existing store adds the objects to its own")
    func migrationIntoExistingTarget() throws {
        let source = directory.appendingPathComponent("Source.sqlite")
        let target = directory.appendingPathComponent("Target.sqlite")
        try writeStore(at: source, titles: ["a", "b"])
        try writeStore(at: target, titles: ["kept"])
        let targetUUID = try #require(NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: target)[NSStoreUUIDKey] as? String)
        let (coordinator, store) = try StoreKit.sqliteCoordinator(noteModel(), at: source)
        let migrated = try coordinator.migratePersistentStore(store, to: target, type: .sqlite)
        #expect(coordinator.persistentStores.count == 1 && coordinator.persistentStores.first === migrated)
        #expect(migrated.identifier == targetUUID)
        #expect(try titles(target) == ["a", "b", "kept"])
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Note")) == 3)
    }

    @Test("migrating onto the location of a store of the same coordinator throws and changes nothing")
    func migrationOntoOpenStore() throws {
        let source = directory.appendingPathComponent("Source.sqlite")
        try writeStore(at: source, titles: ["a"])
        let (coordinator, store) = try StoreKit.sqliteCoordinator(noteModel(), at: source)
        #expect(throws: NSError.self) { try coordinator.migratePersistentStore(store, to: source, type: .sqlite) }
        #expect(coordinator.persistentStores.first === store)
        #expect(try titles(source) == ["a"])
    }
}
