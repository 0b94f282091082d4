import OpenCoreData
import Testing

/// NSPersistentContainer and NSPersistentStoreDescription: the default stack, loading stores from
/// descriptions, finding a model by name, contexts, and background work.
@Suite("Persistent container")
struct PersistentContainerTests {
    @Test("a container names its model and defaults to one SQLite store in defaultDirectoryURL()")
    func defaults() throws {
        let model = StoreKit.blogModel()
        let container = NSPersistentContainer(name: "Blog", managedObjectModel: model)
        #expect(container.name == "Blog")
        #expect(container.managedObjectModel === model)
        #expect(container.persistentStoreCoordinator.managedObjectModel === model)
        let description = try #require(container.persistentStoreDescriptions.first)
        #expect(container.persistentStoreDescriptions.count == 1)
        #expect(description.type == NSSQLiteStoreType)
        #expect(description.url == NSPersistentContainer.defaultDirectoryURL().appendingPathComponent("Blog.sqlite"))
        #expect(NSPersistentContainer.defaultDirectoryURL().lastPathComponent == ProcessInfo.processInfo.processName)
        #expect(description.shouldMigrateStoreAutomatically)
        #expect(description.shouldInferMappingModelAutomatically)
        #expect(!description.shouldAddStoreAsynchronously)
        #expect(!description.isReadOnly)
        #expect(description.timeout == 240)
        #expect(description.configuration == nil)
    }

    @Test("store descriptions keep their settings in options under Core Data's keys")
    func descriptions() throws {
        let description = NSPersistentStoreDescription()
        #expect(description.url == nil)
        #expect(description.type == NSSQLiteStoreType)
        description.isReadOnly = true
        description.timeout = 5
        description.shouldMigrateStoreAutomatically = false
        description.setValue("WAL" as NSString, forPragmaNamed: "journal_mode")
        description.setValue(NSNumber(value: 100), forPragmaNamed: "cache_size")
        description.setOption(NSNumber(value: true), forKey: NSPersistentHistoryTrackingKey)
        #expect(description.options[NSReadOnlyPersistentStoreOption] as? NSNumber == NSNumber(value: true))
        #expect(description.options[NSPersistentStoreTimeoutOption] as? NSNumber == NSNumber(value: 5))
        #expect(description.options[NSMigratePersistentStoresAutomaticallyOption] as? NSNumber == NSNumber(value: false))
        #expect(description.options[NSInferMappingModelAutomaticallyOption] as? NSNumber == NSNumber(value: true))
        #expect(description.sqlitePragmas.count == 2)
        #expect(description.sqlitePragmas["journal_mode"] as? NSString == "WAL")
        description.setValue(nil, forPragmaNamed: "cache_size")
        #expect(description.sqlitePragmas.keys.sorted() == ["journal_mode"])
        description.setOption(nil, forKey: NSPersistentHistoryTrackingKey)
        #expect(description.options[NSPersistentHistoryTrackingKey] == nil)
        let copy = try #require(description.copy() as? NSPersistentStoreDescription)
        #expect(copy.isReadOnly && copy.timeout == 5 && copy.sqlitePragmas.count == 1)
        let pragmasAsDictionary = NSPersistentStoreDescription()
        pragmasAsDictionary.setOption(["journal_mode": "DELETE"] as NSDictionary, forKey: NSSQLitePragmasOption)
        #expect(pragmasAsDictionary.sqlitePragmas["journal_mode"] as? String == "DELETE")
    }

    @Test("loadPersistentStores adds each description's store; contexts share the coordinator; saves and fetches work")
    func loadAndUse() async throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = NSPersistentContainer(name: "Blog", managedObjectModel: StoreKit.blogModel())
        let url = directory.appendingPathComponent("nested/Blog.sqlite")
        let description = NSPersistentStoreDescription(url: url)
        description.setOption(["journal_mode": "WAL"] as NSDictionary, forKey: NSSQLitePragmasOption)
        container.persistentStoreDescriptions = [description]
        var calls: [(NSPersistentStoreDescription, (any Error)?)] = []
        container.loadPersistentStores { calls.append(($0, $1)) }
        #expect(calls.count == 1)
        #expect(calls.first?.0 === description)
        #expect(calls.first?.1 == nil)
        #expect(container.persistentStoreCoordinator.persistentStore(for: url) != nil)
        #expect(FileManager.default.fileExists(atPath: url.path))

