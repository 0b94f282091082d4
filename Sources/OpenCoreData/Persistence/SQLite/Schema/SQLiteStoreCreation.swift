import GRDB

/// Creates new, empty SQLite store files laid out for a model.
enum SQLiteStoreCreation {
    /// Creates an empty store for the named configuration of a model at `url`: incremental
    /// auto-vacuum and WAL journaling, then in one transaction every table and index of the layout,
    /// one `Z_PRIMARYKEY` row per entity (`Z_MAX` 0), the `Z_METADATA` row and an empty `Z_MODELCACHE`.
    ///
    /// - Returns: the metadata written.
    /// - Throws: ``NSPersistentStoreOperationError`` naming the file when something already exists at
    ///   `url`; the layout's error when the model cannot be laid out; an `NSError` naming the file when
    ///   SQLite fails (nothing is left behind then).
    @discardableResult
    static func createStore(at url: URL, model: NSManagedObjectModel, configurationName: String? = nil,
                            metadata userMetadata: [String: Any] = [:], uuid: String? = nil,
                            sqlDebugLog: SQLDebugLog? = nil) throws -> SQLiteStoreMetadata {
        let schema = try SQLiteSchema(model: model, configurationName: configurationName)
        let metadata = SQLiteStoreMetadata(newStoreFor: model, configurationName: configurationName,
                                           uuid: uuid, userMetadata: userMetadata)
        _ = try metadata.encodedPlist()
        if FileManager.default.fileExists(atPath: url.path) {
            throw SQLiteStoreFileAccess.fileError(NSPersistentStoreOperationError, url,
                "Cannot create a store at \(url.path): a file already exists there.")
        }
        do {
            try SQLiteStoreFileAccess.run(url) {
                var configuration = Configuration()
                configuration.label = "OpenCoreData.SQLiteStore(create)"
                configuration.prepareDatabase { db in sqlDebugLog?.trace(db) }
                let queue = try DatabaseQueue(path: url.path, configuration: configuration)
                try queue.writeWithoutTransaction { db in
                    try db.execute(sql: "PRAGMA auto_vacuum = \(SQLiteStoreMetadataKeys.incrementalAutoVacuum)")
                    try db.execute(sql: "PRAGMA journal_mode = WAL")
                    try db.inTransaction(.immediate) {
                        for statement in schema.createStatements {
                            try db.execute(sql: statement)
                        }
                        for row in schema.primaryKeyRows {
                            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                                           arguments: [row.number, row.name, row.superNumber])
                        }
                        try metadata.write(to: db)
                        return .commit
                    }
                }
                try queue.close()
            }
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] {
                try? FileManager.default.removeItem(atPath: url.path + suffix)
            }
            throw error
        }
        return metadata
    }
}
