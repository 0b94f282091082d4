import OpenCoreData
import Testing

/// The values Core Data lets you share between threads are `Sendable`: object IDs, the coordinator,
/// the container, a model in use, stores and merge policies. These checks are made by the compiler
/// (Swift 6 language mode); the tests then use the values from other tasks.
@Suite("Sendability")
struct SendabilityTests {
    private func requireSendable<T: Sendable>(_ value: T) -> T { value }

    @Test("object IDs cross tasks and name the same object in another context")
    func objectIDsCrossTasks() async throws {
        let stack = try GraphStack()
        let context = stack.context()
        let id = try context.performAndWait {
            let post = context.make("Post", ["title": "Shared"])
            try context.save()
            return post.objectID
        }
        let coordinator = requireSendable(stack.coordinator)
        let sentID = requireSendable(id)
        let title = try await Task.detached {
            let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            other.persistentStoreCoordinator = coordinator
            return try other.performAndWait { try other.existingObject(with: sentID).value(forKey: "title") as? String }
        }.value
        #expect(title == "Shared")
    }

    @Test("a coordinator, its model and its stores are used from several tasks at once")
    func coordinatorAcrossTasks() async throws {
        let stack = try GraphStack()
        let coordinator = requireSendable(stack.coordinator)
        let model = requireSendable(coordinator.managedObjectModel)
        let store = requireSendable(try #require(coordinator.persistentStores.first))
        let saved = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
                    context.persistentStoreCoordinator = coordinator
                    return try await context.perform {
                        #expect(model.entitiesByName["Post"] != nil)
                        for index in 0..<5 { context.make("Post", ["title": "w\(worker)-\(index)"]) }
                        try context.save()
                        return 5
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(saved == 20)
        #expect(store.identifier != nil)
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        #expect(try reader.performAndWait { try reader.all("Post").count } == 20)
    }

    @Test("a container and merge policies are Sendable; a background task of the container sees saved work")
    func containerAcrossTasks() async throws {
        let directory = TemporaryDirectory()
        let container = requireSendable(NSPersistentContainer(name: "Blog", managedObjectModel: BlogModel.make()))
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: directory.file("Blog.sqlite"))]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        let policy = requireSendable(NSMergePolicy.mergeByPropertyObjectTrump)
        let count = try await Task.detached {
            let background = container.newBackgroundContext()
            background.mergePolicy = policy
            return try await background.perform {
                background.make("Author", ["name": "Ann"])
                try background.save()
                return try background.all("Author").count
            }
        }.value
        #expect(count == 1)
        _ = requireSendable(NSMergePolicyType.overwriteMergePolicyType)
    }
}
