import Foundation
import GRDBSQLite
import OpenCoreData

/// A store file in Core Data's layout, made by OpenCoreData for a model (so tables, `Z_PRIMARYKEY` and
/// `Z_METADATA` are exactly ours), whose rows of one entity are then written through the C API (fast,
/// and the same bytes Core Data would write: `Z_PK`, `Z_ENT`, `Z_OPT` 1, one column per attribute).
public final class StoreFixture {
    /// The directory holding the file (removed with it).
    public let directory: ScratchDirectory
    /// The store file (WAL checkpointed into it, so copying this one file copies the store).
    public let url: URL

    /// Makes the store for `model` at a new file named `fileName` and writes `rows` rows of `entity`;
    /// `columns` gives each attribute's name and its value for a row number.
    public init(
        fileName: String, model: NSManagedObjectModel, entity: String, rows: Int,
        columns: [(attribute: String, value: (Int) -> Int64)]
    ) throws {
        directory = try ScratchDirectory("ocd-bench-fixture")
        url = directory.file(fileName)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: nil)
        for store in coordinator.persistentStores { try coordinator.remove(store) }

        let connection = try RawConnection(url: url)
        let lookup = try connection.prepare("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = '\(entity)'")
        guard sqlite3_step(lookup) == SQLITE_ROW else {
            sqlite3_finalize(lookup)
            throw WorkloadError("no \(entity) entity in \(url.path)")
        }
        let entityNumber = sqlite3_column_int64(lookup, 0)
        sqlite3_finalize(lookup)

        let table = "Z" + entity.uppercased()
        let names = columns.map { "Z" + $0.attribute.uppercased() }.joined(separator: ", ")
        let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let sql = "INSERT INTO \(table) (Z_PK, Z_ENT, Z_OPT, \(names)) VALUES (?, ?, 1, \(marks))"
        try connection.execute("BEGIN TRANSACTION")
        let insert = try connection.prepare(sql)
        for row in 0..<rows {
            sqlite3_bind_int64(insert, 1, Int64(row + 1))
            sqlite3_bind_int64(insert, 2, entityNumber)
            for (index, column) in columns.enumerated() {
                sqlite3_bind_int64(insert, Int32(index + 3), column.value(row))
            }
            guard sqlite3_step(insert) == SQLITE_DONE else {
                sqlite3_finalize(insert)
                throw connection.error(sql)
            }
            sqlite3_reset(insert)
        }
        sqlite3_finalize(insert)
        try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(rows) WHERE Z_ENT = \(entityNumber)")
        try connection.execute("COMMIT")
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Makes the store for `model` at a new file named `fileName` and lets `fill` write its rows through
    /// the C API, in one transaction (`fill` also sets `Z_PRIMARYKEY`'s `Z_MAX`).
    init(fileName: String, model: NSManagedObjectModel, fill: (RawConnection) throws -> Void) throws {
        directory = try ScratchDirectory("ocd-bench-fixture")
        url = directory.file(fileName)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: nil)
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        let connection = try RawConnection(url: url)
        try connection.execute("BEGIN TRANSACTION")
        try fill(connection)
        try connection.execute("COMMIT")
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// A fresh copy of the store file in a new scratch directory, for work that changes the file.
    public func copy() throws -> (directory: ScratchDirectory, url: URL) {
        let scratch = try ScratchDirectory("ocd-bench-copy")
        let copy = scratch.file(url.lastPathComponent)
        try FileManager.default.copyItem(at: url, to: copy)
        return (scratch, copy)
    }
}

extension RawConnection {
    /// The integers of the first row of a query (the checks of the workloads).
    func integers(_ sql: String) throws -> [Int64] {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw error(sql) }
        return (0..<sqlite3_column_count(statement)).map { sqlite3_column_int64(statement, $0) }
    }

    /// Whether `sql` compiles against the file (a column that no longer exists does not).
    func prepareIfPossible(_ sql: String) throws -> Bool {
        guard let statement = try? prepare(sql) else { return false }
        sqlite3_finalize(statement)
        return true
    }
}
