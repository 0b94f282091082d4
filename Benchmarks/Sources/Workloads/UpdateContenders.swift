import Foundation
import GRDB
import GRDBSQLite
import OpenCoreData

// The update workload (issue 47): every reading of a 100k file fetched, the amount of every tenth (an
// amount divisible by ten) increased by one, and the change saved in one transaction. Each contender
// returns the number of rows it changed; the file's sums are checked afterwards (`Z_OPT` included).

/// The update workload's figures.
public enum UpdateShape {
    /// Readings in the fixture (`OCD_BENCH_ROWS` overrides).
    public static let rows = workloadRows(100_000)
    /// The rows changed: one in ten.
    public static var changed: Int { (rows + 9) / 10 }
    /// Whether a reading of `amount` is one the workload changes.
    @inline(__always) static func changes(_ amount: Int64) -> Bool { amount % 10 == 0 }
}

/// OpenCoreData, `@Managed`: `NSFetchRequest<Reading>`, `amount += 1` on every tenth, one `save()`.
public struct OpenCoreDataUpdate: Contender {
    public static let name = "OpenCoreData"
    let context: NSManagedObjectContext

    public init(url: URL) throws { context = try ReadingModel.context(at: url) }

    public func run() throws -> Int64 {
        try context.performAndWait {
            var changed: Int64 = 0
            for reading in try context.fetch(NSFetchRequest<Reading>(entityName: "Reading")) where UpdateShape.changes(reading.amount) {
                reading.amount += 1
                changed += 1
            }
            try context.save()
            return changed
        }
    }
}

/// OpenCoreData, key-value coding on plain `NSManagedObject`s: `value(forKey:) as? Int64`, then
/// `setValue(_:forKey:)` with the new `Int64` on every tenth, one `save()`.
public struct OpenCoreDataKVCUpdate: Contender {
    public static let name = "OpenCoreData KVC"
    let context: NSManagedObjectContext

    public init(url: URL) throws {
        let model = ReadingModel.make()
        for entity in model.entities { entity.managedObjectClassName = "NSManagedObject" }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: ItemModel.storeOptions)
        context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
    }

    public func run() throws -> Int64 {
        try context.performAndWait {
            var changed: Int64 = 0
            for reading in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Reading")) {
                guard let amount = reading.value(forKey: "amount") as? Int64 else { throw WorkloadError("a reading without its amount") }
                guard UpdateShape.changes(amount) else { continue }
                reading.setValue(amount + 1, forKey: "amount")
                changed += 1
            }
            try context.save()
            return changed
        }
    }
}

/// Raw SQLite: every row read (`Z_PK`, `ZAMOUNT`), then one transaction of prepared
/// `UPDATE … SET ZAMOUNT = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ?` for the changed rows.
public final class RawSQLiteUpdate: Contender {
    public static let name = "raw SQLite"
    static let select = "SELECT Z_PK, ZAMOUNT FROM ZREADING"
    static let update = "UPDATE ZREADING SET ZAMOUNT = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ?"
    let connection: RawConnection

    public init(url: URL) throws { connection = try RawConnection(url: url) }

    public func run() throws -> Int64 {
        let select = try connection.prepare(Self.select)
        defer { sqlite3_finalize(select) }
        var rows: [(key: Int64, amount: Int64)] = []
        while sqlite3_step(select) == SQLITE_ROW {
            rows.append((sqlite3_column_int64(select, 0), sqlite3_column_int64(select, 1)))
        }
        try connection.execute("BEGIN IMMEDIATE")
        let update = try connection.prepare(Self.update)
        defer { sqlite3_finalize(update) }
        var changed: Int64 = 0
        for row in rows where UpdateShape.changes(row.amount) {
            sqlite3_bind_int64(update, 1, row.amount + 1)
            sqlite3_bind_int64(update, 2, row.key)
            guard sqlite3_step(update) == SQLITE_DONE else { throw connection.error(Self.update) }
            sqlite3_reset(update)
            changed += 1
        }
        try connection.execute("COMMIT")
        return changed
    }
}

/// A reading row as a GRDB record, decoded and encoded by hand; `Z_OPT` is kept as Core Data keeps it.
struct ReadingRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "ZREADING"
    var key: Int64
    var entity: Int64
    var opt: Int64
    var bucket: Int64
    var amount: Int64

    init(row: Row) {
        key = row[0]
        entity = row[1]
        opt = row[2]
        bucket = row[3]
        amount = row[4]
    }

    func encode(to container: inout PersistenceContainer) {
        container["Z_PK"] = key
        container["Z_ENT"] = entity
        container["Z_OPT"] = opt
        container["ZBUCKET"] = bucket
        container["ZAMOUNT"] = amount
    }
}

/// The same row through `Codable`.
struct CodableReading: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "ZREADING"
    var key: Int64
    var entity: Int64
    var opt: Int64
    var bucket: Int64
    var amount: Int64

    enum CodingKeys: String, CodingKey {
        case key = "Z_PK", entity = "Z_ENT", opt = "Z_OPT", bucket = "ZBUCKET", amount = "ZAMOUNT"
    }
}

/// The SELECT of the GRDB update contenders.
let readingRecordSelect = "SELECT Z_PK, Z_ENT, Z_OPT, ZBUCKET, ZAMOUNT FROM ZREADING"

/// GRDB `FetchableRecord` + `PersistableRecord`: every reading fetched as a record, every tenth changed
/// and written with `update(_:)`, in one write transaction.
public final class GRDBRecordUpdate: Contender {
    public static let name = "GRDB FetchableRecord"
    let queue: DatabaseQueue
    public init(url: URL) throws { queue = try GRDBConnection.open(url) }
    public func run() throws -> Int64 {
        try queue.write { db in
            var changed: Int64 = 0
            for var reading in try ReadingRecord.fetchAll(db, sql: readingRecordSelect) where UpdateShape.changes(reading.amount) {
                reading.amount += 1
                reading.opt += 1
                try reading.update(db)
                changed += 1
            }
            return changed
        }
    }
}

/// GRDB `Codable` records: the same through `Codable` records.
public final class GRDBCodableUpdate: Contender {
    public static let name = "GRDB Codable record"
    let queue: DatabaseQueue
    public init(url: URL) throws { queue = try GRDBConnection.open(url) }
    public func run() throws -> Int64 {
        try queue.write { db in
            var changed: Int64 = 0
            for var reading in try CodableReading.fetchAll(db, sql: readingRecordSelect) where UpdateShape.changes(reading.amount) {
                reading.amount += 1
                reading.opt += 1
                try reading.update(db)
                changed += 1
            }
            return changed
        }
    }
}
