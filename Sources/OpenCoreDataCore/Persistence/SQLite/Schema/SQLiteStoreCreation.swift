import GRDB

/// Creates new, empty SQLite store files laid out for a model.
enum SQLiteStoreCreation {
    /// What ``createStoreUnlessPresent(at:model:configurationName:metadata:uuid:sqlDebugLog:)`` found and did.
    enum Outcome {
        /// The file was missing or an empty database, and now holds a new store with this metadata.
        case created(SQLiteStoreMetadata)
        /// Another connection (another process, or another coordinator of this one) created a store in the
        /// file first; it was left as it is, to be opened as an existing store.
        case foundStore
    }

    /// Creates an empty store for the named configuration of a model at `url`: incremental
    /// auto-vacuum and WAL journaling, then in one transaction every table and index of the layout,
    /// one `Z_PRIMARYKEY` row per entity (`Z_MAX` 0), the `Z_METADATA` row and the model's archive in
    /// `Z_MODELCACHE`, as Apple's Core Data writes them.
    ///
    /// Several processes may create the same store at once: the file is made (or found) by SQLite, and
    /// the layout is written inside a write transaction that first checks that the database is still
    /// empty, so exactly one of them creates the store and the others find it.
    ///
    /// - Throws: ``NSPersistentStoreOperationError`` naming the file when it is a database with tables
    ///   but no store; the layout's error when the model cannot be laid out; an `NSError` naming the
    ///   file when SQLite fails (a file this call made is removed again then).
    static func createStoreUnlessPresent(
        at url: URL, model: NSManagedObjectModel, configurationName: String? = nil,
        metadata userMetadata: [String: Any] = [:], uuid: String? = nil,
        sqlDebugLog: SQLDebugLog? = nil
    ) throws -> Outcome {
        let schema = try SQLiteSchema(model: model, configurationName: configurationName)
        let metadata = SQLiteStoreMetadata(
            newStoreFor: model, configurationName: configurationName,
            uuid: uuid, userMetadata: userMetadata)
        _ = try metadata.encodedPlist()
        let madeFile = !FileManager.default.fileExists(atPath: url.path)
        var outcome = Outcome.foundStore
        do {
            try SQLiteStoreFileAccess.run(url) {
                var configuration = Configuration()
                configuration.label = "OpenCoreData.SQLiteStore(create)"
                configuration.busyMode = .timeout(SQLiteStoreFileAccess.busyTimeout)
                configuration.prepareDatabase { db in sqlDebugLog?.trace(db) }
                let queue = try DatabaseQueue(path: url.path, configuration: configuration)
                defer { try? queue.close() }
                try queue.writeWithoutTransaction { db in
                    if try !hasObjects(db) {
                        // Both take effect only on an empty database, and neither may run in a transaction.
                        try db.execute(sql: "PRAGMA auto_vacuum = \(SQLiteStoreMetadataKeys.incrementalAutoVacuum)")
                        try db.execute(sql: "PRAGMA journal_mode = WAL")
                    }
                    try db.inTransaction(.immediate) {
                        if try hasObjects(db) {
                            guard try db.tableExists("Z_METADATA") else {
                                throw SQLiteStoreFileAccess.fileError(
                                    NSPersistentStoreOperationError, url,
                                    "Cannot create a store at \(url.path): the file is a SQLite database with tables but not a Core Data store.")
                            }
                            return .rollback
                        }
                        for statement in schema.createStatements {
                            try db.execute(sql: statement)
                        }
                        for row in schema.primaryKeyRows {
                            try db.execute(
                                sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                                arguments: [row.number, row.name, row.superNumber])
                        }
                        try metadata.write(to: db)
                        try SQLiteModelCache.write(model, to: db)
                        outcome = .created(metadata)
                        return .commit
                    }
                }
            }
        } catch {
            if madeFile && isEmptyDatabase(url) {
                for suffix in ["", "-wal", "-shm", "-journal"] {
                    try? FileManager.default.removeItem(atPath: url.path + suffix)
                }
            }
            throw error
        }
        return outcome
    }

    /// Creates a new store at `url` (see ``createStoreUnlessPresent(at:model:configurationName:metadata:uuid:sqlDebugLog:)``).
    ///
    /// - Returns: the metadata written.
    /// - Throws: ``NSPersistentStoreOperationError`` naming the file when a file other than an empty
    ///   database is already there (it is left as it was), and the errors of creating one.
    @discardableResult
    static func createStore(
        at url: URL, model: NSManagedObjectModel, configurationName: String? = nil,
        metadata userMetadata: [String: Any] = [:], uuid: String? = nil,
        sqlDebugLog: SQLDebugLog? = nil
    ) throws -> SQLiteStoreMetadata {
        if FileManager.default.fileExists(atPath: url.path) && !isEmptyDatabase(url) {
            throw SQLiteStoreFileAccess.fileError(
                NSPersistentStoreOperationError, url,
                "Cannot create a store at \(url.path): a file already exists there.")
        }
        let outcome = try createStoreUnlessPresent(
            at: url, model: model, configurationName: configurationName,
            metadata: userMetadata, uuid: uuid, sqlDebugLog: sqlDebugLog)
        guard case .created(let metadata) = outcome else {
            throw SQLiteStoreFileAccess.fileError(
                NSPersistentStoreOperationError, url,
                "Cannot create a store at \(url.path): a store already exists there.")
        }
        return metadata
    }

    /// Whether the database has any table, index, view or trigger.
    private static func hasObjects(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM sqlite_master") ?? false
    }

    /// Whether the file at `url` is a SQLite database without any table (a zero-length file is one).
    static func isEmptyDatabase(_ url: URL) -> Bool {
        guard let queue = try? SQLiteStoreFileAccess.openForReading(url) else { return false }
        defer { try? queue.close() }
        return (try? queue.read { try !hasObjects($0) }) ?? false
    }
}
