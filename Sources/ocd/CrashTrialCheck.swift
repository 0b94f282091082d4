import GRDB
import OpenCoreData

/// What one crash trial found in the store its killed worker left.
struct CrashTrialOutcome {
    /// Steps the worker acknowledged (a save, a batch request, an increment or a migration that returned).
    var acknowledged = 0
    /// Acknowledged steps missing from the store.
    var lost = 0
    /// Steps found in part (some of their rows, or a mix of old and new values).
    var torn = 0
    /// Whether the store failed to open (SQLite's integrity check, or the container at the operation's
    /// final model version, migrating as needed).
    var unopenable = false
    /// What was wrong, for the report.
    var problems: [String] = []

    var isClean: Bool { lost == 0 && torn == 0 && !unopenable }
}

/// Checks a store after its worker was killed: it opens and passes `PRAGMA integrity_check`, and every
/// acknowledged step is there whole, the step in flight whole or not at all.
struct CrashTrialCheck {
    let work: StoreWork
    let operation: StoreWork.Operation
    /// The set-up sequences the store was created with.
    let setUpRows: Int
    /// The acknowledged step numbers.
    let acknowledged: [Int]

    func run() -> CrashTrialOutcome {
        var outcome = CrashTrialOutcome(acknowledged: acknowledged.count)
        do {
            let problem = try integrity()
            if let problem {
                outcome.unopenable = true
                outcome.problems.append(problem)
                return outcome
            }
            if operation == .rawSave {
                try checkRecords(table: "record", prefix: "", into: &outcome)
                return outcome
            }
            if !operation.loops, !acknowledged.isEmpty {
                let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: work.url)
                let model = StoreWorkerModel.make(operation.finalVersion)
                if !model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) {
                    outcome.lost += 1
                    outcome.problems.append("the acknowledged migration is not in the store")
                }
            }
            try checkContent(into: &outcome)
            do {
                StoreWork.close(try work.open(operation.finalVersion))
            } catch {
                outcome.unopenable = true
                outcome.problems.append("the store does not open at \(operation.finalVersion.rawValue): \(error.localizedDescription)")
                return outcome
            }
            if !operation.loops { try checkContent(into: &outcome) }
        } catch {
            outcome.unopenable = true
            outcome.problems.append("checking failed: \(error.localizedDescription)")
        }
        return outcome
    }

    /// A connection that may roll back a hot journal, as any SQLite client opening the file would.
    private func connection() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        return try DatabaseQueue(path: work.url.path, configuration: configuration)
    }

    /// SQLite's verdict on the file, or nil when it is sound.
    private func integrity() throws -> String? {
        let queue = try connection()
        defer { try? queue.close() }
        let result = try queue.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
        return result == ["ok"] ? nil : "integrity_check: \(result.prefix(3).joined(separator: "; "))"
    }

    private func checkContent(into outcome: inout CrashTrialOutcome) throws {
        switch operation {
        case .save, .batchInsert:
            try checkRecords(table: "ZRECORD", prefix: "Z", into: &outcome)
        case .batchUpdate:
            try checkGenerations(into: &outcome)
        case .batchDelete:
            try checkDeletions(into: &outcome)
        case .counter:
            try checkCounter(into: &outcome)
        case .migrateAlter, .migrateCopy, .migrateManager:
            // Records live in ZENTRY once the store is at v3 (Record under Entry), in ZRECORD before.
            let count =
                try connection().read { db in
                    try Int.fetchOne(db, sql: "SELECT count(*) FROM \(try db.tableExists("ZENTRY") ? "ZENTRY" : "ZRECORD")")
                } ?? 0
            if count != setUpRows * work.objects {
                outcome.lost += 1
                outcome.problems.append("\(count) records after the migration, not \(setUpRows * work.objects)")
            }
        case .rawSave:
            break
        }
    }

    /// Each acknowledged sequence has all its records with their payloads; the one in flight all or none.
    private func checkRecords(table: String, prefix: String, into outcome: inout CrashTrialOutcome) throws {
        let worker = "\(prefix)WORKER", sequence = "\(prefix)SEQUENCE", part = "\(prefix)PART", payload = "\(prefix)PAYLOAD"
        let queue = try connection()
        defer { try? queue.close() }
        let (counts, mismatched) = try queue.read { db -> ([Int: Int], Int) in
            var counts: [Int: Int] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT \(sequence), count(*) FROM \(table) WHERE \(worker) = ? GROUP BY 1",
                arguments: [work.worker])
            {
                counts[row[0]] = row[1]
            }
            let mismatched =
                try Int.fetchOne(
                    db,
                    sql: """
                        SELECT count(*) FROM \(table) WHERE \(worker) = ?
                        AND \(payload) IS NOT ('worker ' || \(worker) || ' sequence ' || \(sequence) || ' part ' || \(part))
                        """, arguments: [work.worker]) ?? 0
            return (counts, mismatched)
        }
        let last = acknowledged.max() ?? 0
        for step in 1...max(last, 1) where step <= last {
            let count = counts[step] ?? 0
            if count == 0 {
                outcome.lost += 1
                outcome.problems.append("acknowledged step \(step) is missing")
            } else if count != work.objects {
                outcome.torn += 1
                outcome.problems.append("step \(step) has \(count) of \(work.objects) records")
            }
        }
        for (step, count) in counts where step > last && (step > last + 1 || count != work.objects) {
            outcome.torn += 1
            outcome.problems.append("unacknowledged step \(step) has \(count) of \(work.objects) records")
        }
        if mismatched > 0 {
            outcome.torn += 1
            outcome.problems.append("\(mismatched) records with a payload not their own")
        }
    }

    /// Every record has one generation: the last acknowledged one or the one in flight.
    private func checkGenerations(into outcome: inout CrashTrialOutcome) throws {
        let generations = try connection().read { try Int.fetchAll($0, sql: "SELECT DISTINCT ZGENERATION FROM ZRECORD") }
        let last = acknowledged.max() ?? 0
        if generations.count != 1 {
            outcome.torn += 1
            outcome.problems.append("records of generations \(generations.sorted())")
        } else if let generation = generations.first, generation < last {
            outcome.lost += 1
            outcome.problems.append("generation \(generation), but \(last) was acknowledged")
        } else if let generation = generations.first, generation > last + 1 {
            outcome.torn += 1
            outcome.problems.append("generation \(generation), beyond \(last + 1)")
        }
    }

    /// The set-up sequences deleted by acknowledged steps are gone, the one in flight whole or gone, the
    /// rest whole.
    private func checkDeletions(into outcome: inout CrashTrialOutcome) throws {
        var counts: [Int: Int] = [:]
        for row in try connection().read({ try Row.fetchAll($0, sql: "SELECT ZSEQUENCE, count(*) FROM ZRECORD WHERE ZWORKER = -1 GROUP BY 1") }) {
            counts[row[0]] = row[1]
        }
        let last = acknowledged.max() ?? 0
        for sequence in 0..<setUpRows {
            let count = counts[sequence] ?? 0
            if sequence < last, count != 0 {
                outcome.lost += 1
                outcome.problems.append("acknowledged delete of sequence \(sequence) left \(count) records")
            } else if sequence == last, count != 0, count != work.objects {
                outcome.torn += 1
                outcome.problems.append("sequence \(sequence) in flight has \(count) of \(work.objects) records")
            } else if sequence > last, count != work.objects {
                outcome.torn += 1
                outcome.problems.append("sequence \(sequence), never deleted, has \(count) of \(work.objects) records")
            }
        }
    }

    /// The counter counts every acknowledged increment, and at most the one in flight besides.
    private func checkCounter(into outcome: inout CrashTrialOutcome) throws {
        let value = try connection().read { try Int.fetchOne($0, sql: "SELECT ZVALUE FROM ZCOUNTER WHERE ZNAME = 'shared'") } ?? -1
        if value < acknowledged.count {
            outcome.lost += acknowledged.count - value
            outcome.problems.append("counter \(value) after \(acknowledged.count) acknowledged increments")
        } else if value > acknowledged.count + 1 {
            outcome.torn += 1
            outcome.problems.append("counter \(value) after \(acknowledged.count) acknowledged increments")
        }
    }
}
