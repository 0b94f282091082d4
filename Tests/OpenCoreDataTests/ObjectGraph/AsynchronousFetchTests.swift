import OpenCoreData
import Testing

/// Collects what a completion block saw, across threads.
final class AsyncFetchOutcome: @unchecked Sendable {
    // @unchecked Sendable: every property is written once, on the context's queue, before `done` is
    // signalled, and read only after waiting on `done`.
    let done = DispatchSemaphore(value: 0)
    var names: [String]?
    var error: NSError?
    var completed: Int64 = 0
    var total: Int64 = 0
    var onContextQueue = false
}

@Suite("NSAsynchronousFetchRequest executed with context.execute(_:)")
struct AsynchronousFetchTests {
    /// Waits for the completion block (a generous bound, so a broken fetch fails instead of hanging).
    static func wait(_ outcome: AsyncFetchOutcome) -> Bool {
        outcome.done.wait(timeout: .now() + 120) == .success
    }

    @Test("the completion block receives the final result, the progress reaches its total, and no error", arguments: TestStoreKind.allCases)
    func completes(kind: TestStoreKind) throws {
        let stack = try FetchingModel.stack(kind, users: 450)
        let context = stack.context()
        let request = NSFetchRequest<NSManagedObject>(entityName: "User")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let outcome = AsyncFetchOutcome()
        let asyncRequest = NSAsynchronousFetchRequest(fetchRequest: request) { result in
            outcome.names = result.finalResult?.compactMap { $0.value(forKey: "name") as? String }
            outcome.error = result.operationError as NSError?
            outcome.completed = result.progress?.completedUnitCount ?? -1
            outcome.total = result.progress?.totalUnitCount ?? -1
            outcome.onContextQueue = result.managedObjectContext === context
            outcome.done.signal()
        }
        let result = try context.performAndWait { try context.execute(asyncRequest) }
        let asyncResult = try #require(result as? NSAsynchronousFetchResult<NSManagedObject>)
        #expect(asyncResult.fetchRequest === asyncRequest)
        #expect(Self.wait(outcome))
        #expect(outcome.error == nil)
        #expect(outcome.names == (0..<450).map(FetchingModel.name))
        #expect(outcome.total == 450)
        #expect(outcome.completed == 450)
        #expect(outcome.onContextQueue)
        #expect(asyncResult.finalResult?.count == 450)
    }

    @Test("estimatedResultCount is the progress's total until the fetch starts")
    func estimatedCount() throws {
        let stack = try FetchingModel.stack(users: 20)
        let context = stack.context()
        let outcome = AsyncFetchOutcome()
        let asyncRequest = NSAsynchronousFetchRequest(fetchRequest: NSFetchRequest<NSManagedObject>(entityName: "User")) { _ in
            outcome.done.signal()
        }
        asyncRequest.estimatedResultCount = 1234
        let total = try context.performAndWait {
            let result = try context.execute(asyncRequest) as? NSPersistentStoreAsynchronousResult
            return result?.progress?.totalUnitCount
        }
        #expect(total == 1234)
        #expect(Self.wait(outcome))
    }

    @Test("a fetch cancelled within the block that executed it still completes, with an empty non-nil result and no error")
    func cancelled() throws {
        let stack = try FetchingModel.stack(users: 300)
        let context = stack.context()
        let outcome = AsyncFetchOutcome()
        let asyncRequest = NSAsynchronousFetchRequest(fetchRequest: NSFetchRequest<NSManagedObject>(entityName: "User")) { result in
            outcome.names = result.finalResult?.compactMap { $0.value(forKey: "name") as? String }
            outcome.error = result.operationError as NSError?
            outcome.completed = result.progress?.completedUnitCount ?? -1
            outcome.done.signal()
        }
        let result = try context.performAndWait {
            // Cancelled before the context's queue runs the fetch.
            let result = try context.execute(asyncRequest) as? NSPersistentStoreAsynchronousResult
            result?.cancel()
            return result
        }
        #expect(Self.wait(outcome))
        // Apple's Core Data: the completion runs with finalResult [] and operationError nil.
        #expect(outcome.names == [])
        #expect(outcome.error == nil)
        #expect(outcome.completed == 0)
        #expect(result?.progress?.isCancelled == true)
        #expect(context.performAndWait { context.registeredObjects.isEmpty })
    }

