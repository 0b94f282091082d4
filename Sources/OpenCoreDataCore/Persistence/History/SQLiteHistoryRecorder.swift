import GRDB

/// What a SQLite store with history tracking knows of its history tables while it is open.
// @unchecked Sendable: set once when the store opens, immutable afterwards.
final class SQLiteHistoryTracking: @unchecked Sendable {
    /// How the store's entities' properties are numbered.
    let layout: SQLiteHistoryLayout
    /// The tombstone columns the file's `ACHANGE` has (at least as many as the layout needs, unless the
    /// store is read-only).
    let tombstoneColumns: [String]

    init(layout: SQLiteHistoryLayout, tombstoneColumns: [String]) {
        self.layout = layout
        self.tombstoneColumns = tombstoneColumns
    }
}

/// One row of `ACHANGE` to write.
struct HistoryChangeRow {
    var type: NSPersistentHistoryChangeType
    /// The changed row's entity number (`ZENTITY`).
    var entity: Int64
    /// The changed row's primary key (`ZENTITYPK`).
    var key: Int64
    /// The `ZCOLUMNS` bitmap of an update.
    var columns: Data? = nil
    /// The tombstone values of a delete, in tombstone column order.
    var tombstone: [DatabaseValue] = []
}

/// Writes transactions into the history tables inside a write transaction of the store: the caller's
/// `BEGIN IMMEDIATE`, so that the history of a write commits with the write or not at all.
struct SQLiteHistoryRecorder {
    let store: SQLiteStore
    let tracking: SQLiteHistoryTracking
    let db: Database

    /// The rows a statement inserts at most: SQLite binds up to 999 parameters in the oldest builds.
    private static let parameterLimit = 999

