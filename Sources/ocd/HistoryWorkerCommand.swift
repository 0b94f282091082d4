import ArgumentParser
import Dispatch
import OpenCoreData

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `ocd selftest history-worker --store PATH --role writer|reader …`: one process of the persistent
/// history tests. A writer saves items one save at a time; a reader waits for remote change
/// notifications, fetches the history after its last token, merges each transaction into its context and
/// checks that what it merged is there, printing one line per transaction.
struct HistoryWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history-worker",
        abstract: "Write a tracked store, or follow another process's writes through history and remote change notifications."
    )

    @Option(help: "The SQLite store file.")
    var store: String

    @Option(help: "writer or reader.")
    var role: String

    @Option(help: "A writer's number, stored in its items and its author (writer-N).")
    var worker: Int = 1

    @Option(help: "A writer's saves (one item each).")
    var saves: Int = 1

    @Option(help: "Milliseconds a writer waits between saves.")
    var intervalMs: Int = 0

    @Option(help: "The transactions a reader waits for.")
    var expect: Int = 1

    @Option(help: "Seconds a reader waits at most.")
    var timeout: Double = 60

    /// Item(worker, sequence, title).
    static func model() -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = true
            return attribute
        }
        let item = NSEntityDescription()
        item.name = "Item"
        item.managedObjectClassName = "NSManagedObject"
        item.properties = [
            attribute("worker", .integer64AttributeType), attribute("sequence", .integer64AttributeType),
            attribute("title", .stringAttributeType),
        ]
        let model = NSManagedObjectModel()
        model.entities = [item]
        return model
    }

    func run() throws {
        let options: [AnyHashable: Any] = [
            NSPersistentHistoryTrackingKey: true as NSNumber,
            NSPersistentStoreRemoteChangeNotificationPostOptionKey: true as NSNumber,
        ]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        _ = try coordinator.addPersistentStore(type: .sqlite, at: URL(fileURLWithPath: store), options: options)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        switch role {
        case "writer": try write(context)
        case "reader": try follow(coordinator, context)
        default: throw ValidationError("--role must be writer or reader.")
        }
    }

    private func write(_ context: NSManagedObjectContext) throws {
        context.transactionAuthor = "writer-\(worker)"
        for sequence in 0..<saves {
            try context.performAndWait {
                let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                item.setValue(Int64(worker), forKey: "worker")
                item.setValue(Int64(sequence), forKey: "sequence")
                item.setValue("item \(worker).\(sequence)", forKey: "title")
                try context.save()
                context.reset()
            }
            Self.line("saved \(sequence)")
            if intervalMs > 0 { usleep(useconds_t(intervalMs * 1000)) }
        }
    }

    private func follow(_ coordinator: NSPersistentStoreCoordinator, _ context: NSManagedObjectContext) throws {
        context.name = "reader"
        let signal = DispatchSemaphore(value: 0)
        let notified = NotificationCounter()
        let observer = NotificationCenter.default.addObserver(forName: .NSPersistentStoreRemoteChange, object: coordinator, queue: nil) { note in
            if note.userInfo?[NSPersistentHistoryTokenKey] is NSPersistentHistoryToken { notified.add() }
            signal.signal()
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        var token = coordinator.currentPersistentHistoryToken(fromStores: nil)
        Self.line("ready")
        var seen = Set<Int64>(), duplicates = 0, merged = 0
        let deadline = Date().addingTimeInterval(timeout)
        while seen.count < expect {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, signal.wait(timeout: .now() + left) == .success else { break }
            let received = Date()
            try context.performAndWait {
                let result = try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: token)) as? NSPersistentHistoryResult
                for transaction in result?.result as? [NSPersistentHistoryTransaction] ?? [] {
                    if !seen.insert(transaction.transactionNumber).inserted { duplicates += 1 }
                    let notification = transaction.objectIDNotification()
                    context.mergeChanges(fromContextDidSave: notification)
                    // What was merged is there: each inserted item reads with its title.
                    for id in notification.userInfo?[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID> ?? [] {
                        if (try? context.existingObject(with: id))?.value(forKey: "title") is String { merged += 1 }
                    }
                    let latency = received.timeIntervalSince(transaction.timestamp) * 1000
                    Self.line(
                        "transaction \(transaction.transactionNumber) \(transaction.author ?? "-") changes=\(transaction.changes?.count ?? 0) latency_ms=\(String(format: "%.1f", latency))"
                    )
                    token = transaction.token
                }
            }
        }
        let items = try context.performAndWait { try context.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Item")) }
        Self.line("done transactions=\(seen.count) duplicates=\(duplicates) merged=\(merged) items=\(items) notifications=\(notified.value)")
        if seen.count < expect { throw ExitCode(1) }
    }

    /// Prints a line at once (the parent reads the output while the process runs).
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}

/// A count of notifications, increased on the notifying thread.
private final class NotificationCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
