import Dispatch
import Foundation
import OpenCoreData
import Synchronization

/// The first phase of `ocd selftest concurrency-stress`: worker contexts of one coordinator changing
/// records and one shared counter at once, then a check of what the store holds.
struct StressWork {
    let coordinator: NSPersistentStoreCoordinator
    let workers: Int
    let seconds: Double

    /// Rounds each worker runs at least, however short `seconds` is.
    private static let minimumRounds = 25

    /// What one worker committed: the generation of each of its records that exists after its last
    /// successful save, by sequence number, and how many times it incremented the counter.
    private struct Committed {
        var records: [Int64: Int64] = [:]
        var increments: Int64 = 0
    }

    func run() throws {
        let setup = context()
        let counterID = try setup.performAndWait {
            let counter = NSEntityDescription.insertNewObject(forEntityName: "Counter", into: setup)
            counter.setValue("shared", forKey: "name")
            counter.setValue(Int64(0), forKey: "value")
            try setup.save()
            return counter.objectID
        }
        let deadline = Date().addingTimeInterval(seconds)
        let results = Mutex<[Int: Committed]>([:])
        let failures = StressFailures()
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            do {
                let committed = try work(worker, counterID: counterID, deadline: deadline)
                results.withLock { $0[worker] = committed }
            } catch {
                failures.add("worker \(worker) failed: \(error)")
            }
        }
        try failures.check("concurrent work")

        let reader = context()
        let (stored, counter) = try reader.performAndWait { () throws -> ([Int: [Int64: Int64]], Int64) in
            var stored: [Int: [Int64: Int64]] = [:]
            for record in try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Record")) {
                let worker = Int(record.value(forKey: "worker") as? Int64 ?? -1)
                let sequence = record.value(forKey: "sequence") as? Int64 ?? -1
                if stored[worker, default: [:]][sequence] != nil { failures.add("record \(worker)/\(sequence) twice") }
                stored[worker, default: [:]][sequence] = record.value(forKey: "generation") as? Int64
            }
            let counter = try reader.existingObject(with: counterID).value(forKey: "value") as? Int64 ?? -1
            return (stored, counter)
        }
        let committed = results.withLock { $0 }
        for worker in 0..<workers where (stored[worker] ?? [:]) != (committed[worker]?.records ?? [:]) {
            failures.add("worker \(worker)'s records differ from what it committed")
        }
        let increments = committed.values.reduce(0) { $0 + $1.increments }
        if counter != increments { failures.add("the counter is \(counter), the workers saved \(increments) increments") }
        if committed.values.contains(where: { $0.increments == 0 }) { failures.add("a worker never incremented the counter") }
        try failures.check("concurrent work")
    }

    private func context() -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// One worker's rounds: insert two records, bump one of its records' generation, delete one every
    /// third round, save, count and fetch everyone's records, then increment the counter.
    private func work(_ worker: Int, counterID: NSManagedObjectID, deadline: Date) throws -> Committed {
        let context = context()
        context.name = "worker \(worker)"
        context.automaticallyMergesChangesFromParent = true
        var committed = Committed()
        var round: Int64 = 0
        while round < Self.minimumRounds || Date() < deadline {
            committed = try context.performAndWait {
                var next = committed
                let mine = NSFetchRequest<NSManagedObject>(entityName: "Record")
                mine.predicate = NSPredicate(format: "worker == %d", worker)
                let records = try context.fetch(mine)
                for index: Int64 in 0..<2 {
                    let record = NSEntityDescription.insertNewObject(forEntityName: "Record", into: context)
                    record.setValue(Int64(worker), forKey: "worker")
                    record.setValue(round * 2 + index, forKey: "sequence")
                    record.setValue(Int64(0), forKey: "generation")
                    next.records[round * 2 + index] = 0
                }
                if let record = records.first(where: { !$0.isDeleted }), let sequence = record.value(forKey: "sequence") as? Int64 {
                    let generation = (record.value(forKey: "generation") as? Int64 ?? 0) + 1
                    record.setValue(generation, forKey: "generation")
                    next.records[sequence] = generation
                }
                if round % 3 == 2, let victim = records.last(where: { !$0.isDeleted }),
                    let sequence = victim.value(forKey: "sequence") as? Int64
                {
                    context.delete(victim)
                    next.records[sequence] = nil
                }
                try context.save()
                _ = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Record"))
                let bumped = NSFetchRequest<NSManagedObject>(entityName: "Record")
                bumped.predicate = NSPredicate(format: "generation > 0")
                _ = try context.fetch(bumped).map { $0.value(forKey: "generation") }
                return next
            }
            if try increment(counterID, in: context) { committed.increments += 1 }
            round += 1
        }
        return committed
    }

    /// Adds one to the counter; on a conflict, refreshes and tries again. Returns whether it was saved.
    private func increment(_ counterID: NSManagedObjectID, in context: NSManagedObjectContext) throws -> Bool {
        for _ in 0..<200 {
            let saved = try context.performAndWait { () throws -> Bool in
                let counter = try context.existingObject(with: counterID)
                counter.setValue((counter.value(forKey: "value") as? Int64 ?? 0) + 1, forKey: "value")
                do {
                    try context.save()
                    return true
                } catch let error as NSError where error.code == NSManagedObjectMergeError {
                    context.rollback()
                    context.refresh(counter, mergeChanges: false)
                    return false
                }
            }
            if saved { return true }
        }
        return false
    }
}

/// The IDs threads read from fetched objects, one row of slots per thread.
///
/// `@unchecked Sendable`: each thread writes only its own row of `slots`, and the rows are read only
/// after `DispatchQueue.concurrentPerform` has returned, which orders every write before the reads.
/// The objects are only asked for `objectID`, which may be read from any thread.
final class ObjectIDReadings: @unchecked Sendable {
    private let objects: [NSManagedObject]
    private let threads: Int
    private let slots: UnsafeMutablePointer<ObjectIdentifier?>

    init(threads: Int, objects: [NSManagedObject]) {
        self.objects = objects
        self.threads = threads
        slots = .allocate(capacity: threads * objects.count)
        slots.initialize(repeating: nil, count: threads * objects.count)
    }

    deinit {
        slots.deallocate()
    }

    /// Reads every object's ID on the calling thread into row `thread`.
    func read(thread: Int) {
        for (index, object) in objects.enumerated() {
            slots[thread * objects.count + index] = ObjectIdentifier(object.objectID)
        }
    }

    /// Whether every thread read the same ID of each object, and the objects still give it.
    func agree() -> Bool {
        objects.indices.allSatisfy { index in
            let first = ObjectIdentifier(objects[index].objectID)
            return (0..<threads).allSatisfy { slots[$0 * objects.count + index] == first }
        }
    }
}
