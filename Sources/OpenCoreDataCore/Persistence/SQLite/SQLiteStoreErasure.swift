import GRDB

/// Destroying a store file that other connections or processes may still have open.
///
/// Deleting the file under them would leave each of them writing into a file without a name: their
/// saves would return without error and be gone when they close it. So the store is first emptied
/// through SQLite, in one transaction every connection sees (their next fetch or save then fails with an
/// error instead of losing anything), and the files are deleted only when SQLite shows that no other
/// connection has the store open: a WAL database whose journal mode can be changed, which needs every
/// other connection closed. A store in a rollback journal mode gives no such sign (an idle connection
/// holds no lock there), so its emptied file stays; opening it again creates a new store in it.
struct SQLiteStoreErasure {
    /// The store file.
    let url: URL

    /// Empties the store and deletes its files when no other connection has it open.
    ///
    /// - Returns: whether the files were deleted.
    /// - Throws: an `NSError` naming the file when SQLite fails (the store is unchanged then), or
    ///   ``NSFileWriteNoPermissionError`` when a file cannot be deleted.
    @discardableResult
    func run() throws -> Bool {
        let queue = try SQLiteStoreFileAccess.openForWriting(url, label: "OpenCoreData.SQLiteStore(destroy)")
        let alone: Bool
        do {
            alone = try SQLiteStoreFileAccess.run(url) {
                try queue.writeWithoutTransaction { db in
                    let wal = try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "wal"
                    try db.inTransaction(.immediate) {
                        try SQLiteStoreRewrite.dropEverything(in: db)
                        return .commit
                    }
                    guard wal else { return false }
                    try db.execute(sql: "PRAGMA busy_timeout = 0")
                    let mode = try? String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
                    return mode?.lowercased() == "delete"
                }
            }
        } catch {
            try? queue.close()
            throw error
        }
        try? queue.close()
        guard alone else { return false }
        for suffix in ["", "-wal", "-shm", "-journal"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            do {
                try FileManager.default.removeItem(atPath: url.path + suffix)
            } catch {
                throw SQLiteStoreFileAccess.fileError(
                    NSFileWriteNoPermissionError, url,
                    "Cannot delete the store file \(url.path)\(suffix): \(error.localizedDescription)")
            }
        }
        return true
    }
}
