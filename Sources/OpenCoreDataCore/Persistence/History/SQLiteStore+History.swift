import GRDB
import Logging

/// Persistent history of a SQLite store: turning it on when the store opens, and reading and deleting
/// it for the coordinator's history requests.
extension SQLiteStore {
    /// The log of what history tracking decides on its own (a store forced read-only).
    static let historyLog = Logger(label: "OpenCoreData.PersistentHistory")

    /// Sets up history when the store opens, once the connection is made:
    /// - with ``NSPersistentHistoryTrackingKey``, the history tables are created when missing (and
    ///   tombstone columns added when the model preserves more attributes than the file has room for);
    /// - without it, a store whose history holds transactions — it was written with tracking on — opens
    ///   read-only, as Apple's Core Data opens it ("Forcing into Read Only mode"): writes it could not
    ///   record would leave the history of the other programs that track it wrong. Deleting the whole
    ///   history first (`deleteHistory(before: .distantFuture)`) lets it open for writing without tracking.
    func openHistory(schema: SQLiteSchema, model: NSManagedObjectModel) throws {
        guard let database = _database else { return }
        let url = fileURL
        let state = try SQLiteStoreFileAccess.run(url) { try database.read { try SQLiteHistorySchema.state(in: $0) } }
        guard PersistentStoreOptions.bool(options?[NSPersistentHistoryTrackingKey]) == true else {
            if state.hasTransactions && !isReadOnly {
                isReadOnly = true
                Self.historyLog.warning(
                    "Store opened without NSPersistentHistoryTrackingKey but previously had been opened with NSPersistentHistoryTrackingKey - Forcing into Read Only mode store at \(url.path)"
                )
            }
            return
        }
        let layout = SQLiteHistoryLayout(schema: schema, model: model)
        var columns = state.tombstoneColumns
        if !isReadOnly && (!state.hasTables || columns.count < layout.tombstoneCount) {
            columns = try SQLiteStoreFileAccess.run(url) {
                try database.writeWithoutTransaction { db in
                    var created: [String] = []
                    try db.inTransaction(.immediate) {
                        created = try SQLiteHistorySchema.create(tombstones: layout.tombstoneCount, in: db)
                        return .commit
                    }
                    return created
                }
            }
        }
        _history = SQLiteHistoryTracking(layout: layout, tombstoneColumns: columns)
        // Every transaction names the bundle and the process: reading them (Bundle.main looks for the
        // executable's bundle) belongs to opening the store, not to its first save.
        _ = (HistoryAuthor.bundleID, HistoryAuthor.processID)
    }

    /// Starts posting remote change notifications when the store was added with
    /// ``NSPersistentStoreRemoteChangeNotificationPostOptionKey`` (see ``RemoteChangeMonitor``).
    func startRemoteChangeNotifications() throws {
        guard PersistentStoreOptions.bool(options?[NSPersistentStoreRemoteChangeNotificationPostOptionKey]) == true else { return }
        _remoteChangeMonitor?.stop()
        _remoteChangeMonitor = try RemoteChangeMonitor(store: self, coordinator: persistentStoreCoordinator)
    }

    /// The store's history tracking, or the error Apple's Core Data gives a history request on a store
    /// opened without ``NSPersistentHistoryTrackingKey`` (134091).
    func requireHistory() throws -> SQLiteHistoryTracking {
        guard let history = _history else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "No history tracking option detected on store at \(fileURL.path): add it with NSPersistentHistoryTrackingKey to read or delete its history.",
                    NSAffectedStoresErrorKey: [self],
                ])
        }
        return history
    }

    /// Runs a history read on the store's connection, in one read transaction (the transactions and their
    /// changes come from one state of the file); the error of a store without its history tables names
    /// the file.
    func readHistory<T>(_ body: (SQLiteHistoryReader) throws -> T) throws -> T {
        let history = try requireHistory()
        return try read { db in
            guard try db.tableExists(SQLiteHistorySchema.transactionTable), try db.tableExists(SQLiteHistorySchema.changeTable) else {
                throw SQLiteStoreFileAccess.fileError(
                    NSPersistentStoreOperationError, fileURL,
                    "The store file \(fileURL.path) has no persistent history tables (it was opened read-only before it had any).")
            }
            return try body(SQLiteHistoryReader(store: self, tracking: history, db: db))
        }
    }

    /// The number of the store's last transaction (0 before the first), `nil` without history tracking.
    func currentHistoryTransactionNumber() throws -> Int64? {
        guard _history != nil else { return nil }
        return try readHistory { try $0.lastTransactionNumber() }
    }

    /// Deletes the transactions a bound selects, in one write transaction.
    ///
    /// - Returns: how many transactions were deleted.
    func deleteHistory(_ bound: SQLiteHistoryQuery.Bound) throws -> Int {
        let history = try requireHistory()
        guard !isReadOnly else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreSaveError,
                userInfo: [
                    NSLocalizedDescriptionKey: "Cannot delete the persistent history of the read-only store at \(fileURL.path).",
                    NSAffectedStoresErrorKey: [self],
                ])
        }
        return try writeTransaction { db in
            try SQLiteHistoryReader(store: self, tracking: history, db: db).delete(bound)
        }
    }
}