        let view = container.viewContext
        #expect(view === container.viewContext)
        #expect(view.concurrencyType == .mainQueueConcurrencyType)
        #expect(view.persistentStoreCoordinator === container.persistentStoreCoordinator)
        let background = container.newBackgroundContext()
        #expect(background.concurrencyType == .privateQueueConcurrencyType)
        #expect(background.persistentStoreCoordinator === container.persistentStoreCoordinator)
        #expect(background !== container.newBackgroundContext())

        try await container.performBackgroundTask { context in
            let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            tag.setValue("hello", forKey: "label")
            try context.save()
        }
        let count = try await container.performBackgroundTask { context in
            try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Tag"))
        }
        #expect(count == 1)
        #expect(try StoreKit.rows(url, "SELECT ZLABEL FROM ZTAG").first?[0] as String? == "hello")
    }

    @Test("performBackgroundTask runs the block on a private-queue context")
    func backgroundTask() async throws {
        let container = NSPersistentContainer(name: "Blog", managedObjectModel: StoreKit.blogModel())
        let description = NSPersistentStoreDescription()
        description.type = NSInMemoryStoreType
        container.persistentStoreDescriptions = [description]
        container.loadPersistentStores { _, error in #expect(error == nil) }
        let type = await withCheckedContinuation { continuation in
            container.performBackgroundTask { context in continuation.resume(returning: context.concurrencyType) }
        }
        #expect(type == .privateQueueConcurrencyType)
    }

    @Test("a description may add its store asynchronously; the handler runs once")
    func asynchronous() async throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = NSPersistentContainer(name: "Blog", managedObjectModel: StoreKit.blogModel())
        let description = NSPersistentStoreDescription(url: directory.appendingPathComponent("Blog.sqlite"))
        description.shouldAddStoreAsynchronously = true
        container.persistentStoreDescriptions = [description]
        let error: NSError? = await withCheckedContinuation { continuation in
            container.loadPersistentStores { _, error in continuation.resume(returning: error as NSError?) }
        }
        #expect(error == nil)
        #expect(container.persistentStoreCoordinator.persistentStores.count == 1)
    }

    @Test("init(name:) finds <name>.xcdatamodeld next to the program; a missing model is reported by loadPersistentStores")
    func findsModelByName() throws {
        try MainBundleFolder.lock.withLock { try findModelByName() }
    }

    private func findModelByName() throws {
        let name = "ContainerModel\(UUID().uuidString.prefix(8))"
        let destination = Bundle.main.bundleURL.appendingPathComponent("\(name).xcdatamodeld")
        try FileManager.default.copyItem(at: Fixtures.models.appendingPathComponent("3lvis__Sync__84.xcdatamodeld"), to: destination)
        defer { try? FileManager.default.removeItem(at: destination) }
        let container = NSPersistentContainer(name: name)
        #expect(!container.managedObjectModel.entities.isEmpty)
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: directory.appendingPathComponent("s.sqlite"))]
        var failure: (any Error)?
        container.loadPersistentStores { failure = $1 }
        #expect(failure == nil)

        let missing = NSPersistentContainer(name: "NoSuchModel\(UUID().uuidString.prefix(8))")
        missing.persistentStoreDescriptions = [NSPersistentStoreDescription(url: directory.appendingPathComponent("m.sqlite"))]
        var errors: [NSError] = []
        missing.loadPersistentStores { _, error in if let error { errors.append(error as NSError) } }
        #expect(errors.count == 1)
        #expect(errors.first?.localizedDescription.contains(missing.name) == true)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("m.sqlite").path))
    }
}