    /// Writes one transaction with `changes`, authored by `author`; nothing when there are no changes or
    /// the author records nothing.
    ///
    /// - Returns: the transaction's number, `nil` when nothing was written.
    @discardableResult
    func record(_ changes: [HistoryChangeRow], author: HistoryAuthor?) throws -> Int64? {
        guard !changes.isEmpty, author?.records ?? true else { return nil }
        let number = try SQLiteStore.allocatePrimaryKeys(in: db, rootNumber: Int(SQLiteHistorySchema.transactionEntity), count: 1)[0]
        let strings = try [author?.author, HistoryAuthor.bundleID, author?.contextName, HistoryAuthor.processID].map(intern)
        try db.cachedStatement(
            sql: """
                INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP)
                VALUES (?, \(SQLiteHistorySchema.transactionEntity), NULL, ?, ?, ?, ?, ?)
                """
        ).execute(
            arguments: StatementArguments(databaseValues: [
                number.databaseValue, strings[0]?.databaseValue ?? .null, strings[1]?.databaseValue ?? .null,
                strings[2]?.databaseValue ?? .null, strings[3]?.databaseValue ?? .null,
                Date().timeIntervalSinceReferenceDate.databaseValue,
            ]))
        let keys = try SQLiteStore.allocatePrimaryKeys(in: db, rootNumber: Int(SQLiteHistorySchema.changeEntity), count: changes.count)
        var widest = 0
        for change in changes where change.tombstone.count > widest { widest = change.tombstone.count }
        let tombstones = min(widest, tracking.tombstoneColumns.count)
        let columns =
            ["Z_PK", "Z_ENT", "Z_OPT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS"]
            + tracking.tombstoneColumns.prefix(tombstones)
        let bound = 6 + tombstones
        let rowMarks = "(?, \(SQLiteHistorySchema.changeEntity), NULL, " + Array(repeating: "?", count: bound - 1).joined(separator: ", ") + ")"
        let perStatement = max(1, min(256, Self.parameterLimit / bound))
        let prefix = "INSERT INTO ACHANGE (\(columns.joined(separator: ", "))) VALUES "
        var start = 0
        var values: [DatabaseValue] = []
        values.reserveCapacity(min(changes.count, perStatement) * bound)
        while start < changes.count {
            // A run of inserts of one entity with consecutive keys (what a save's new rows are) is written
            // by one statement that counts the keys in SQLite, with no values bound per row.
            let run = Self.insertRunLength(in: changes, keys: keys, from: start)
            if run >= Self.shortestRun {
                try writeInsertRun(changes[start], key: keys[start], count: run, transaction: number)
                start += run
                continue
            }
            var end = min(start + perStatement, changes.count)
            // Stop before the next long run, which the statement above writes faster.
            var probe = start + 1
            while probe < end {
                let next = Self.insertRunLength(in: changes, keys: keys, from: probe)
                if next >= Self.shortestRun {
                    end = probe
                    break
                }
                probe += max(next, 1)
            }
            values.removeAll(keepingCapacity: true)
            for index in start..<end {
                let change = changes[index]
                values.append(keys[index].databaseValue)
                values.append(Int64(change.type.rawValue).databaseValue)
                values.append(change.entity.databaseValue)
                values.append(change.key.databaseValue)
                values.append(number.databaseValue)
                values.append(change.columns?.databaseValue ?? .null)
                for column in 0..<tombstones {
                    values.append(column < change.tombstone.count ? change.tombstone[column] : .null)
                }
            }
            let sql = prefix + Array(repeating: rowMarks, count: end - start).joined(separator: ", ")
            try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(databaseValues: values))
            start = end
        }
        return number
    }

    /// The shortest run of inserts written by counting keys rather than binding rows.
    private static let shortestRun = 32

    /// The length of the run of changes from `start` that are inserts of one entity, with change keys
    /// and primary keys both consecutive, no `ZCOLUMNS` and no tombstone.
    private static func insertRunLength(in changes: [HistoryChangeRow], keys: [Int64], from start: Int) -> Int {
        let first = changes[start]
        guard first.type == .insert, first.columns == nil, first.tombstone.isEmpty else { return 0 }
        var end = start + 1
        while end < changes.count {
            let change = changes[end]
            guard change.type == .insert, change.entity == first.entity, change.columns == nil, change.tombstone.isEmpty,
                change.key == first.key + Int64(end - start), keys[end] == keys[start] + Int64(end - start)
            else { break }
            end += 1
        }
        return end - start
    }

    /// Writes `count` insert changes of `first`'s entity, the `n`th of change key `key + n` naming the row
    /// of primary key `first.key + n`, in one statement.
    ///
    /// The rows were inserted by this write with keys it allocated, so the statement reads them back from
    /// the entity's table by key range, in key order (a range scan of the table costs less than
    /// generating the keys with a recursive query, whose queue is a temporary table of its own). When the
    /// run's change keys follow the table's last one, as they do unless history was deleted from the end,
    /// SQLite numbers the rows itself and appends them without searching the table for each. Should the
    /// table not give exactly the run's rows, the changes written are taken back and the keys generated.
    private func writeInsertRun(_ first: HistoryChangeRow, key: Int64, count: Int, transaction: Int64) throws {
        let last = key + Int64(count - 1)
        if let table = tracking.layout.entities[first.entity]?.table {
            let appends = (try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(Z_PK) FROM ACHANGE")) ?? 0) == key - 1
            // SQLite appends without a search only when the statement itself says NULL.
            try db.cachedStatement(
                sql: """
                    INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS)
                    SELECT \(appends ? "NULL" : "Z_PK + ?2"), \(SQLiteHistorySchema.changeEntity), NULL,
                        \(NSPersistentHistoryChangeType.insert.rawValue), ?3, Z_PK, ?4, NULL
                    FROM \(table) WHERE Z_PK BETWEEN ?5 AND ?6 AND Z_ENT = ?3 ORDER BY Z_PK
                    """
            ).execute(arguments: [nil, key - first.key, first.entity, transaction, first.key, last - key + first.key])
            if db.changesCount == count && (!appends || db.lastInsertedRowID == last) { return }
            try db.cachedStatement(sql: "DELETE FROM ACHANGE WHERE Z_PK BETWEEN ? AND ?").execute(arguments: [key, max(last, db.lastInsertedRowID)])
        }
        try db.cachedStatement(
            sql: """
                WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
                INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS)
                SELECT ? + i, \(SQLiteHistorySchema.changeEntity), NULL, \(NSPersistentHistoryChangeType.insert.rawValue), ?, ? + i, ?, NULL FROM n
                """
        ).execute(arguments: [count, key, first.entity, first.key, transaction])
    }

    /// The `ATRANSACTIONSTRING` key of a string, adding the string when it is new; `nil` for `nil`.
    ///
    /// Looked up every time rather than cached: another process may add strings, and a string added by
    /// a write that then rolled back would be a key of no row.
    func intern(_ string: String?) throws -> Int64? {
        guard let string else { return nil }
        let found =
            try DatabaseValue.fetchOne(
                db.cachedStatement(sql: "SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?"),
                arguments: [string]) ?? .null
        if let key = try SQLiteDamagedValue.integer(found, column: "ATRANSACTIONSTRING.Z_PK") { return key }
        let key = try SQLiteStore.allocatePrimaryKeys(in: db, rootNumber: Int(SQLiteHistorySchema.stringEntity), count: 1)[0]
        try db.cachedStatement(
            sql: "INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, \(SQLiteHistorySchema.stringEntity), NULL, ?)"
        )
        .execute(arguments: [key, string])
        return key
    }

    /// The tombstones of rows about to be deleted, read from their tables: by entity number, by primary
    /// key, the preserved values in tombstone column order. Entities that preserve nothing are left out.
    func tombstones(of rows: some Sequence<NSManagedObjectID>) throws -> [Int64: [Int64: [DatabaseValue]]] {
        var keysByEntity: [Int64: (table: String, columns: [String], keys: [Int64])] = [:]
        for id in rows {
            guard let key = id.primaryKey else { continue }
            let layout = try store.layout(of: id.entity)
            let number = Int64(layout.number)
            if keysByEntity[number] == nil {
                let columns = (tracking.layout.entities[number]?.tombstones ?? []).prefix(tracking.tombstoneColumns.count).map(\.column)
                keysByEntity[number] = (layout.table, columns, [])
            }
            guard let entry = keysByEntity[number], !entry.columns.isEmpty else { continue }
            keysByEntity[number]?.keys.append(key)
        }
        var result: [Int64: [Int64: [DatabaseValue]]] = [:]
        for (number, entry) in keysByEntity where !entry.columns.isEmpty && !entry.keys.isEmpty {
            var values: [Int64: [DatabaseValue]] = [:]
            for chunk in entry.keys.chunked(SQLiteStore.batchChunkSize) {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                let sql = "SELECT Z_PK, \(entry.columns.joined(separator: ", ")) FROM \(entry.table) WHERE Z_PK IN (\(marks))"
                for row in try Row.fetchAll(db.makeStatement(sql: sql), arguments: StatementArguments(databaseValues: chunk.map(\.databaseValue))) {
                    let key = try row.requiredStoredInteger(atIndex: 0)
                    values[key] = (1...entry.columns.count).map { row[$0] as DatabaseValue }
                }
            }
            result[number] = values
        }
        return result
    }

    /// The change rows of objects by their IDs, all of one kind, with the `ZCOLUMNS` bitmap of `names`
    /// for updates and the tombstones found for deletes.
    func rows(
        _ type: NSPersistentHistoryChangeType, _ ids: some Sequence<NSManagedObjectID>,
        names: (NSManagedObjectID) -> [String]? = { _ in nil },
        tombstones: [Int64: [Int64: [DatabaseValue]]] = [:]
    ) throws -> [HistoryChangeRow] {
        var rows: [HistoryChangeRow] = []
        var memo = EntityRunMemo<Int64>()
        for id in ids {
            guard let key = id.primaryKey else { continue }
            let number = try memo.value(for: id.entity) { Int64(try store.layout(of: $0).number) }
            var row = HistoryChangeRow(type: type, entity: number, key: key)
            if type == .update, let names = names(id) { row.columns = tracking.layout.bitmap(entity: number, names: names) }
            if type == .delete { row.tombstone = tombstones[number]?[key] ?? [] }
            rows.append(row)
        }
        return rows
    }
}
