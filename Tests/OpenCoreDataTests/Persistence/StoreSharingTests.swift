import Foundation
import Testing

@testable import OpenCoreDataCore

/// One SQLite store shared by several containers of a process, by other processes and by the `sqlite3`
/// tool: every save that returned is in the file, whatever the others do.
@Suite("Sharing a store between containers and processes", .tags(.slow))
struct StoreSharingTests {
    /// A model with one entity, `Item(title)`.
    static func model() -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        model.entities = [ModelKit.entity("Item", [ModelKit.attribute("title", .stringAttributeType)])]
        return model
    }

    static func container(_ url: URL, model: NSManagedObjectModel) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Items", managedObjectModel: model)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: url)]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    static func insert(_ count: Int, into context: NSManagedObjectContext, from start: Int = 0) throws {
        for index in start..<(start + count) {
            NSEntityDescription.insertNewObject(forEntityName: "Item", into: context).setValue("item \(index)", forKey: "title")
        }
        try context.save()
    }

    static func close(_ container: NSPersistentContainer) throws {
        let coordinator = container.persistentStoreCoordinator
        for store in coordinator.persistentStores { try coordinator.remove(store) }
    }

    /// The data loss a new user found: reading the store's metadata while the store is open, then any
    /// other program opening and closing the file. Reading the metadata used to copy the live file,
    /// whose closing dropped the process's locks; the other program then took itself for the last
    /// connection and deleted the `-wal`, and the next save went into a file without a name.
    @Test("metadata read of an open store, then sqlite3 reading: the next save is in the file")
    func metadataThenOtherProcess() throws {
        let directory = try TestScratch.directory("sharing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Items.sqlite")
        let container = try Self.container(url, model: Self.model())
        let context = container.viewContext
        try Self.insert(3, into: context)

        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(metadata[NSStoreUUIDKey] as? String == container.persistentStoreCoordinator.persistentStores.first?.identifier)
        #expect(try StoreProcesses.sqlite(url, "SELECT count(*) FROM ZITEM") == "3")

        try Self.insert(3, into: context, from: 3)
        #expect(FileManager.default.fileExists(atPath: url.path + "-wal"))
        #expect(try StoreProcesses.sqlite(url, "SELECT count(*) FROM ZITEM") == "6")
        try Self.insert(3, into: context, from: 6)
        #expect(try StoreProcesses.sqlite(url, "SELECT count(*) FROM ZITEM") == "9")
        try Self.close(container)
        #expect(try StoreProcesses.sqlite(url, "SELECT count(*) FROM ZITEM; PRAGMA integrity_check") == "9\nok")
    }

    @Test("a second container opened and closed on the same file leaves the first one's saves in the file")
    func secondContainerInProcess() throws {
        let directory = try TestScratch.directory("sharing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Items.sqlite")
        let model = Self.model()
        let first = try Self.container(url, model: model)
        try Self.insert(2, into: first.viewContext)

        let second = try Self.container(url, model: model)
        #expect(try second.viewContext.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Item")) == 2)
        try Self.insert(2, into: second.viewContext, from: 2)
        try Self.close(second)
        #expect(try StoreProcesses.sqlite(url, "SELECT count(*) FROM ZITEM") == "4")

        try Self.insert(2, into: first.viewContext, from: 4)
        #expect(try StoreProcesses.sqlite(url, "SELECT count(*) FROM ZITEM") == "6")
        #expect(try first.viewContext.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Item")) == 6)
        try Self.close(first)
        #expect(try StoreProcesses.sqlite(url, "SELECT count(*) FROM ZITEM") == "6")
    }

    @Test("a store opened read-only for its metadata and schema keeps a hot rollback journal's recovery")
    func hotJournalMetadata() throws {
        let directory = try TestScratch.directory("sharing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Items.sqlite")
        let description = NSPersistentStoreDescription(url: url)
        description.setValue("DELETE" as NSString, forPragmaNamed: "journal_mode")
        let container = NSPersistentContainer(name: "Items", managedObjectModel: Self.model())
        container.persistentStoreDescriptions = [description]
        container.loadPersistentStores { _, error in #expect(error == nil) }
        try Self.insert(5, into: container.viewContext)
        try Self.close(container)

        // A worker killed in the middle of a save in rollback journal mode leaves a hot journal.
        let store = directory.appendingPathComponent("Worker.sqlite")
        let acks = directory.appendingPathComponent("acks")
        let worker = try StoreProcesses.startWorker(
            store: store,
            [
                "--operation", "save", "--journal-mode", "delete",
                "--objects", "200", "--set-up", "1", "--ack-file", acks.path,
            ],
            log: directory.appendingPathComponent("worker.log"))
        var waited = 0
        while StoreProcesses.acknowledged(acks).isEmpty && waited < 20_000 {
            usleep(1000)
            waited += 1
        }
        waited = 0
        while !FileManager.default.fileExists(atPath: store.path + "-journal") && waited < 4000 {
            usleep(1000)
            waited += 1
        }
        kill(worker.processIdentifier, SIGKILL)
        worker.waitUntilExit()
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: store)
        #expect(metadata[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        let last = StoreProcesses.acknowledged(acks).max() ?? 0
        let counts = try StoreProcesses.recordCounts(store, worker: 1)
        for step in 1...max(last, 1) where step <= last {
            #expect(counts[step] == 200, "acknowledged step \(step)")
        }
        #expect(counts.values.allSatisfy { $0 == 200 })
        #expect(try StoreProcesses.sqlite(store, "PRAGMA integrity_check") == "ok")
    }

    @Test(
        "a save after another program deleted the -wal, -shm or store file throws and keeps the changes",
        arguments: ["-wal", "-shm", ""])
    func deletedCompanion(suffix: String) throws {
        let directory = try TestScratch.directory("sharing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Items.sqlite")
        let container = try Self.container(url, model: Self.model())
        let context = container.viewContext
        try Self.insert(3, into: context)
        let removal = try StoreProcesses.run(URL(fileURLWithPath: "/bin/rm"), [url.path + suffix])
        #expect(removal.status == 0)
        #expect {
            try Self.insert(2, into: context, from: 3)
        } throws: { error in
            let error = error as NSError
            return error.domain == NSCocoaErrorDomain && error.code == NSSQLiteError
                && (error.userInfo[NSFilePathErrorKey] as? String) == url.path + suffix
                && error.localizedDescription.contains("deleted by another program")
        }
        #expect(context.insertedObjects.count == 2)
        try Self.close(container)
    }

    @Test("several processes create one missing store at once: one creates it, all save into it")
    func concurrentCreation() throws {
        let directory = try TestScratch.directory("sharing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("Shared.sqlite")
        let workers = try (1...4).map { worker in
            try StoreProcesses.startWorker(
                store: store,
                [
                    "--operation", "save", "--worker", "\(worker)", "--saves", "5",
                    "--ack-file", directory.appendingPathComponent("acks-\(worker)").path,
                ],
                log: directory.appendingPathComponent("worker-\(worker).log"))
        }
        Self.expectSuccess(workers, logsIn: directory)
        for worker in 1...4 {
            #expect(try StoreProcesses.recordCounts(store, worker: worker) == [1: 3, 2: 3, 3: 3, 4: 3, 5: 3])
        }
        #expect(try StoreProcesses.sqlite(store, "SELECT count(*) FROM Z_METADATA") == "1")
    }

    @Test(
        "several processes open a store with a newer model at once: one migrates it, all open it",
        arguments: ["migrate-alter", "migrate-copy"])
    func concurrentMigration(operation: String) throws {
        let directory = try TestScratch.directory("sharing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("Shared.sqlite")
        try Self.makeWorkerStore(store, rows: 50)
        let workers = try (1...3).map { worker in
            try StoreProcesses.startWorker(
                store: store, ["--operation", operation, "--worker", "\(worker)"],
                log: directory.appendingPathComponent("worker-\(worker).log"))
        }
        Self.expectSuccess(workers, logsIn: directory)
        let table = operation == "migrate-copy" ? "ZENTRY" : "ZRECORD"
        #expect(try StoreProcesses.sqlite(store, "SELECT count(*) FROM \(table); PRAGMA integrity_check") == "153\nok")
    }

    /// Three processes save, two more increment one counter (conflicting saves, resolved by fetching
    /// afresh after `NSManagedObjectMergeError`), while `sqlite3` reads the file over and over.
    @Test("many processes save and conflict on one store while sqlite3 reads it; every acknowledged save is there")
    func manyProcesses() throws {
        let directory = try TestScratch.directory("sharing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("Shared.sqlite")
        try Self.makeWorkerStore(store)

        var processes: [(name: String, process: Process, acks: URL)] = []
        for worker in 1...3 {
            let acks = directory.appendingPathComponent("save-\(worker)")
            processes.append(
                (
                    "save \(worker)",
                    try StoreProcesses.startWorker(
                        store: store, ["--operation", "save", "--worker", "\(worker)", "--saves", "40", "--ack-file", acks.path],
                        log: directory.appendingPathComponent("save-\(worker).log")), acks
                ))
        }
        for worker in 4...5 {
            let acks = directory.appendingPathComponent("counter-\(worker)")
            processes.append(
                (
                    "counter \(worker)",
                    try StoreProcesses.startWorker(
                        store: store, ["--operation", "counter", "--worker", "\(worker)", "--saves", "25", "--ack-file", acks.path],
                        log: directory.appendingPathComponent("counter-\(worker).log")), acks
                ))
        }
        var reads = 0
        while processes.contains(where: { $0.process.isRunning }) {
            let result = try StoreProcesses.run(
                try StoreProcesses.sqlite3(),
                ["-cmd", ".timeout 10000", store.path, "SELECT count(*) FROM ZRECORD"])
            #expect(result.status == 0, "sqlite3 while the workers run: \(result.error)")
            reads += 1
        }
        #expect(reads > 0)
        for entry in processes {
            entry.process.waitUntilExit()
            #expect(entry.process.terminationStatus == 0, "\(entry.name) failed")
        }
        for worker in 1...3 {
            #expect(StoreProcesses.acknowledged(processes[worker - 1].acks).count == 40)
            let counts = try StoreProcesses.recordCounts(store, worker: worker)
            #expect(counts.count == 40 && counts.values.allSatisfy { $0 == 3 }, "worker \(worker): \(counts)")
        }
        #expect(try StoreProcesses.sqlite(store, "SELECT ZVALUE FROM ZCOUNTER WHERE ZNAME = 'shared'") == "50")
        // Primary keys were handed out once each, and Z_PRIMARYKEY is ahead of every key in use.
        #expect(try StoreProcesses.sqlite(store, "SELECT count(*) - count(DISTINCT Z_PK) FROM ZRECORD") == "0")
        #expect(
            try StoreProcesses.sqlite(
                store,
                """
                SELECT (SELECT max(Z_PK) FROM ZRECORD) <= Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Record'
                """) == "1")
        #expect(try StoreProcesses.sqlite(store, "PRAGMA integrity_check") == "ok")
    }

    /// Creates a worker store at model v1 with `rows` set-up sequences and one save of `worker`.
    static func makeWorkerStore(_ store: URL, rows: Int = 0, worker: Int = 0) throws {
        let made = try StoreProcesses.ocd([
            "selftest", "store-worker", "--store", store.path, "--set-up", "\(rows)",
            "--saves", "1", "--worker", "\(worker)",
        ])
        #expect(made.status == 0, "\(made.error)")
    }

    /// Waits for workers started with logs `worker-1.log`, … in `directory`; each must exit with 0.
    static func expectSuccess(_ workers: [Process], logsIn directory: URL) {
        for (index, worker) in workers.enumerated() {
            worker.waitUntilExit()
            let log = (try? String(contentsOf: directory.appendingPathComponent("worker-\(index + 1).log"), encoding: .utf8)) ?? ""
            #expect(worker.terminationStatus == 0, "worker \(index + 1): \(log)")
        }
    }

    /// Waits until the acknowledgement file holds at least `count` steps, for up to twenty seconds.
    static func waitForAcknowledgements(_ file: URL, count: Int) {
        for _ in 0..<2000 where StoreProcesses.acknowledged(file).count < count {
            usleep(10_000)
        }
    }

    @Test("destroying a store another process is saving into empties it; that process's saves then fail, none is lost silently")
    func destroyWhileOpenElsewhere() throws {
        let directory = try TestScratch.directory("sharing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("Shared.sqlite")
        let acks = directory.appendingPathComponent("acks")
        let worker = try StoreProcesses.startWorker(
            store: store, ["--operation", "save", "--set-up", "0", "--ack-file", acks.path],
            log: directory.appendingPathComponent("worker.log"))
        Self.waitForAcknowledgements(acks, count: 3)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: StoreSharingWorkerModel.make())
        try coordinator.destroyPersistentStore(at: store, type: .sqlite)
        let atDestroy = StoreProcesses.acknowledged(acks).count
        #expect(atDestroy >= 3)
        for _ in 0..<500 where worker.isRunning { usleep(10_000) }
        if worker.isRunning { kill(worker.processIdentifier, SIGKILL) }
        worker.waitUntilExit()
        #expect(worker.terminationReason == .exit && worker.terminationStatus != 0, "the worker's next save failed")
        #expect(StoreProcesses.acknowledged(acks).count <= atDestroy + 1)
        #expect(FileManager.default.fileExists(atPath: store.path), "the file stays while another process has it open")
        #expect(try StoreProcesses.sqlite(store, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'Z%'") == "0")

        // Adding a store there again creates a new, empty store in the file.
        let container = NSPersistentContainer(name: "StoreWorker", managedObjectModel: StoreSharingWorkerModel.make())
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: store)]
        container.loadPersistentStores { _, error in #expect(error == nil) }
        #expect(try container.viewContext.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Record")) == 0)
        try Self.close(container)
        try coordinator.destroyPersistentStore(at: store, type: .sqlite)
        #expect(!FileManager.default.fileExists(atPath: store.path), "with no other connection the files are deleted")
        #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"))
    }

    @Test("replacing a store another process is saving into: that process's later saves land in the replaced store")
    func replaceWhileOpenElsewhere() throws {
        let directory = try TestScratch.directory("sharing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("Source.sqlite")
        try Self.makeWorkerStore(source, rows: 10, worker: 9)
        let store = directory.appendingPathComponent("Shared.sqlite")
        let acks = directory.appendingPathComponent("acks")
        let worker = try StoreProcesses.startWorker(
            store: store, ["--operation", "save", "--set-up", "0", "--ack-file", acks.path],
            log: directory.appendingPathComponent("worker.log"))
        Self.waitForAcknowledgements(acks, count: 3)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: StoreSharingWorkerModel.make())
        try coordinator.replacePersistentStore(at: store, withPersistentStoreFrom: source, type: .sqlite)
        let atReplace = StoreProcesses.acknowledged(acks).count
        Self.waitForAcknowledgements(acks, count: atReplace + 5)
        kill(worker.processIdentifier, SIGKILL)
        worker.waitUntilExit()
        let acknowledged = StoreProcesses.acknowledged(acks)
        #expect(acknowledged.count >= atReplace + 5, "the worker goes on saving into the replaced store")
        let counts = try StoreProcesses.recordCounts(store, worker: 1)
        for step in acknowledged where step > atReplace + 1 {
            #expect(counts[step] == 3, "acknowledged step \(step), after the replacement, is in the file")
        }
        #expect(try StoreProcesses.recordCounts(store, worker: 9) == [1: 3])
        #expect(try StoreProcesses.sqlite(store, "SELECT count(*) FROM ZRECORD WHERE ZWORKER = -1") == "30")
        #expect(try StoreProcesses.sqlite(store, "PRAGMA integrity_check") == "ok")
    }

    @Test("a save that conflicts with another process's save throws NSManagedObjectMergeError")
    func conflictAcrossProcesses() throws {
        let directory = try TestScratch.directory("sharing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("Shared.sqlite")
        try Self.makeWorkerStore(store)
        let model = StoreSharingWorkerModel.make()
        let container = NSPersistentContainer(name: "StoreWorker", managedObjectModel: model)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: store)]
        container.loadPersistentStores { _, error in #expect(error == nil) }
        let context = container.viewContext
        let fetch = NSFetchRequest<NSManagedObject>(entityName: "Counter")
        let counter = try #require(try context.fetch(fetch).first)
        #expect((counter.value(forKey: "value") as? NSNumber)?.intValue == 0)

        // Another process increments the counter after this context read it.
        let other = try StoreProcesses.ocd(["selftest", "store-worker", "--store", store.path, "--operation", "counter", "--saves", "1"])
        #expect(other.status == 0, "\(other.error)")

        counter.setValue(NSNumber(value: 100), forKey: "value")
        #expect {
            try context.save()
        } throws: { error in
            let error = error as NSError
            return error.domain == NSCocoaErrorDomain && error.code == NSManagedObjectMergeError
        }
        context.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
        try context.save()
        #expect(try StoreProcesses.sqlite(store, "SELECT ZVALUE FROM ZCOUNTER") == "100")
        try Self.close(container)
    }
}

/// The store workers' model, as `ocd` builds it (`StoreWorkerModel` v1), for tests that open a worker's
/// store themselves.
enum StoreSharingWorkerModel {
    static func make() -> NSManagedObjectModel {
        func integer(_ name: String) -> NSAttributeDescription {
            let attribute = ModelKit.attribute(name, .integer64AttributeType, optional: false)
            attribute.defaultValue = 0
            return attribute
        }
        let record = ModelKit.entity(
            "Record",
            [
                integer("worker"), integer("sequence"), integer("part"), integer("generation"),
                ModelKit.attribute("payload", .stringAttributeType),
            ])
        let counter = ModelKit.entity("Counter", [ModelKit.attribute("name", .stringAttributeType, optional: false), integer("value")])
        record.managedObjectClassName = "NSManagedObject"
        counter.managedObjectClassName = "NSManagedObject"
        let model = NSManagedObjectModel()
        model.entities = [record, counter]
        return model
    }
}
