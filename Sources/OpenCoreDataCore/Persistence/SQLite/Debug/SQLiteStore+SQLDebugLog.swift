import GRDB

/// The SQL debug log of one SQLite store: chosen when the store opens, written around fetches, counts,
/// faults and saves.
extension SQLiteStore {
    /// The log a store opening now uses: its coordinator's ``NSPersistentStoreCoordinator/sqlDebugLog``,
    /// else the process's (``SQLDebugLog/process``); `nil` when that logs nothing.
    func resolvedSQLDebugLog() -> SQLDebugLog? {
        guard let log = persistentStoreCoordinator?.sqlDebugLog ?? SQLDebugLog.process, log.level > 0 else { return nil }
        return log
    }

    /// Runs a fetch of `sql` inside a read, logging its query plan (level 4) first and then its total
    /// time and row count.
    func loggedFetch<T>(
        _ sql: String, arguments: StatementArguments, in db: Database,
        rowCount: (T) -> Int, _ body: () throws -> T
    ) rethrows -> T {
        guard let log = _sqlDebugLog else { return try body() }
        log.writeQueryPlan(of: sql, arguments: arguments, in: db)
        let start = log.startTiming(.annotation)
        let result = try body()
        if let start {
            let count = rowCount(result)
            log.write(
                .annotation,
                "CoreData: annotation: total fetch execution time: "
                    + "\(SQLDebugLog.seconds(SQLDebugLog.elapsed(since: start))) for \(count) rows.")
        }
        return result
    }

    /// Runs a count request's statement, logging its query plan (level 4) and then its time and count.
    func loggedCount(_ sql: String, arguments: StatementArguments, in db: Database, _ body: () throws -> Int) rethrows -> Int {
        guard let log = _sqlDebugLog else { return try body() }
        log.writeQueryPlan(of: sql, arguments: arguments, in: db)
        let start = log.startTiming(.annotation)
        let count = try body()
        if let start {
            log.write(
                .annotation,
                "CoreData: annotation: total count request execution time: "
                    + "\(SQLDebugLog.seconds(SQLDebugLog.elapsed(since: start))) for count of \(count).")
        }
        return count
    }

    /// Logs that an object's row was read to fulfil its fault.
    func logFaultFulfilled(_ objectID: NSManagedObjectID, found: Bool) {
        guard let log = _sqlDebugLog else { return }
        log.write(
            .annotation,
            "CoreData: annotation: fault fulfilled from database for : \(objectID.uriRepresentation().absoluteString)"
                + (found ? "" : " (no row)"))
    }

    /// Logs that a relationship's destinations were read for one object.
    func logRelationshipFault(_ relationship: NSRelationshipDescription, of objectID: NSManagedObjectID, rows: Int) {
        guard let log = _sqlDebugLog else { return }
        let kind = relationship.isToMany ? "to-many" : "to-one"
        log.write(
            .annotation,
            "CoreData: annotation: \(kind) relationship fault \"\(relationship.name)\" for objectID "
                + "\(objectID.uriRepresentation().absoluteString) fulfilled from database.  Got \(rows) rows")
    }

    /// Runs a save, logging its total time and what it wrote (level 2).
    func loggedSave(_ changes: StoreSaveChanges, _ body: () throws -> StoreSaveResult) rethrows -> StoreSaveResult {
        guard let start = _sqlDebugLog?.startTiming(.timing) else { return try body() }
        let result = try body()
        _sqlDebugLog?.write(
            .timing,
            "CoreData: annotation: save executed in \(SQLDebugLog.seconds(SQLDebugLog.elapsed(since: start))): "
                + "\(changes.inserted.count) inserted, \(changes.updated.count) updated, \(changes.deleted.count) deleted.")
        return result
    }
}
