import Foundation
import GRDBSQLite
import OpenCoreData

/// The persistent history workloads (issue 50): what tracking adds to an insert, and reading 1,000
/// transactions with their changes beside raw SQL reading the same rows.
public enum HistoryWorkload {
    /// Transactions in the history fixture.
    public static let transactions = 1_000
    /// Changes (inserted readings) per transaction.
    public static let changesPerTransaction = 10

    /// The store options with history tracking on.
    public static var trackingOptions: [AnyHashable: Any] {
        var options = ItemModel.storeOptions
        options[NSPersistentHistoryTrackingKey] = true as NSNumber
        return options
    }

    /// A file of readings written by 1,000 saves of ten readings each with tracking on: 1,000
    /// transactions of ten insert changes (made through OpenCoreData, not measured).
    public static func fixture() throws -> StoreFixture {
        let fixture = try StoreFixture(
            fileName: "History.sqlite", model: ReadingModel.shared, entity: "Reading", rows: 0,
            columns: [("bucket", ReadingModel.bucket), ("amount", ReadingModel.amount)])
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: ReadingModel.shared)
        try coordinator.addPersistentStore(type: .sqlite, at: fixture.url, options: trackingOptions)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.transactionAuthor = "fixture"
        try context.performAndWait {
            var row = 0
            for _ in 0..<transactions {
                for _ in 0..<changesPerTransaction {
                    let reading = Reading(context: context)
                    reading.bucket = ReadingModel.bucket(row)
                    reading.amount = ReadingModel.amount(row)
                    row += 1
                }
                try context.save()
                context.reset()
            }
        }
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        try RawConnection(url: fixture.url).execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return fixture
    }

    /// What a read of the whole history returns: the number of transactions plus the sum of every
    /// change's number (1…10,000).
    public static var expected: Int64 {
        let changes = Int64(transactions * changesPerTransaction)
        return Int64(transactions) + changes * (changes + 1) / 2
    }
}

/// OpenCoreData, history tracking on: the insert workload's `Item(context:)`, ten properties set, one
/// `save()`, into a store added with `NSPersistentHistoryTrackingKey` (one transaction of 50,000 changes).
public struct OpenCoreDataHistoryInsert: InsertContender {
    public static let name = "OpenCoreData history tracking"
    let insert: OpenCoreDataInsert

    public init(url: URL) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: ItemModel.shared)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: HistoryWorkload.trackingOptions)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        insert = OpenCoreDataInsert(context: context)
    }

    public func run(count: Int) throws {
        try insert.run(count: count)
    }
}

/// OpenCoreData: `fetchHistory(after: .distantPast)` executed by a context, every transaction's
/// author and every change's number, object ID and type read.
public struct OpenCoreDataHistoryFetch: Contender {
    public static let name = "OpenCoreData"
    let context: NSManagedObjectContext

    public init(url: URL) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: ReadingModel.shared)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: HistoryWorkload.trackingOptions)
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
    }

    public func run() throws -> Int64 {
        let context = self.context
        return try context.performAndWait {
            let request = NSPersistentHistoryChangeRequest.fetchHistory(after: Date.distantPast)
            guard let result = try context.execute(request) as? NSPersistentHistoryResult,
                let transactions = result.result as? [NSPersistentHistoryTransaction]
            else {
                throw WorkloadError("the history fetch gave no transactions")
            }
            let entity = ReadingModel.shared.entitiesByName["Reading"]
            var sum: Int64 = 0
            for transaction in transactions {
                guard transaction.author == "fixture" else { throw WorkloadError("a transaction lost its author") }
                sum &+= 1
                for change in transaction.changes ?? [] where change.changeType == .insert {
                    guard change.changedObjectID.entity === entity else { throw WorkloadError("a change lost its entity") }
                    sum &+= change.changeID
                }
            }
            return sum
        }
    }
}

/// Raw SQLite: the same rows read with two prepared statements — the transactions with their interned
/// strings, then the changes in transaction order — each column read.
public final class RawSQLiteHistoryFetch: Contender {
    public static let name = "raw SQLite"
    static let transactions = """
        SELECT t.Z_PK, t.ZTIMESTAMP, a.ZNAME, b.ZNAME, c.ZNAME, p.ZNAME FROM ATRANSACTION AS t
        LEFT JOIN ATRANSACTIONSTRING AS a ON a.Z_PK = t.ZAUTHORTS LEFT JOIN ATRANSACTIONSTRING AS b ON b.Z_PK = t.ZBUNDLEIDTS
        LEFT JOIN ATRANSACTIONSTRING AS c ON c.Z_PK = t.ZCONTEXTNAMETS LEFT JOIN ATRANSACTIONSTRING AS p ON p.Z_PK = t.ZPROCESSIDTS
        ORDER BY t.Z_PK
        """
    static let changes = "SELECT Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS FROM ACHANGE ORDER BY ZTRANSACTIONID, Z_PK"
    let connection: RawConnection

    public init(url: URL) throws {
        connection = try RawConnection(url: url)
    }

    public func run() throws -> Int64 {
        var sum: Int64 = 0
        try connection.execute("BEGIN")
        defer { try? connection.execute("COMMIT") }
        let transactions = try connection.prepare(Self.transactions)
        defer { sqlite3_finalize(transactions) }
        while sqlite3_step(transactions) == SQLITE_ROW {
            _ = sqlite3_column_int64(transactions, 0)
            _ = sqlite3_column_double(transactions, 1)
            guard let author = sqlite3_column_text(transactions, 2), String(cString: author) == "fixture" else {
                throw WorkloadError("a transaction lost its author")
            }
            for column in Int32(3)...5 { if let text = sqlite3_column_text(transactions, column) { _ = String(cString: text) } }
            sum &+= 1
        }
        let changes = try connection.prepare(Self.changes)
        defer { sqlite3_finalize(changes) }
        while sqlite3_step(changes) == SQLITE_ROW {
            let number = sqlite3_column_int64(changes, 0)
            let type = sqlite3_column_int64(changes, 1)
            guard sqlite3_column_int64(changes, 2) != 0 else { throw WorkloadError("a change lost its entity") }
            _ = sqlite3_column_int64(changes, 3)
            _ = sqlite3_column_int64(changes, 4)
            _ = sqlite3_column_blob(changes, 5)
            if type == 0 { sum &+= number }
        }
        return sum
    }
}