    @Test("cancelling the progress after some batches stops the fetch early and reports it")
    func cancelledMidway() throws {
        let model = FetchingModel.make()
        model.entitiesByName["Student"]?.managedObjectClassName = "CancellingStudent"
        let stack = try GraphStack(.sqlite, model: model)
        try FetchingModel.populate(stack.context(), users: 0, students: 300)
        let context = stack.context()
        let outcome = AsyncFetchOutcome()
        let request = NSFetchRequest<CancellingStudent>(entityName: "Student")
        request.fetchBatchSize = 25
        let asyncRequest = NSAsynchronousFetchRequest(fetchRequest: request) { result in
            outcome.names = result.finalResult?.compactMap { $0.value(forKey: "name") as? String }
            outcome.error = result.operationError as NSError?
            outcome.completed = result.progress?.completedUnitCount ?? -1
            outcome.total = result.progress?.totalUnitCount ?? -1
            outcome.done.signal()
        }
        try context.performAndWait {
            let result = try context.execute(asyncRequest) as? NSPersistentStoreAsynchronousResult
            // The 30th object read cancels the fetch, in the middle of the second batch.
            CancellingStudent.trigger.arm(result?.progress, after: 30)
        }
        #expect(Self.wait(outcome))
        #expect(outcome.names == nil)
        #expect(outcome.error?.code == CocoaError.Code.userCancelled.rawValue)
        #expect(outcome.total == 300)
        #expect(outcome.completed == 50)
    }

    @Test("dictionary results arrive asynchronously too")
    func dictionaries() throws {
        let stack = try FetchingModel.stack(users: 40)
        let context = stack.context()
        let request = NSFetchRequest<NSDictionary>(entityName: "User")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = [expressionDescription("total", NSExpression(format: "sum:(age)"), .integer64AttributeType)]
        let outcome = AsyncFetchOutcome()
        let asyncRequest = NSAsynchronousFetchRequest(fetchRequest: request) { result in
            outcome.completed = (result.finalResult?.first?["total"] as? NSNumber)?.int64Value ?? -1
            outcome.done.signal()
        }
        _ = try context.performAndWait { try context.execute(asyncRequest) }
        #expect(Self.wait(outcome))
        #expect(outcome.completed == Int64((0..<40).map(FetchingModel.age).reduce(0, +)))
    }

    @Test("a request the context cannot execute throws NSPersistentStoreUnsupportedRequestTypeError")
    func unsupportedRequest() throws {
        let stack = try FetchingModel.stack(users: 1)
        let context = stack.context()
        let error = #expect(throws: NSError.self) {
            try context.performAndWait { _ = try context.execute(NSFetchRequest<NSManagedObject>(entityName: "User")) }
        }
        #expect(error?.code == NSPersistentStoreUnsupportedRequestTypeError)
    }
}

/// A student class whose objects cancel a progress once a given number of them were read.
final class CancellingStudent: NSManagedObject {
    /// The progress to cancel and the countdown, shared with the context's queue.
    final class Trigger: @unchecked Sendable {
        // @unchecked Sendable: both properties are only touched while holding `lock`.
        private let lock = NSLock()
        private var progress: Progress?
        private var remaining = 0

        func arm(_ progress: Progress?, after count: Int) {
            lock.withLock {
                self.progress = progress
                remaining = count
            }
        }

        func objectRead() {
            let toCancel: Progress? = lock.withLock {
                guard progress != nil else { return nil }
                remaining -= 1
                if remaining > 0 { return nil }
                defer { progress = nil }
                return progress
            }
            toCancel?.cancel()
        }
    }

    static let trigger = Trigger()

    override func awakeFromFetch() {
        super.awakeFromFetch()
        Self.trigger.objectRead()
    }
}
