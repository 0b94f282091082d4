import OpenCoreData
import Testing

/// `NSFetchRequest.execute()`: a request run from inside a context's block fetches in that context.
@Suite("NSFetchRequest.execute()")
struct FetchRequestExecuteTests {
    static func stack() throws -> (NSManagedObjectContext, NSPersistentStoreCoordinator) {
        let model = NSManagedObjectModel()
        model.entities = [ModelKit.entity("Item", [ModelKit.attribute("name", .stringAttributeType)])]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (context, coordinator)
    }

    static func insert(_ names: [String], into context: NSManagedObjectContext) {
        for name in names {
            NSEntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue(name, forKey: "name")
        }
    }

    @Test("inside performAndWait it fetches in that context, pending changes included")
    func performAndWaitContext() throws {
        let (context, _) = try Self.stack()
        let names = try context.performAndWait {
            Self.insert(["b", "a"], into: context)
            try context.save()
            Self.insert(["c"], into: context)
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let results = try request.execute()
            #expect(results.allSatisfy { $0.managedObjectContext === context })
            return results.compactMap { $0.value(forKey: "name") as? String }
        }
        #expect(names == ["a", "b", "c"])
    }

    @Test("inside perform and async perform it fetches in that context")
    func performContexts() async throws {
        let (context, coordinator) = try Self.stack()
        try await context.perform {
            Self.insert(["x", "y"], into: context)
            try context.save()
        }
        let count = try await context.perform {
            try NSFetchRequest<NSManagedObject>(entityName: "Item").execute().count
        }
        #expect(count == 2)
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = coordinator
        let done = ResultSlot()
        Self.countInBackground(other, into: done)
        let counted = await done.wait()
        #expect(counted == 3)
    }

    /// Inserts one item in `context` with the non-waiting `perform(_:)` and counts the context's items
    /// with `execute()` from the same block.
    static func countInBackground(_ context: NSManagedObjectContext, into slot: ResultSlot) {
        context.perform {
            insert(["z"], into: context)
            slot.set(
                Result { try NSFetchRequest<NSManagedObject>(entityName: "Item").execute().filter { $0.managedObjectContext === context }.count })
        }
    }

    @Test("a nested block of another context makes it current, and the outer context comes back after")
    func nestedContexts() throws {
        let (outer, coordinator) = try Self.stack()
        let inner = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        inner.persistentStoreCoordinator = coordinator
        try outer.performAndWait {
            Self.insert(["outer"], into: outer)
            let innerNames = try inner.performAndWait {
                Self.insert(["inner1", "inner2"], into: inner)
                return try NSFetchRequest<NSManagedObject>(entityName: "Item").execute().count
            }
            #expect(innerNames == 2)
            let outerResults = try NSFetchRequest<NSManagedObject>(entityName: "Item").execute()
            #expect(outerResults.count == 1)
            #expect(outerResults.first?.managedObjectContext === outer)
        }
    }

    @Test("outside any context block it throws instead of fetching")
    func outsideBlockThrows() throws {
        _ = try Self.stack()
        let error = #expect(throws: NSError.self) { try NSFetchRequest<NSManagedObject>(entityName: "Item").execute() }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == NSCoreDataError)
        #expect(error?.localizedDescription.contains("Item") == true)
    }
}

/// A result handed from a context's queue to an awaiting test.
final class ResultSlot: @unchecked Sendable {
    // @unchecked Sendable: `result` and `waiter` are only touched while holding `lock`.
    private let lock = NSLock()
    private var result: Result<Int, Error>?
    private var waiter: CheckedContinuation<Int?, Never>?

    func set(_ value: Result<Int, Error>) {
        let continuation: CheckedContinuation<Int?, Never>? = lock.withLock {
            result = value
            defer { waiter = nil }
            return waiter
        }
        continuation?.resume(returning: try? value.get())
    }

    func wait() async -> Int? {
        await withCheckedContinuation { continuation in
            let ready: Result<Int, Error>? = lock.withLock {
                if result == nil { waiter = continuation }
                return result
            }
            if let ready { continuation.resume(returning: try? ready.get()) }
        }
    }
}
