import Foundation
import GRDBSQLite
import OpenCoreData

/// The script of the fetched-results workload: 1,000 single-object changes to a file of 10,000
/// readings (amounts 0…9,999, each row's amount its row number), a third each insertions, updates
/// (that move the object to the start or the end of the list) and deletions, each saved on its own.
public enum FetchedResultsScript {
    /// Readings in the file at the start.
    public static let rows = 10_000
    /// Changes, each saved on its own.
    public static let changes = 1_000

    /// One change.
    public enum Step {
        case insert(bucket: Int64, amount: Int64)
        case update(row: Int, amount: Int64)
        case delete(row: Int)
    }

    /// Change `i`: the original row it touches is `9 * i` (each one touched once); amounts stay distinct.
    public static func step(_ i: Int) -> Step {
        let row = 9 * i
        let amount = i % 2 == 0 ? -Int64(i) - 1 : Int64(2 * rows + i)
        switch i % 3 {
        case 0: return .insert(bucket: Int64(row % ReadingModel.buckets), amount: amount)
        case 1: return .update(row: row, amount: amount)
        default: return .delete(row: row)
        }
    }

    /// The checksum of a list of amounts: their sum plus their count × 2³².
    static func checksum(count: Int, sum: Int64) -> Int64 { sum &+ (Int64(count) << 32) }

    /// The checksum of the readings after the whole script.
    public static let expectedChecksum: Int64 = {
        var amounts = Dictionary(uniqueKeysWithValues: (0..<rows).map { ($0, Int64($0)) })
        var inserted: [Int64] = []
        for i in 0..<changes {
            switch step(i) {
            case .insert(_, let amount): inserted.append(amount)
            case .update(let row, let amount): amounts[row] = amount
            case .delete(let row): amounts[row] = nil
            }
        }
        let all = Array(amounts.values) + inserted
        return checksum(count: all.count, sum: all.reduce(0, +))
    }()
}

/// Counts a fetched results controller's change callbacks.
final class ChangeCounter: NSObject, NSFetchedResultsControllerDelegate {
    var objectChanges = 0
    var contentChanges = 0

    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
        at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        objectChanges += 1
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        contentChanges += 1
    }
}

/// OpenCoreData: an `NSFetchedResultsController` over every reading sorted by amount (one section),
/// with a delegate, fetched before the measurement; then 1,000 changes made in its context, each
/// followed by one `save()`. The controller's own `fetchedObjects` give the checksum.
public final class OpenCoreDataFetchedResults: Contender {
    public static let name = "OpenCoreData FRC"
    let context: NSManagedObjectContext
    let controller: NSFetchedResultsController<Reading>
    let counter = ChangeCounter()
    let originals: [Reading]

    public init(url: URL) throws {
        let context = try ReadingModel.context(at: url)
        self.context = context
        let request = NSFetchRequest<Reading>(entityName: "Reading")
        request.sortDescriptors = [NSSortDescriptor(key: "amount", ascending: true)]
        let controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context,
            sectionNameKeyPath: nil, cacheName: nil)
        controller.delegate = counter
        self.controller = controller
        originals = try context.performAndWait {
            try controller.performFetch()
            return controller.fetchedObjects ?? []
        }
        guard originals.count == FetchedResultsScript.rows else {
            throw WorkloadError("the controller fetched \(originals.count) readings, not \(FetchedResultsScript.rows)")
        }
    }

    public func run() throws -> Int64 {
        let context = self.context
        let originals = self.originals
        let controller = self.controller
        let checksum = try context.performAndWait {
            for i in 0..<FetchedResultsScript.changes {
                switch FetchedResultsScript.step(i) {
                case .insert(let bucket, let amount):
                    let reading = Reading(context: context)
                    reading.bucket = bucket
                    reading.amount = amount
                case .update(let row, let amount):
                    originals[row].amount = amount
                case .delete(let row):
                    context.delete(originals[row])
                }
                try context.save()
            }
            let objects = controller.fetchedObjects ?? []
            return FetchedResultsScript.checksum(count: objects.count, sum: objects.reduce(0) { $0 + $1.amount })
        }
        guard counter.objectChanges >= FetchedResultsScript.changes,
            counter.contentChanges == FetchedResultsScript.changes
        else {
            throw WorkloadError(
                "the delegate heard \(counter.objectChanges) object changes in \(counter.contentChanges) events for \(FetchedResultsScript.changes) saves"
            )
        }
        return checksum
    }
}

/// Raw SQLite: the same 1,000 changes as single statements, each in its own transaction (an insert also
/// advances `Z_PRIMARYKEY.Z_MAX`, an update bumps `Z_OPT`); no list is kept up to date: this is the
/// floor of the writes alone. Its checksum is one `SELECT COUNT(*), SUM(ZAMOUNT)` at the end.
public final class RawSQLiteSingleSaves: Contender {
    public static let name = "raw SQLite statements"
    let connection: RawConnection
    let entity: Int64

    public init(url: URL) throws {
        connection = try RawConnection(url: url)
        entity = try connection.integers("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Reading'")[0]
    }

    public func run() throws -> Int64 {
        let insertSQL = "INSERT INTO ZREADING (Z_PK, Z_ENT, Z_OPT, ZBUCKET, ZAMOUNT) VALUES (?, \(entity), 1, ?, ?)"
        let keySQL = "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = \(entity)"
        let updateSQL = "UPDATE ZREADING SET ZAMOUNT = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ?"
        let deleteSQL = "DELETE FROM ZREADING WHERE Z_PK = ?"
        let insert = try connection.prepare(insertSQL), key = try connection.prepare(keySQL)
        let update = try connection.prepare(updateSQL), delete = try connection.prepare(deleteSQL)
        defer { [insert, key, update, delete].forEach { sqlite3_finalize($0) } }
        func step(_ statement: OpaquePointer, _ sql: String) throws {
            guard sqlite3_step(statement) == SQLITE_DONE else { throw connection.error(sql) }
            sqlite3_reset(statement)
        }
        var maxKey = Int64(FetchedResultsScript.rows)
        for i in 0..<FetchedResultsScript.changes {
            try connection.execute("BEGIN IMMEDIATE")
            switch FetchedResultsScript.step(i) {
            case .insert(let bucket, let amount):
                maxKey += 1
                sqlite3_bind_int64(insert, 1, maxKey)
                sqlite3_bind_int64(insert, 2, bucket)
                sqlite3_bind_int64(insert, 3, amount)
                try step(insert, insertSQL)
                sqlite3_bind_int64(key, 1, maxKey)
                try step(key, keySQL)
            case .update(let row, let amount):
                sqlite3_bind_int64(update, 1, amount)
                sqlite3_bind_int64(update, 2, Int64(row + 1))
                try step(update, updateSQL)
            case .delete(let row):
                sqlite3_bind_int64(delete, 1, Int64(row + 1))
                try step(delete, deleteSQL)
            }
            try connection.execute("COMMIT")
        }
        let figures = try connection.integers("SELECT COUNT(*), SUM(ZAMOUNT) FROM ZREADING")
        return FetchedResultsScript.checksum(count: Int(figures[0]), sum: figures[1])
    }
}
