import GRDB

/// What a save knows of the primary keys of one table it inserts rows into: whether SQLite assigns
/// `Z_PK` itself, and the largest key in the table.
///
/// A table whose `Z_PK` is its rowid (`Z_PK INTEGER PRIMARY KEY`, as Core Data declares it) gives a row
/// inserted without a key one more than its largest rowid (SQLite documents this for tables without
/// `AUTOINCREMENT`). When the keys a save allocated for a run of new rows follow the table's largest key
/// one by one, inserting the rows without their keys gives them exactly those keys, and spares SQLite
/// the search for each key in the table's B-tree.
struct SQLiteTableKeys {
    /// Whether `Z_PK` is the table's rowid, so that SQLite assigns it to a row inserted without it.
    let keysAreRowIDs: Bool
    /// The largest primary key in the table, kept up to date by the save as it inserts.
    var maximum: Int64
    /// Whether a row inserted without its key was read back with the key expected (done once a table).
    var checkedAssignedKey = false

    /// Reads a table's definition and largest key.
    init(table: String, db: Database) throws {
        keysAreRowIDs = try Self.keysAreRowIDs(of: table, db: db)
        maximum = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM \(table)") ?? 0
    }

    /// Whether `Z_PK` is an alias of the table's rowid: the table's only primary-key column, declared
    /// `INTEGER` and not descending, in a table with rowids.
    private static func keysAreRowIDs(of table: String, db: Database) throws -> Bool {
        let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))")
        let keyColumns = columns.filter { ($0["pk"] as Int? ?? 0) > 0 }
        guard keyColumns.count == 1, let key = keyColumns.first,
            (key["name"] as String?)?.uppercased() == "Z_PK",
            (key["type"] as String?)?.uppercased() == "INTEGER"
        else { return false }
        let definition =
            try String.fetchOne(
                db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
                arguments: [table]) ?? ""
        let compact = definition.uppercased().filter { !$0.isWhitespace }
        return !compact.contains("WITHOUTROWID") && !compact.contains("PRIMARYKEYDESC")
    }

    /// Whether the keys of `rows` follow the table's largest key one by one.
    func keysFollow(_ rows: UnsafeBufferPointer<(position: Int, key: Int64)>.SubSequence) -> Bool {
        var expected = maximum
        for row in rows {
            expected += 1
            if row.key != expected { return false }
        }
        return true
    }
}
