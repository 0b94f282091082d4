import Testing

@testable import OpenCoreDataCore

/// `NSIgnorePersistentStoreVersioningOption`: a store written for another model opens without its
/// version hashes being compared, and without a migration.
@Suite("Ignore persistent store versioning option")
final class IgnoreVersioningOptionTests {
    let directory: URL

    init() throws {
        directory = try Fixtures.temporaryDirectory()
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The blog model with an extra attribute on Tag: Tag's version hash differs, the others do not.
    func changedModel() -> NSManagedObjectModel {
        let model = StoreKit.blogModel()
        model.entitiesByName["Tag"]?.properties += [ModelKit.attribute("color", .stringAttributeType)]
        return model
    }

    @Test("the option's name is Apple's")
    func name() {
        let key: String = NSIgnorePersistentStoreVersioningOption
        #expect(key == "NSIgnorePersistentStoreVersioningOption")
    }

    @Test("a store whose version hashes differ opens with the option, unmigrated, and its rows read")
    func opensDespiteDifferentHashes() throws {
        let url = directory.appendingPathComponent("Blog.sqlite")
        let (writer, store) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
        try StoreKit.insert(writer, "Post", [["title": "kept"]])
        let storedHashes = try #require(store.metadata[NSStoreModelVersionHashesKey] as? [String: Data])
        try writer.remove(store)

        let model = changedModel()
        #expect(
            !model.isConfiguration(
                withName: nil,
                compatibleWithStoreMetadata: [
                    NSStoreModelVersionHashesKey: storedHashes, NSStoreTypeKey: NSSQLiteStoreType,
                ]))
        let refused = NSPersistentStoreCoordinator(managedObjectModel: model)
        let error = try #require(throws: NSError.self) { try refused.addPersistentStore(type: .sqlite, at: url) }
        #expect(error.code == NSPersistentStoreIncompatibleVersionHashError)

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: changedModel())
        let opened = try coordinator.addPersistentStore(
            type: .sqlite, at: url,
            options: [NSIgnorePersistentStoreVersioningOption: true])
        #expect(coordinator.persistentStores.count == 1)
        #expect(opened.metadata[NSStoreModelVersionHashesKey] as? [String: Data] == storedHashes)
        #expect(try StoreKit.rows(url, "PRAGMA table_info(ZTAG)").allSatisfy { $0["name"] != "ZCOLOR" })

        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let titles = try context.performAndWait {
            try context.fetch(StoreKit.request("Post")).map { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["kept"])
    }

    @Test("the option set to false compares the hashes as usual")
    func falseKeepsTheCheck() throws {
        let url = directory.appendingPathComponent("Blog.sqlite")
        let (writer, store) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
        try writer.remove(store)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: changedModel())
        let error = try #require(throws: NSError.self) {
            try coordinator.addPersistentStore(type: .sqlite, at: url, options: [NSIgnorePersistentStoreVersioningOption: false])
        }
        #expect(error.code == NSPersistentStoreIncompatibleVersionHashError)
    }
}
