import Foundation
import Testing

@testable import OpenCoreDataCore

/// Collects `NSPersistentStoreRemoteChange` notifications posted for one coordinator, with the time each
/// arrived.
final class RemoteChangeRecorder: @unchecked Sendable {
    struct Received {
        let notification: Notification
        let time: Date
    }

    private let lock = NSCondition()
    private var received: [Received] = []
    private var observer: NSObjectProtocol?

    init(_ coordinator: NSPersistentStoreCoordinator) {
        observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil) {
            [weak self] note in
            guard let self else { return }
            self.lock.lock()
            self.received.append(Received(notification: note, time: Date()))
            self.lock.broadcast()
            self.lock.unlock()
        }
    }

    deinit {
        if let observer { NotificationCenter.default.removeObserver(observer) }
    }

    var all: [Received] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    /// Waits until `count` notifications arrived or `timeout` passed; those that arrived.
    @discardableResult
    func wait(for count: Int, timeout: TimeInterval = 5) -> [Received] {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while received.count < count, lock.wait(until: deadline) {}
        return received
    }

    /// Waits until a notification carries a token at least `number` for the store.
    func wait(forTransaction number: Int64, store: String, timeout: TimeInterval = 5) -> Received? {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let found = received.first(where: { token($0)?.transactionNumber(ofStore: store) ?? 0 >= number }) { return found }
            guard lock.wait(until: deadline) else { return nil }
        }
    }

    func token(_ received: Received) -> NSPersistentHistoryToken? {
        received.notification.userInfo?[NSPersistentHistoryTokenKey] as? NSPersistentHistoryToken
    }
}

/// `NSPersistentStoreRemoteChangeNotificationPostOptionKey`: a notification after every write to the
/// store, by its own coordinator, another coordinator or another process, within a bounded delay.
@Suite("Persistent history: remote change notifications")
struct RemoteChangeNotificationTests {
    static var options: [AnyHashable: Any] {
        HistoryKit.tracking.merging([NSPersistentStoreRemoteChangeNotificationPostOptionKey: true as NSNumber]) { $1 }
    }

    @Test("a save of the store's own coordinator posts it: object the coordinator, URL, store UUID and the current token")
    func ownSave() throws {
        let stack = try HistoryKit.Stack(options: Self.options)
        let recorder = RemoteChangeRecorder(stack.coordinator)
        try stack.insertNotes(["a"])
        let received = try #require(recorder.wait(forTransaction: 1, store: stack.store.identifier))
        let note = received.notification
        #expect(note.name.rawValue == "NSPersistentStoreRemoteChangeNotification")
        #expect(note.object as AnyObject === stack.coordinator)
        #expect((note.userInfo?[NSPersistentStoreURLKey] as? URL)?.path == stack.url.path)
        #expect(note.userInfo?[NSStoreUUIDKey] as? String == stack.store.identifier)
        #expect(recorder.token(received) == stack.coordinator.currentPersistentHistoryToken(fromStores: nil))
        try stack.close()
    }

    @Test("another coordinator's saves and batch requests reach the first one's observers; without tracking there is no token")
    func otherCoordinator() throws {
        let plain: [AnyHashable: Any] = [NSPersistentStoreRemoteChangeNotificationPostOptionKey: true as NSNumber]
        let stack = try HistoryKit.Stack(options: plain)
        let recorder = RemoteChangeRecorder(stack.coordinator)
        let (other, otherContext) = try stack.second(options: nil)
        try stack.insertNotes(["from the other"], in: otherContext)
        let first = recorder.wait(for: 1)
        try #require(first.count >= 1)
        #expect(first[0].notification.userInfo?[NSPersistentHistoryTokenKey] == nil)
        try otherContext.performAndWait {
            let update = NSBatchUpdateRequest(entityName: "Note")
            update.propertiesToUpdate = ["text": "batch"]
            _ = try otherContext.execute(update)
        }
        #expect(recorder.wait(for: first.count + 1).count > first.count)
        for store in other.persistentStores { try other.remove(store) }
        try stack.close()
    }

    @Test("no option, no notification; a removed store's notifications stop")
    func noOptionNoNotification() throws {
        let stack = try HistoryKit.Stack()
        let recorder = RemoteChangeRecorder(stack.coordinator)
        try stack.insertNotes(["a"])

        let watched = try HistoryKit.Stack(options: Self.options)
        let watchedRecorder = RemoteChangeRecorder(watched.coordinator)
        let (_, writer) = try watched.second()
        try watched.close()
        try watched.insertNotes(["after removal"], in: writer)
        Thread.sleep(forTimeInterval: 0.4)
        #expect(recorder.all.isEmpty)
        #expect(watchedRecorder.all.isEmpty)
    }

