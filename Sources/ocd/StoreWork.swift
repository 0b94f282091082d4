import GRDB
import OpenCoreData

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The work of one store worker process: a loop of saves, batch requests or counter increments on a
/// store, or one migration of it, each acknowledged on the acknowledgement file once the call that did
/// it has returned. The crash trials and the many-process tests start such processes and check, after
/// they end or are killed, that every acknowledged piece of work is in the store whole.
struct StoreWork {
    /// The operations a worker can run.
    enum Operation: String, CaseIterable {
        /// Inserts `objects` records per `save()`, sequence 1, 2, …
        case save
        /// The same records per `NSBatchInsertRequest`.
        case batchInsert = "batch-insert"
        /// Sets every record's generation to 1, 2, … per `NSBatchUpdateRequest`.
        case batchUpdate = "batch-update"
        /// Deletes the set-up records of sequence 0, 1, … per `NSBatchDeleteRequest`.
        case batchDelete = "batch-delete"
        /// Increments the shared counter per save, retrying on an optimistic-locking conflict.
        case counter
        /// Opens the store with model v2: a lightweight migration in place.
        case migrateAlter = "migrate-alter"
        /// Opens the store with model v3: a lightweight migration that copies the tables.
        case migrateCopy = "migrate-copy"
        /// Migrates the store to v2 with `NSMigrationManager` into a new file, then
        /// `replacePersistentStore(at:…)` puts it in place.
        case migrateManager = "migrate-manager"
        /// The `save` loop through the SQLite C library (GRDB) alone, as the reference.
        case rawSave = "raw-save"

        /// The model version the store has once the operation is done.
        var finalVersion: StoreWorkerModel.Version {
            switch self {
            case .migrateAlter, .migrateManager: .v2
            case .migrateCopy: .v3
            default: .v1
            }
        }

        /// Whether the operation loops until it is killed or has done `saves` steps.
        var loops: Bool {
            switch self {
            case .migrateAlter, .migrateCopy, .migrateManager: false
            default: true
            }
        }
    }

    /// The store file.
    var url: URL
    /// This worker's number, stored in every record it inserts.
    var worker: Int64 = 1
    /// Records per step.
    var objects = 3
    /// Steps to run; 0 runs until the process is killed.
    var saves = 0
    /// `wal` or `delete`.
    var journalMode = "wal"
    /// The `synchronous` pragma; nil keeps the store's default.
    var synchronous: String?
    /// Whether each save is followed by `metadataForPersistentStore(ofType:at:options:)` on the open store.
    var readsMetadata = false

