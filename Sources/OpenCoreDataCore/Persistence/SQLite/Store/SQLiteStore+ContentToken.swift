import GRDB

/// Telling whether rows changed since an earlier look, without reading them.
extension SQLiteStore {
    /// A token that changes whenever a row of the given entities' tables is inserted, updated or
    /// deleted: each table's row count, largest primary key and sum of row versions (`Z_OPT`), which
    /// every save and batch request raises.
    func contentToken(forTablesOf entities: [NSEntityDescription]) throws -> String {
        var tables: [String] = []
        for entity in entities {
            let table = try layout(of: entity).table
            if !tables.contains(table) { tables.append(table) }
        }
        return try read { db in
            try tables.map { table in
                let row = try Row.fetchOne(db, sql: "SELECT count(*), max(Z_PK), total(Z_OPT) FROM \(table)")
                let count: Int64 = row?[0] ?? 0
                let largest: Int64 = try row?.storedInteger(atIndex: 1) ?? 0
                let versions: Double = row?[2] ?? 0
                return "\(table):\(count):\(largest):\(Int64(versions))"
            }.joined(separator: ";")
        }
    }
}

extension NSPersistentStore {
    /// The ``SQLiteStore/contentToken(forTablesOf:)`` of a SQLite store, over the tables of those of
    /// `entities` it keeps; `nil` for a store of another type or when the tables cannot be read. A
    /// fetched results controller's section cache (`OpenCoreDataResults`) records it.
    package func sqliteContentToken(forTablesOf entities: [NSEntityDescription]) -> String? {
        guard let sqlite = self as? SQLiteStore else { return nil }
        let stored = entities.filter { sqlite._layoutsByName[$0.name ?? ""] != nil }
        return try? sqlite.contentToken(forTablesOf: stored)
    }
}
