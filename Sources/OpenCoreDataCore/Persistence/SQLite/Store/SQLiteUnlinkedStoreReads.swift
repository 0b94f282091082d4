import GRDB

/// Reads of an open store whose file was removed or replaced on disk.
///
/// SQLite keeps reading and writing an open database through the connections it has, even after the
/// file's name is removed from its folder (another program deleted or replaced the store, a temporary
/// folder was cleaned up): the connections hold the file itself. A store reading through a pool of
/// connections opens more of them on demand, when reads run at the same time, and opening one needs the
/// file's name: that fails with `SQLITE_CANTOPEN`. The read then runs on the store's writing connection,
/// which stays open — so the store answers as a store with a single connection does, instead of failing
/// only the reads that happened to need a new connection.
enum SQLiteUnlinkedStoreReads {
    /// Runs `body` on one of the pool's reading connections, in a transaction unless it reads one
    /// statement only (`isolated: false`); when a new connection cannot be opened, on the writing
    /// connection.
    static func read<T>(_ database: any DatabaseWriter, isolated: Bool = true, _ body: (Database) throws -> T) throws -> T {
        do {
            return isolated ? try database.read(body) : try database.unsafeRead(body)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN && database is DatabasePool {
            // Reentrant: a read may be asked for while the store writes on this thread.
            return try database.unsafeReentrantWrite { db in try body(db) }
        }
    }
}
