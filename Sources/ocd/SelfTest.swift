import ArgumentParser
import OpenCoreData

/// `ocd selftest …`: hidden checks that need a process of their own (a trap ends the process).
struct SelfTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "selftest",
        abstract: "Checks that must run in a process of their own.",
        shouldDisplay: false,
        subcommands: [
            ConcurrencyViolation.self, StoreWorkerCommand.self, CrashTrials.self, WriteFailure.self, HistoryWorkerCommand.self,
            ConcurrencyStressCommand.self,
        ]
    )
}

/// `ocd selftest concurrency-violation [--use context|object|none]`: uses a private-queue context (or
/// one of its objects) from the main thread, off the context's queue. With concurrency debugging on
/// (`-com.apple.CoreData.ConcurrencyDebug 1` or `OPENCOREDATA_CONCURRENCY_DEBUG=1`) the process stops
/// with a message; otherwise it prints "no violation detected". `--use none` stays on the queue.
struct ConcurrencyViolation: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "concurrency-violation",
        abstract: "Use a context off its queue; traps when concurrency debugging is on."
    )

    @Option(name: .long, help: "What to touch off the queue: context, object, or none.")
    var use: String = "context"

    /// Launch arguments such as `-com.apple.CoreData.ConcurrencyDebug 1`, read by OpenCoreData itself.
    @Argument(parsing: .allUnrecognized, help: .hidden)
    var launchArguments: [String] = []

    func run() throws {
        let entity = NSEntityDescription()
        entity.name = "Item"
        entity.managedObjectClassName = "NSManagedObject"
        let title = NSAttributeDescription()
        title.name = "title"
        title.attributeType = .stringAttributeType
        entity.properties = [title]
        let model = NSManagedObjectModel()
        model.entities = [entity]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.name = "selftest"
        context.persistentStoreCoordinator = coordinator

        switch use {
        case "context":
            _ = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
        case "object":
            let item: NSManagedObject = context.performAndWait {
                NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            }
            item.setValue("off the queue", forKey: "title")
        case "none":
            try context.performAndWait {
                let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                item.setValue("on the queue", forKey: "title")
                try context.save()
            }
        default:
            throw ValidationError("--use must be context, object or none, not \"\(use)\".")
        }
        print("no violation detected")
    }
}
