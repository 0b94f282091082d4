import GRDB

/// The SQLite store (``NSSQLiteStoreType``): rows kept in a SQLite file laid out as Core Data lays it out.
// @unchecked Sendable: the connection pool and schema are set once by `_open` under the coordinator's
// write lock before the store is published; GRDB's DatabasePool serializes writes and runs reads in
// parallel; the prepared-statement caches live inside GRDB's connections.
final class SQLiteStore: NSPersistentStore, @unchecked Sendable {
    /// The store's type, ``NSSQLiteStoreType``.
    override var type: String { NSSQLiteStoreType }

    /// Writes metadata into the store file at `url` (keeping its UUID unless the metadata names one).
    static func writeMetadata(_ metadata: [String: Any], toStoreAt url: URL) throws {
        throw NSError(domain: NSCocoaErrorDomain, code: NSPersistentStoreOperationError, userInfo: [
            NSLocalizedDescriptionKey: "Writing metadata to \(url.path) is not available yet.",
        ])
    }
}