    @Test("the delay from a save's return to the notification, over 100 saves of another coordinator, printed: none lost")
    func measuredDelay() throws {
        let stack = try HistoryKit.Stack(options: Self.options)
        let recorder = RemoteChangeRecorder(stack.coordinator)
        let (_, writer) = try stack.second()
        let identifier = try #require(stack.store.identifier)
        var delays: [TimeInterval] = []
        for index in 1...100 {
            try stack.insertNotes(["n\(index)"], in: writer)
            let saved = Date()
            let received = try #require(
                recorder.wait(forTransaction: Int64(index), store: identifier, timeout: 5),
                "transaction \(index) was notified")
            delays.append(max(0, received.time.timeIntervalSince(saved)))
        }
        delays.sort()
        let median = delays[delays.count / 2] * 1000, worst = delays[delays.count - 1] * 1000
        print(
            "remote change delay over 100 saves (ms): median \(String(format: "%.2f", median)), 95th \(String(format: "%.2f", delays[94] * 1000)), worst \(String(format: "%.2f", worst))"
        )
        try stack.close()
    }

    @Test(
        "another process saves; this one gets the notification, fetches the history after its token, merges it and sees the change",
        .tags(.slow))
    func twoProcesses() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Items.sqlite")
        // The store exists before the writer starts: both open the same file.
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.itemModel())
        _ = try coordinator.addPersistentStore(type: .sqlite, at: url, options: Self.options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let recorder = RemoteChangeRecorder(coordinator)
        let token = try #require(coordinator.currentPersistentHistoryToken(fromStores: nil))

        let writer = try StoreProcesses.ocd([
            "selftest", "history-worker", "--store", url.path, "--role", "writer",
            "--worker", "7", "--saves", "1",
        ])
        #expect(writer.status == 0, "\(writer.error)")
        let identifier = try #require(coordinator.persistentStores.first?.identifier)
        let received = try #require(recorder.wait(forTransaction: 1, store: identifier, timeout: 10))
        let noticed = try #require(recorder.token(received))
        try context.performAndWait {
            let result = try #require(try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: token)) as? NSPersistentHistoryResult)
            let transactions = try #require(result.result as? [NSPersistentHistoryTransaction])
            #expect(transactions.map(\.author) == ["writer-7"])
            #expect(transactions.last?.token == noticed)
            for transaction in transactions { context.mergeChanges(fromContextDidSave: transaction.objectIDNotification()) }
            let items = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
            #expect(items.compactMap { $0.value(forKey: "title") as? String } == ["item 7.0"])
            #expect(transactions.first?.processID == "ocd")
        }
    }

    @Test(
        "under load: four writer processes, 400 saves, one reader process: every transaction merged once, none missed",
        .tags(.slow))
    func manyProcesses() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Items.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.itemModel())
        _ = try coordinator.addPersistentStore(type: .sqlite, at: url, options: Self.options)
        for store in coordinator.persistentStores { try coordinator.remove(store) }

        let writers = 4, saves = 100
        let log = directory.file("reader.log")
        let reader = try StoreProcesses.startHistoryWorker(
            store: url,
            [
                "--role", "reader", "--expect", "\(writers * saves)",
                "--timeout", "120",
            ], log: log)
        defer { if reader.isRunning { reader.terminate() } }
        // The reader has its token before any writer saves.
        let ready = Date().addingTimeInterval(30)
        while !(((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("ready")), Date() < ready {
            Thread.sleep(forTimeInterval: 0.02)
        }
        let processes = try (1...writers).map { worker in
            try StoreProcesses.startHistoryWorker(
                store: url, ["--role", "writer", "--worker", "\(worker)", "--saves", "\(saves)"],
                log: directory.file("writer-\(worker).log"))
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        reader.waitUntilExit()
        let output = try String(contentsOf: log, encoding: .utf8)
        #expect(reader.terminationStatus == 0, "\(output.suffix(2000))")
        let lines = output.split(separator: "\n")
        let numbers = lines.filter { $0.hasPrefix("transaction ") }.compactMap { Int64($0.split(separator: " ")[1]) }
        #expect(numbers.count == writers * saves)
        #expect(Set(numbers) == Set(1...Int64(writers * saves)), "every transaction once")
        let done = try #require(lines.last { $0.hasPrefix("done ") })
        #expect(done.contains("transactions=\(writers * saves) duplicates=0 merged=\(writers * saves) items=\(writers * saves)"))
        let latencies = lines.compactMap { line -> Double? in
            guard let field = line.split(separator: " ").first(where: { $0.hasPrefix("latency_ms=") }) else { return nil }
            return Double(field.dropFirst("latency_ms=".count))
        }.sorted()
        if !latencies.isEmpty {
            print(
                "cross-process commit-to-merge delay over \(latencies.count) transactions (ms): median \(latencies[latencies.count / 2]), worst \(latencies[latencies.count - 1]); \(done)"
            )
        }
    }

    /// The model of `ocd selftest history-worker`: Item(worker, sequence, title).
    static func itemModel() -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        model.entities = [
            ModelKit.entity(
                "Item",
                [
                    ModelKit.attribute("worker", .integer64AttributeType), ModelKit.attribute("sequence", .integer64AttributeType),
                    ModelKit.attribute("title", .stringAttributeType),
                ])
        ]
        model.entities[0].managedObjectClassName = "NSManagedObject"
        return model
    }
}

extension StoreProcesses {
    /// Starts `ocd selftest history-worker` on `store` with `arguments`; its output goes to `log`.
    static func startHistoryWorker(store: URL, _ arguments: [String], log: URL) throws -> Process {
        let process = Process()
        process.executableURL = try QueryCommandTests.executable()
        process.arguments = ["selftest", "history-worker", "--store", store.path] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }
}