    /// A container on the store with the model of `version` (migrating automatically).
    func open(_ version: StoreWorkerModel.Version) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "StoreWorker", managedObjectModel: StoreWorkerModel.make(version))
        // Models built in code are in no bundle: the version the store may have been written with is
        // registered for the migration.
        container.persistentStoreCoordinator.migrationSourceModels = [StoreWorkerModel.make(.v1)]
        let description = NSPersistentStoreDescription(url: url)
        description.setValue(journalMode.uppercased() as NSString, forPragmaNamed: "journal_mode")
        if let synchronous { description.setValue(synchronous as NSString, forPragmaNamed: "synchronous") }
        container.persistentStoreDescriptions = [description]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    /// Closes a container's stores.
    static func close(_ container: NSPersistentContainer) {
        let coordinator = container.persistentStoreCoordinator
        for store in coordinator.persistentStores { try? coordinator.remove(store) }
    }

    /// Creates the store at model v1 with `rows` sequences of `objects` set-up records (worker -1) and
    /// the shared counter at 0; or, for ``Operation/rawSave``, the reference table.
    func setUp(rows: Int, for operation: Operation) throws {
        if operation == .rawSave {
            let queue = try rawQueue()
            try queue.write { db in
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS record (worker INTEGER, sequence INTEGER, part INTEGER, payload TEXT)")
            }
            try queue.close()
            return
        }
        let container = try open(.v1)
        defer { Self.close(container) }
        let context = container.viewContext
        for sequence in 0..<rows {
            for part in 0..<objects {
                insertRecord(worker: -1, sequence: Int64(sequence), part: Int64(part), into: context)
            }
        }
        let counter = NSEntityDescription.insertNewObject(forEntityName: "Counter", into: context)
        counter.setValue("shared", forKey: "name")
        counter.setValue(0, forKey: "value")
        try context.save()
    }

    /// Runs the operation, calling `acknowledge` with each step's number once it has returned.
    func run(_ operation: Operation, acknowledge: (Int) -> Void) throws {
        switch operation {
        case .migrateAlter, .migrateCopy:
            Self.close(try open(operation.finalVersion))
            acknowledge(1)
        case .migrateManager:
            try migrateWithManager()
            acknowledge(1)
        case .rawSave:
            try rawSaves(acknowledge: acknowledge)
        default:
            let container = try open(.v1)
            defer { Self.close(container) }
            let context = container.viewContext
            var step = 1
            while saves == 0 || step <= saves {
                try perform(operation, step: step, in: context)
                acknowledge(step)
                if readsMetadata {
                    _ = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
                }
                context.reset()
                step += 1
            }
        }
    }

    /// One step of a looping operation.
    private func perform(_ operation: Operation, step: Int, in context: NSManagedObjectContext) throws {
        switch operation {
        case .save:
            for part in 0..<objects {
                insertRecord(worker: worker, sequence: Int64(step), part: Int64(part), into: context)
            }
            try context.save()
        case .batchInsert:
            let rows: [[String: Any]] = (0..<objects).map { part in
                [
                    "worker": worker, "sequence": Int64(step), "part": Int64(part), "generation": Int64(0),
                    "payload": Self.payload(worker, Int64(step), Int64(part)),
                ]
            }
            _ = try context.execute(NSBatchInsertRequest(entityName: "Record", objects: rows))
        case .batchUpdate:
            let request = NSBatchUpdateRequest(entityName: "Record")
            request.propertiesToUpdate = ["generation": NSNumber(value: step)]
            _ = try context.execute(request)
        case .batchDelete:
            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Record")
            fetch.predicate = NSPredicate(format: "worker == -1 AND sequence == %d", step - 1)
            _ = try context.execute(NSBatchDeleteRequest(fetchRequest: fetch))
        case .counter:
            try increment(in: context)
        default:
            break
        }
    }

    /// Adds one to the shared counter, fetching it afresh and trying again after a conflict with a save
    /// of another process (`NSManagedObjectMergeError`, which the default merge policy throws).
    private func increment(in context: NSManagedObjectContext) throws {
        while true {
            context.reset()
            let fetch = NSFetchRequest<NSManagedObject>(entityName: "Counter")
            fetch.predicate = NSPredicate(format: "name == %@", "shared")
            guard let counter = try context.fetch(fetch).first else {
                throw NSError(
                    domain: NSCocoaErrorDomain, code: NSCoreDataError,
                    userInfo: [
                        NSLocalizedDescriptionKey: "The store at \(url.path) has no shared counter."
                    ])
            }
            let value = (counter.value(forKey: "value") as? NSNumber)?.int64Value ?? 0
            counter.setValue(NSNumber(value: value + 1), forKey: "value")
            do {
                try context.save()
                return
            } catch let error as NSError where error.domain == NSCocoaErrorDomain && error.code == NSManagedObjectMergeError {
                context.rollback()
            }
        }
    }

    /// Migrates the store from v1 to v2 into a file beside it with a migration manager and an inferred
    /// mapping model, then replaces the store with it, as Apple's documentation shows for a migration
    /// that an app runs itself.
    private func migrateWithManager() throws {
        let source = StoreWorkerModel.make(.v1), destination = StoreWorkerModel.make(.v2)
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
        let migrated = url.deletingLastPathComponent().appendingPathComponent("migrated-\(getpid()).sqlite")
        let manager = NSMigrationManager(sourceModel: source, destinationModel: destination)
        try manager.migrateStore(
            from: url, type: .sqlite, options: nil, mapping: mapping,
            to: migrated, type: .sqlite, options: nil)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: destination)
        try coordinator.replacePersistentStore(at: url, withPersistentStoreFrom: migrated, type: .sqlite)
        try coordinator.destroyPersistentStore(at: migrated, type: .sqlite)
    }

    /// The reference: the `save` loop's rows written in one transaction each through SQLite alone.
    private func rawSaves(acknowledge: (Int) -> Void) throws {
        let queue = try rawQueue()
        var step = 1
        while saves == 0 || step <= saves {
            try queue.write { db in
                for part in 0..<objects {
                    try db.execute(
                        sql: "INSERT INTO record (worker, sequence, part, payload) VALUES (?, ?, ?, ?)",
                        arguments: [worker, step, part, Self.payload(worker, Int64(step), Int64(part))])
                }
            }
            acknowledge(step)
            step += 1
        }
    }

    /// The reference's connection: the journal mode and `synchronous` mode of the store's.
    func rawQueue() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(60)
        let journalMode = journalMode, synchronous = synchronous ?? "FULL"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = \(journalMode == "wal" ? "WAL" : "DELETE")")
            try db.execute(sql: "PRAGMA synchronous = \(synchronous == "NORMAL" ? "NORMAL" : "FULL")")
        }
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }

    private func insertRecord(worker: Int64, sequence: Int64, part: Int64, into context: NSManagedObjectContext) {
        let record = NSEntityDescription.insertNewObject(forEntityName: "Record", into: context)
        record.setValue(NSNumber(value: worker), forKey: "worker")
        record.setValue(NSNumber(value: sequence), forKey: "sequence")
        record.setValue(NSNumber(value: part), forKey: "part")
        record.setValue(NSNumber(value: 0), forKey: "generation")
        record.setValue(Self.payload(worker, sequence, part), forKey: "payload")
    }

    /// The text every record carries, so that a torn row shows.
    static func payload(_ worker: Int64, _ sequence: Int64, _ part: Int64) -> String {
        "worker \(worker) sequence \(sequence) part \(part)"
    }
}

/// Appends each acknowledged step's number to a file with one `write(2)` per line, so that what was
/// written survives the process being killed right after.
struct AcknowledgementFile {
    private let descriptor: Int32

    init(path: String) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard descriptor >= 0 else {
            throw NSError(
                domain: NSPOSIXErrorDomain, code: Int(errno),
                userInfo: [
                    NSLocalizedDescriptionKey: "Cannot open the acknowledgement file \(path)."
                ])
        }
    }

    func acknowledge(_ step: Int) {
        let line = Array("\(step)\n".utf8)
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// The step numbers acknowledged in the file at `path`.
    static func read(_ path: String) -> [Int] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { Int($0) }
    }
}
