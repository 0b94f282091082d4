import Foundation
import GRDBSQLite
import OpenCoreData

/// The fetch workload's file: a store OpenCoreData creates for ``ItemModel`` (Core Data's layout),
/// filled with `Shape.fetchCount` rows through the C API (fast, and the same bytes Core Data would
/// write: `Z_PK`, `Z_ENT`, `Z_OPT` 1, `ZI0`…`ZI9`, `Z_PRIMARYKEY.Z_MAX`).
public final class FetchFixture {
    public let directory: ScratchDirectory
    public let url: URL

    public init(rows: Int = Shape.fetchCount) throws {
        directory = try ScratchDirectory("ocd-bench-fetch")
        url = directory.file("Fetch.sqlite")
        let coordinator = try ItemModel.coordinator(at: url)
        for store in coordinator.persistentStores { try coordinator.remove(store) }

        let connection = try RawConnection(url: url)
        let lookup = try connection.prepare("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'")
        guard sqlite3_step(lookup) == SQLITE_ROW else {
            sqlite3_finalize(lookup)
            throw WorkloadError("no Item entity in \(url.path)")
        }
        let entity = sqlite3_column_int64(lookup, 0)
        sqlite3_finalize(lookup)

        let columns = (0..<Shape.columnCount).map { "ZI\($0)" }.joined(separator: ", ")
        let sql =
            "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, \(columns)) VALUES (?, ?, 1, "
            + Array(repeating: "?", count: Shape.columnCount).joined(separator: ", ") + ")"
        try connection.execute("BEGIN TRANSACTION")
        let insert = try connection.prepare(sql)
        for row in 0..<rows {
            sqlite3_bind_int64(insert, 1, Int64(row + 1))
            sqlite3_bind_int64(insert, 2, entity)
            for column in 0..<Shape.columnCount {
                sqlite3_bind_int64(insert, Int32(column + 3), Shape.value(row: row, column: column))
            }
            guard sqlite3_step(insert) == SQLITE_DONE else {
                sqlite3_finalize(insert)
                throw connection.error(sql)
            }
            sqlite3_reset(insert)
        }
        sqlite3_finalize(insert)
        try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(rows) WHERE Z_ENT = \(entity)")
        try connection.execute("COMMIT")
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
