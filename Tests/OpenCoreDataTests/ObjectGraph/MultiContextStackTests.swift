import OpenCoreData
import Testing

/// The first seed's `CoreDataStack` in Swift: a main-queue context and a private-queue context on one
/// coordinator, each merging the other's saves from `NSManagedObjectContextDidSave`.
// @unchecked Sendable: every property is a `let`; the contexts are used on their own queues.
private final class CoreDataStack: @unchecked Sendable {
    let managedObjectModel: NSManagedObjectModel
    let persistentStoreCoordinator: NSPersistentStoreCoordinator
    let mainContext: NSManagedObjectContext
    let backgroundContext: NSManagedObjectContext
    private var observer: NSObjectProtocol?

    init(storeURL: URL) throws {
        managedObjectModel = BlogModel.make()
        persistentStoreCoordinator = NSPersistentStoreCoordinator(managedObjectModel: managedObjectModel)
        let options: [String: Any] = [
            NSMigratePersistentStoresAutomaticallyOption: true,
            NSInferMappingModelAutomaticallyOption: true,
            NSSQLitePragmasOption: ["journal_mode": "WAL", "synchronous": "NORMAL"],
        ]
        try persistentStoreCoordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil,
            at: storeURL, options: options)
        mainContext = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        mainContext.persistentStoreCoordinator = persistentStoreCoordinator
        backgroundContext = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        backgroundContext.persistentStoreCoordinator = persistentStoreCoordinator
        let main = mainContext, background = backgroundContext
        observer = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextDidSave, object: nil, queue: nil) { note in
            let saved = note.object as? NSManagedObjectContext
            if saved === background {
                main.perform { main.mergeChanges(fromContextDidSave: note) }
            } else if saved === main {
                background.perform { background.mergeChanges(fromContextDidSave: note) }
            }
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }
}

/// The first seed's `MultiContextCoreDataManager` in Swift: writer (private, on the coordinator) →
/// main (main queue) → background (private), saving up the chain.
// @unchecked Sendable: every property is a `let`; the contexts are used on their own queues.
private final class MultiContextCoreDataManager: @unchecked Sendable {
    let coordinator: NSPersistentStoreCoordinator
    let writerContext: NSManagedObjectContext
    let mainContext: NSManagedObjectContext
    let backgroundContext: NSManagedObjectContext

    init(storeURL: URL) throws {
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: BlogModel.make())
        try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: storeURL,
            options: [NSSQLitePragmasOption: ["journal_mode": "WAL"]])
        writerContext = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        writerContext.persistentStoreCoordinator = coordinator
        mainContext = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        mainContext.parent = writerContext
        backgroundContext = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        backgroundContext.parent = mainContext
    }

    /// Runs a task on the background context, then saves background → main → writer → store.
    func performBackgroundTaskAndSave(
        _ task: @escaping (NSManagedObjectContext) -> Void,
        completion: @escaping @Sendable (Bool, Error?) -> Void
    ) {
        let background = backgroundContext, main = mainContext, writer = writerContext
        background.perform {
            task(background)
            do { try background.save() } catch { return completion(false, error) }
            main.perform {
                do { try main.save() } catch { return completion(false, error) }
                writer.perform {
                    do {
                        try writer.save()
                        completion(true, nil)
                    } catch {
                        completion(false, error)
                    }
                }
            }
        }
    }
}

@Suite("The seeds' multi-context stacks")
struct MultiContextStackTests {
    @Test("CoreDataStack: an import on the background context is merged into the main context, and back")
    func coreDataStack() async throws {
        let directory = TemporaryDirectory()
        let stack = try CoreDataStack(storeURL: directory.file("DataModel.sqlite"))
        let main = stack.mainContext, background = stack.backgroundContext
        let ann = try await main.perform {
            let ann = main.make("Author", ["name": "Ann"])
            try main.save()
            _ = try main.all("Author")
            return ann.objectID
        }
        try await background.perform {
            for index in 0..<20 { background.make("Author", ["name": "Imported \(index)"]) }
            try background.existingObject(with: ann).setValue("Anne", forKey: "name")
            try background.save()
        }
        let seen = await eventually {
            main.performAndWait { main.registeredObjects.count == 21 && main.registeredObject(for: ann)?.string("name") == "Anne" }
        }
        #expect(seen)
        let count = try await main.perform { try main.count(for: NSFetchRequest<NSManagedObject>(entityName: "Author")) }
        #expect(count == 21)

        try await main.perform {
            try main.existingObject(with: ann).setValue(Int16(33), forKey: "age")
            try main.save()
        }
        let age = await eventually {
            background.performAndWait { background.registeredObject(for: ann)?.value(forKey: "age") as? Int16 == 33 }
        }
        #expect(age)
    }

    @Test("MultiContextCoreDataManager: a background import saved up the chain reaches the store, and the main context sees it")
    func multiContextManager() async throws {
        let directory = TemporaryDirectory()
        let manager = try MultiContextCoreDataManager(storeURL: directory.file("DataModel.sqlite"))
        let users = (0..<25).map { ["name": "User \($0)", "age": Int16(20 + $0 % 10)] as [String: Any] }
        let (success, error): (Bool, Error?) = await withCheckedContinuation { continuation in
            manager.performBackgroundTaskAndSave(
                { context in
                    for user in users {
                        let request = NSFetchRequest<NSManagedObject>(entityName: "Author")
                        request.predicate = NSPredicate(format: "name == %@", user["name"] as? String ?? "")
                        request.fetchLimit = 1
                        let existing = (try? context.fetch(request))?.first
                        let author = existing ?? context.make("Author")
                        author.setValue(user["name"], forKey: "name")
                        author.setValue(user["age"], forKey: "age")
                    }
                }, completion: { success, error in continuation.resume(returning: (success, error)) })
        }
        #expect(success)
        #expect(error == nil)
        let main = manager.mainContext
        let inMain = try await main.perform {
            try main.all("Author", predicate: NSPredicate(format: "age >= 25")).count
        }
        #expect(inMain == 10)
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = manager.coordinator
        let stored = try reader.performAndWait { try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Author")) }
        #expect(stored == 25)
    }

    @Test("NSPersistentContainer: viewContext merging automatically sees a background context's import")
    func containerViewContext() async throws {
        let directory = TemporaryDirectory()
        let container = NSPersistentContainer(name: "Blog", managedObjectModel: BlogModel.make())
        let description = NSPersistentStoreDescription(url: directory.file("Blog.sqlite"))
        container.persistentStoreDescriptions = [description]
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            container.loadPersistentStores { _, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
        let view = container.viewContext
        view.automaticallyMergesChangesFromParent = true
        let ann = try await view.perform {
            let ann = view.make("Author", ["name": "Ann"])
            try view.save()
            return ann.objectID
        }
        let background = container.newBackgroundContext()
        try await background.perform {
            try background.existingObject(with: ann).setValue("Anne", forKey: "name")
            background.make("Author", ["name": "Bob"])
            try background.save()
        }
        let merged = await eventually {
            view.performAndWait { view.registeredObject(for: ann)?.string("name") == "Anne" && view.registeredObjects.count == 2 }
        }
        #expect(merged)
    }
}
