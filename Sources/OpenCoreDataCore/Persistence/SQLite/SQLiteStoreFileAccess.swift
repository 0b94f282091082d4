import GRDB

/// Opens SQLite store files and turns SQLite's failures into Core Data's errors, each naming the file.
///
/// The rule for every file operation on a store: a store file is only ever opened through SQLite
/// connections. Reading metadata, comparing schemas, migrating, replacing and destroying go through a
/// connection (or SQLite's backup API between two connections), never through a copy, a byte read or a
/// rename of a file another connection may hold. ``openForReading(_:)`` says why.
enum SQLiteStoreFileAccess {
    /// Opens an existing store file for reading, through an ordinary SQLite connection that takes
    /// SQLite's locks like every other connection to the file.
    ///
    /// A store may be open at the same time in this process (another coordinator or container) and in
    /// others (a worker, the `sqlite3` tool). POSIX advisory locks belong to a process and a file, and
    /// closing *any* descriptor of the file drops all of them, so nothing here opens the file outside
    /// SQLite: no copy with `FileManager`, no read of its bytes, no `immutable=1` connection beside a
    /// live one. SQLite's own connections share one set of locks per file within a process and keep a
    /// descriptor open while another connection holds a lock (see `Docs/Reliability.md`).
    ///
    /// The connection is read-only unless the file needs recovery that only a writer can make: a hot
    /// rollback journal left by a process that stopped during a transaction, or a WAL index that must
    /// be rebuilt. Then a read-write connection restores the last committed state first, as any SQLite
    /// client opening the file would. A file in a folder this process cannot write, with no journal
    /// to replay, is read through an immutable connection: nobody can be writing it through a journal
    /// this process could see either.
    ///
    /// - Throws: ``NSFileReadNoSuchFileError`` when nothing is at the path,
    ///   ``NSFileReadCorruptFileError`` (with the SQLite result code under ``NSSQLiteErrorDomain``)
    ///   when the file is a directory or not a SQLite database, ``NSFileReadNoPermissionError`` when a
    ///   hot journal needs rolling back and the file or its folder is read-only.
    static func openForReading(_ url: URL) throws -> DatabaseQueue {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw fileError(NSFileReadNoSuchFileError, url, "There is no store file at \(url.path).")
        }
        if isDirectory.boolValue {
            throw fileError(NSFileReadCorruptFileError, url, "The store path \(url.path) is a directory, not a SQLite file.")
        }
        do {
            do {
                return try connect(url, readonly: true)
            } catch let error as DatabaseError where needsWriterToRecover(error) {
                guard FileManager.default.isWritableFile(atPath: url.path),
                    FileManager.default.isWritableFile(atPath: url.deletingLastPathComponent().path)
                else {
                    if !hasJournal(url) && uriFileNamesAreSupported { return try connect(url, readonly: true, immutable: true) }
                    throw fileError(
                        NSFileReadNoPermissionError, url,
                        "The store file \(url.path) was left in the middle of a transaction (its journal must be rolled back), "
                            + "and the file or its folder is read-only.")
                }
                return try connect(url, readonly: false)
            }
        } catch let error as DatabaseError {
            throw sqliteError(error, url)
        }
    }

    /// Opens the existing store file at `url` for writing outside a store (metadata, migration,
    /// replacing, destroying): an ordinary SQLite connection that waits for other connections' locks.
    static func openForWriting(_ url: URL, label: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.label = label
        configuration.busyMode = .timeout(busyTimeout)
        do {
            return try DatabaseQueue(path: url.path, configuration: configuration)
        } catch let error as DatabaseError {
            throw sqliteError(error, url)
        }
    }

    /// How long a connection opened outside a store waits for another connection's lock, in seconds
    /// (the default of ``NSPersistentStoreTimeoutOption``).
    static let busyTimeout: TimeInterval = 240

    /// A connection to `url` that has read its schema, so that a file that is not a database fails here.
    private static func connect(_ url: URL, readonly: Bool, immutable: Bool = false) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = readonly
        configuration.busyMode = .timeout(busyTimeout)
        configuration.label = "OpenCoreData.SQLiteStore(read)"
        let path = immutable ? URL(fileURLWithPath: url.path).absoluteString + "?immutable=1" : url.path
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        do {
            try queue.inDatabase { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
        } catch {
            try? queue.close()
            throw error
        }
        return queue
    }

    /// Whether a read-only connection failed because the file needs a writer first: a hot journal to
    /// roll back, or a WAL index (`-shm`) to create or rebuild.
    private static func needsWriterToRecover(_ error: DatabaseError) -> Bool {
        // SQLITE_READONLY_ROLLBACK, _RECOVERY, _CANTINIT, _CANTLOCK and _DIRECTORY; SQLITE_CANTOPEN when a
        // WAL file must be created.
        error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN
    }

    /// Whether the file has a rollback journal or a write-ahead log with content beside it.
    private static func hasJournal(_ url: URL) -> Bool {
        ["-journal", "-wal"].contains { suffix in
            ((try? FileManager.default.attributesOfItem(atPath: url.path + suffix)[.size] as? NSNumber)?.intValue ?? 0) > 0
        }
    }

    /// Whether the SQLite library accepts `file:` URI file names (compiled with `SQLITE_USE_URI`).
    static let uriFileNamesAreSupported: Bool = {
        guard let queue = try? DatabaseQueue() else { return false }
        let options = (try? queue.read { try String.fetchAll($0, sql: "PRAGMA compile_options") }) ?? []
        return options.contains("USE_URI=1") || options.contains("USE_URI")
    }()

    /// Runs `body`, turning a SQLite error, a damaged value in a bookkeeping column or a value GRDB cannot
    /// decode into an `NSError` naming the store file.
    static func run<T>(_ url: URL, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw sqliteError(error, url)
        } catch let damage as SQLiteDamagedValue {
            throw fileError(NSFileReadCorruptFileError, url, "The store file \(url.path) is damaged: \(damage.message).")
        } catch let error as RowDecodingError {
            throw fileError(NSFileReadCorruptFileError, url, "The store file \(url.path) holds a value of the wrong type: \(error).")
        }
    }

    /// The error for a SQLite failure on a store file: ``NSFileReadCorruptFileError`` for a file that is
    /// not a database or is damaged, ``NSSQLiteError`` otherwise; the SQLite result code is under
    /// ``NSSQLiteErrorDomain`` in the user info.
    static func sqliteError(_ error: DatabaseError, _ url: URL) -> NSError {
        let code = Int(error.resultCode.rawValue)
        let corrupt = error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT
        var detail = error.message ?? "SQLite error \(code)"
        if error.resultCode == .SQLITE_IOERR || error.resultCode == .SQLITE_FULL {
            detail +=
                ", SQLite code \(error.extendedResultCode.rawValue): the file system refused a read or write "
                + "(a full disk, a file size limit, a read-only file system or a file changed by another program)"
        }
        let message =
            corrupt
            ? "The store file \(url.path) is not a valid SQLite database (\(detail))."
            : "SQLite failed on the store file \(url.path): \(detail)."
        return NSError(
            domain: NSCocoaErrorDomain, code: corrupt ? NSFileReadCorruptFileError : NSSQLiteError,
            userInfo: [
                NSLocalizedDescriptionKey: message,
                NSFilePathErrorKey: url.path,
                NSURLErrorKey: url,
                NSSQLiteErrorDomain: code,
            ])
    }

    /// An error with the given Foundation or Core Data code naming the store file.
    static func fileError(_ code: Int, _ url: URL, _ message: String) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: code,
            userInfo: [
                NSLocalizedDescriptionKey: message,
                NSFilePathErrorKey: url.path,
                NSURLErrorKey: url,
            ])
    }
}
