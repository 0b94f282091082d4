import ArgumentParser
import Dispatch
import Foundation
import OpenCoreData
import Synchronization

/// `ocd selftest concurrency-stress [--workers N] [--seconds S]`: many contexts of one coordinator
/// working at once on one SQLite store, for ThreadSanitizer (`.ci/run` builds `ocd` alone with
/// `--sanitize=thread` and runs this; the same work runs as `ContextStressTests` and
/// `FetchedObjectIDTests` in the test suite).
///
/// Three phases, each checked: worker contexts insert, update, delete, fetch and count records while
/// incrementing one shared counter (retrying on optimistic-locking conflicts), after which the store
/// holds exactly the committed work; empty contexts fetch at the same moment; and threads read the
/// object IDs of fetched objects for the first time at once, each object giving one ID. A failed check
/// exits with status 1 naming it.
struct ConcurrencyStressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "concurrency-stress",
        abstract: "Many contexts on one store at once; checks what the store holds afterwards."
    )

    @Option(help: "Worker contexts.")
    var workers: Int = 4

    @Option(help: "How long the workers keep going, at least 25 rounds each.")
    var seconds: Double = 3

    func run() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-stress-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: StoreWorkerModel.make(.v1))
        try coordinator.addPersistentStore(type: .sqlite, at: directory.appendingPathComponent("stress.sqlite"))

        try StressWork(coordinator: coordinator, workers: workers, seconds: seconds).run()
        try concurrentEmptyFetches(coordinator)
        try concurrentFirstIDReads(coordinator)
        print("concurrency stress: ok")
    }

    /// Contexts that begin every fetch empty, fetching at the same moment.
    private func concurrentEmptyFetches(_ coordinator: NSPersistentStoreCoordinator) throws {
        let failures = StressFailures()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            context.performAndWait {
                for _ in 0..<200 {
                    do {
                        let request = NSFetchRequest<NSManagedObject>(entityName: "Record")
                        request.predicate = NSPredicate(format: "generation > %d", 1_000_000)
                        if try !context.fetch(request).isEmpty { failures.add("an empty fetch returned objects") }
                    } catch {
                        failures.add("an empty fetch failed: \(error)")
                    }
                    context.reset()
                }
            }
        }
        try failures.check("concurrent empty fetches")
    }

    /// Threads reading fetched objects' IDs for the first time at once: each object gives one ID.
    private func concurrentFirstIDReads(_ coordinator: NSPersistentStoreCoordinator) throws {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let objects = try context.performAndWait { try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Record")) }
        let seen = ObjectIDReadings(threads: workers, objects: objects)
        // IDs may be passed between threads; reading `objectID` off the context's queue is allowed.
        DispatchQueue.concurrentPerform(iterations: workers) { thread in seen.read(thread: thread) }
        let failures = StressFailures()
        if !seen.agree() { failures.add("an object gave different IDs to different threads") }
        try failures.check("concurrent first ID reads")
    }
}

/// Problems found by threads of a phase, kept under a lock.
final class StressFailures: Sendable {
    private let messages = Mutex<[String]>([])

    func add(_ message: String) { messages.withLock { $0.append(message) } }

    /// Throws naming the phase and its first problems, if any.
    func check(_ phase: String) throws {
        let found = messages.withLock { $0 }
        guard found.isEmpty else {
            throw ValidationError("\(phase): \(found.count) problem(s): \(found.prefix(5).joined(separator: "; "))")
        }
    }
}
