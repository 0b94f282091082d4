import GRDB

/// The persistent history tables of a SQLite store, with the exact statements of Apple's Core Data
/// (checked on an Apple-written store, framework 1344: `Docs/StoreFormat.md`, "Persistent history").
///
/// - `ATRANSACTION`: one row per write, numbered by `Z_PRIMARYKEY` row 16002 (`TRANSACTION`);
///   `ZTIMESTAMP` in seconds since 2001; author, bundle identifier, context name and process name as keys
///   of `ATRANSACTIONSTRING` in the `Z…TS` columns (the plain `VARCHAR` twins and `ZQUERYGEN` stay NULL).
/// - `ACHANGE`: one row per row written, numbered by row 16001 (`CHANGE`): `ZCHANGETYPE` 0 insert, 1
///   update, 2 delete; `ZENTITY` the row's `Z_ENT`, `ZENTITYPK` its `Z_PK`; `ZTRANSACTIONID` the
///   transaction's `Z_PK`; `ZCOLUMNS` the updated properties (see ``SQLiteHistoryLayout``); and
///   `ZTOMBSTONE0…n`, as many as the entity with most preserved attributes needs.
/// - `ATRANSACTIONSTRING`: each string once, numbered by row 16003 (`TRANSACTIONSTRING`).
///
/// History rows have `Z_OPT` NULL, as Apple's have.
enum SQLiteHistorySchema {
    static let changeTable = "ACHANGE"
    static let transactionTable = "ATRANSACTION"
    static let stringTable = "ATRANSACTIONSTRING"

    /// The entity numbers (`Z_ENT` and the `Z_PRIMARYKEY` rows) of the three tables.
    static let changeEntity: Int64 = 16001
    static let transactionEntity: Int64 = 16002
    static let stringEntity: Int64 = 16003

    /// `Z_PRIMARYKEY`'s rows for the history tables: number, name.
    static let primaryKeyRows: [(Int64, String)] = [
        (changeEntity, "CHANGE"), (transactionEntity, "TRANSACTION"), (stringEntity, "TRANSACTIONSTRING"),
    ]

    /// The name of the `index`th tombstone column.
    static func tombstoneColumn(_ index: Int) -> String {
        "ZTOMBSTONE\(index)"
    }

    /// `CREATE TABLE ACHANGE …` with `tombstones` tombstone columns.
    ///
    /// The tombstone columns' declared type is not known from Apple's files (those seen here have none);
    /// `BLOB` is the plausible one, whose column affinity keeps every value as the attribute's own column
    /// stores it. [plausible encoding]
    static func createChange(tombstones: Int) -> String {
        let columns =
            [
                "Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER", "ZCHANGETYPE INTEGER", "ZENTITY INTEGER",
                "ZENTITYPK INTEGER", "ZTRANSACTIONID INTEGER", "ZCOLUMNS BLOB",
            ]
            + (0..<tombstones).map { "\(tombstoneColumn($0)) BLOB" }
        return "CREATE TABLE ACHANGE ( \(columns.joined(separator: ", ")) )"
    }

    /// `CREATE TABLE ATRANSACTION …`, as Apple writes it.
    static let createTransaction =
        "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, "
        + "ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, "
        + "ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )"

    /// `CREATE TABLE ATRANSACTIONSTRING …`, as Apple writes it.
    static let createString = "CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )"

    /// The history tables' indexes, as Apple writes them.
    static let createIndexes = [
        "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
        "CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS)",
        "CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS)",
        "CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS)",
        "CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS)",
        "CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC)",
        "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC)",
        "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC)",
    ]

    /// What a file holds of the history tables.
    struct State {
        /// Whether the three tables are there.
        var hasTables: Bool
        /// Whether `ATRANSACTION` holds a row: the store has been written with tracking on, and its history
        /// not deleted since.
        var hasTransactions: Bool
        /// The tombstone columns `ACHANGE` has, in index order (`ZTOMBSTONE0`, `ZTOMBSTONE1`, … as far as
        /// they go without a gap).
        var tombstoneColumns: [String]
    }

    /// Reads what the database holds of the history tables (in the attached database named `schema`,
    /// the main one by default).
    static func state(in db: Database, schema: String = "main") throws -> State {
        let names = try Set(
            String.fetchAll(
                db, sql: "SELECT name FROM \(schema).sqlite_master WHERE type = 'table' AND name IN (?, ?, ?)",
                arguments: [changeTable, transactionTable, stringTable]))
        guard names.count == 3 else {
            return State(
                hasTables: false, hasTransactions: try names.contains(transactionTable) && hasRows("\(schema).\(transactionTable)", db),
                tombstoneColumns: [])
        }
        let columns = Set(try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?, ?)", arguments: [changeTable, schema]))
        var tombstones: [String] = []
        while columns.contains(tombstoneColumn(tombstones.count)) { tombstones.append(tombstoneColumn(tombstones.count)) }
        return State(hasTables: true, hasTransactions: try hasRows("\(schema).\(transactionTable)", db), tombstoneColumns: tombstones)
    }

    private static func hasRows(_ table: String, _ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(table))") ?? false
    }

    /// Creates whatever is missing of the history tables, their indexes and `Z_PRIMARYKEY` rows, and adds
    /// tombstone columns up to `tombstones`, inside the caller's write transaction. A file that has them
    /// all is left as it is; columns are never removed.
    ///
    /// - Returns: the tombstone columns `ACHANGE` has afterwards.
    @discardableResult
    static func create(tombstones: Int, in db: Database) throws -> [String] {
        let existing = Set(try String.fetchAll(db, sql: "SELECT name FROM main.sqlite_master WHERE type IN ('table', 'index')"))
        if !existing.contains(changeTable) { try db.execute(sql: createChange(tombstones: tombstones)) }
        if !existing.contains(transactionTable) { try db.execute(sql: createTransaction) }
        if !existing.contains(stringTable) { try db.execute(sql: createString) }
        for statement in createIndexes {
            // "CREATE [UNIQUE] INDEX <name> ON …"
            let words = statement.split(separator: " ")
            let name = String(words[words[1] == "UNIQUE" ? 3 : 2])
            if !existing.contains(name) { try db.execute(sql: statement) }
        }
        for (number, name) in primaryKeyRows {
            try db.execute(
                sql: "INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, 0)",
                arguments: [number, name])
        }
        var columns = try state(in: db).tombstoneColumns
        while columns.count < tombstones {
            let column = tombstoneColumn(columns.count)
            try db.execute(sql: "ALTER TABLE ACHANGE ADD COLUMN \(column) BLOB")
            columns.append(column)
        }
        return columns
    }
}
