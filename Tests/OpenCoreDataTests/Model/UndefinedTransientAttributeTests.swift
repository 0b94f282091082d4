import Testing

@testable import OpenCoreDataCore

/// A transient attribute with no `attributeType` in its model file: Xcode's "Undefined" type
/// (`NSAttributeType.undefinedAttributeType`), which real apps' models use for scratch values.
@Suite("Undefined transient attributes")
final class UndefinedTransientAttributeTests {
    let directory: URL

    init() throws {
        directory = try Fixtures.temporaryDirectory()
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A Note entity with a title and a typeless transient `scratch`; version 2 adds `body`.
    static func body(version: Int) -> String {
        """
        <entity name="Note" representedClassName="NSManagedObject" syncable="YES">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="scratch" optional="YES" transient="YES"/>
            \(version >= 2 ? #"<attribute name="body" optional="YES" attributeType="String"/>"# : "")
        </entity>
        """
    }

    @Test("a transient attribute with no attributeType loads as undefinedAttributeType")
    func loads() throws {
        let model = try ModelFileKit.load(Self.body(version: 1))
        let scratch = try #require(model.entitiesByName["Note"]?.attributesByName["scratch"])
        #expect(scratch.attributeType == .undefinedAttributeType)
        #expect(scratch.isTransient)
        #expect(scratch.type == .undefined)
    }

    @Test("a persistent attribute with no attributeType is refused, naming the property")
    func persistentRefused() throws {
        let error = try ModelFileKit.loadError(
            """
            <entity name="Note"><attribute name="scratch" optional="YES"/></entity>
            """)
        #expect(error.localizedDescription.contains("scratch"))
        #expect(error.localizedDescription.contains("attributeType"))
    }

    @Test("the typeless transient stays out of the version hash and the store")
    func versionHash() throws {
        let withScratch = try ModelFileKit.load(Self.body(version: 1))
        let without = try ModelFileKit.load(
            """
            <entity name="Note" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="title" optional="YES" attributeType="String"/>
            </entity>
            """)
        #expect(withScratch.entityVersionHashesByName["Note"] == without.entityVersionHashesByName["Note"])
    }

    @Test("a SQLite store of the model saves, holds any value in the transient, and reads back")
    func store() throws {
        let model = try ModelFileKit.load(Self.body(version: 1))
        let url = directory.appendingPathComponent("Notes.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue("first", forKey: "title")
            note.setValue(["any", 1] as [Any], forKey: "scratch")
            try context.save()
            #expect((note.value(forKey: "scratch") as? [Any])?.count == 2)
        }
        #expect(try StoreKit.rows(url, "PRAGMA table_info(ZNOTE)").allSatisfy { $0["name"] != "ZSCRATCH" })
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        try reader.performAndWait {
            let note = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).first)
            #expect(note.value(forKey: "title") as? String == "first")
            #expect(note.value(forKey: "scratch") == nil)
        }
    }

    @Test("a lightweight migration between versions that both have the typeless transient keeps the rows")
    func migration() throws {
        let bundle = directory.appendingPathComponent("Notes.xcdatamodeld", isDirectory: true)
        try ModelFileKit.writeVersion(ModelFileKit.contents(Self.body(version: 1)), named: "Notes", in: bundle)
        try ModelFileKit.writeVersion(ModelFileKit.contents(Self.body(version: 2)), named: "Notes 2", in: bundle)
        try ModelFileKit.writeCurrentVersion("Notes.xcdatamodel", in: bundle)
        let url = directory.appendingPathComponent("Notes.sqlite")
        do {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: try NSManagedObjectModel.load(from: bundle))
            let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
            try StoreKit.insert(coordinator, "Note", [["title": "kept"]])
            try coordinator.remove(store)
        }
        try ModelFileKit.writeCurrentVersion("Notes 2.xcdatamodel", in: bundle)
        let current = try NSManagedObjectModel.load(from: bundle)
        #expect(current.entitiesByName["Note"]?.attributesByName["body"] != nil)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: current)
        try coordinator.addPersistentStore(
            type: .sqlite, at: url,
            options: [
                NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
            ])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let titles = try context.performAndWait {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")).map { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["kept"])
        #expect(try StoreKit.rows(url, "PRAGMA table_info(ZNOTE)").contains { $0["name"] == "ZBODY" })
    }
}
