import Dispatch
import OpenCoreData
import Testing

@Suite("Context concurrency")
struct ContextConcurrencyTests {
    @Test("performAndWait runs on the private queue and is re-entrant")
    func performAndWait() throws {
        let stack = try GraphStack()
        let context = stack.context()
        var nested = false
        context.performAndWait {
            context.make("Author", ["name": "Ann"])
            context.performAndWait { nested = true }
        }
        #expect(nested)
        let count = try context.performAndWait {
            try context.save()
            return try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Author"))
        }
        #expect(count == 1)
        #expect(throws: NSError.self) {
            try context.performAndWait { try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Missing")) }
        }
    }

    @Test("perform runs a block later on the context's queue")
    func performAsync() async throws {
        let stack = try GraphStack()
        let context = stack.context()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            context.perform {
                context.make("Author", ["name": "Ann"])
                try? context.save()
                continuation.resume()
            }
        }
        let names = try await context.perform {
            try context.all("Author").compactMap { $0.value(forKey: "name") as? String }
        }
        #expect(names == ["Ann"])
        let enqueued = await context.perform(schedule: .enqueued) { context.registeredObjects.count }
        #expect(enqueued == 1)
        await #expect(throws: NSError.self) {
            try await context.perform { try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Missing")) }
        }
    }

    @Test("many private contexts on one coordinator read and write in parallel")
    func parallelContexts() async throws {
        let stack = try GraphStack()
        let coordinator = stack.coordinator
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
                    context.persistentStoreCoordinator = coordinator
                    try await context.perform {
                        for index in 0..<10 {
                            context.make("Post", ["title": "w\(worker)-\(index)", "views": index])
                        }
                        try context.save()
                        _ = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Post"))
                    }
                }
            }
            try await group.waitForAll()
        }
        let reader = stack.context()
        let total = try reader.performAndWait { try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Post")) }
        #expect(total == 40)
    }

    @Test("a main-queue context runs perform blocks on the main thread, and performAndWait from elsewhere returns")
    func mainQueue() async throws {
        let stack = try GraphStack()
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = stack.coordinator
        let mark = DispatchSpecificKey<Int>()
        DispatchQueue.main.setSpecific(key: mark, value: 7)
        let onMain = await context.perform { DispatchQueue.getSpecific(key: mark) }
        #expect(onMain == 7)
        let count = try await Task.detached {
            try context.performAndWait {
                context.make("Author", ["name": "Ann"])
                try context.save()
                return try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Author"))
            }
        }.value
        #expect(count == 1)
        let fromMain = await MainActor.run {
            context.performAndWait { context.registeredObjects.count }
        }
        #expect(fromMain == 1)
    }
}
