import GRDB

/// Opens SQLite store files and turns SQLite's failures into Core Data's errors, each naming the file.
enum SQLiteStoreFileAccess {
    /// Opens an existing store file for reading only, without changing the file or its companions: a
    /// store whose `-wal` file is absent or empty is opened immutable (`immutable=1`, so SQLite creates
    /// no `-wal` or `-shm` file and takes no locks); a store with a live `-wal` is copied with its `-wal`
    /// into a temporary directory and read from an in-memory copy of that, so even the `-shm` of the
    /// original stays as it was.
    ///
    /// - Throws: ``NSFileReadNoSuchFileError`` when nothing is at the path,
    ///   ``NSFileReadCorruptFileError`` (with the SQLite result code under ``NSSQLiteErrorDomain``)
    ///   when the file is a directory or not a SQLite database.
    static func openForReading(_ url: URL) throws -> DatabaseQueue {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw fileError(NSFileReadNoSuchFileError, url, "There is no store file at \(url.path).")
        }
        if isDirectory.boolValue {
            throw fileError(NSFileReadCorruptFileError, url, "The store path \(url.path) is a directory, not a SQLite file.")
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "OpenCoreData.SQLiteStore(read)"
        let walSize = (try? FileManager.default.attributesOfItem(atPath: url.path + "-wal")[.size] as? NSNumber)?.intValue ?? 0
        do {
            let queue: DatabaseQueue
            if walSize == 0 && uriFileNamesAreSupported {
                let uri = URL(fileURLWithPath: url.path).absoluteString + "?immutable=1"
                queue = try DatabaseQueue(path: uri, configuration: configuration)
            } else {
                queue = try inMemoryCopy(of: url)
            }
            try queue.inDatabase { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            return queue
        } catch let error as DatabaseError {
            throw sqliteError(error, url)
        }
    }

    /// Whether the SQLite library accepts `file:` URI file names (compiled with `SQLITE_USE_URI`).
    static let uriFileNamesAreSupported: Bool = {
        guard let queue = try? DatabaseQueue() else { return false }
        let options = (try? queue.read { try String.fetchAll($0, sql: "PRAGMA compile_options") }) ?? []
        return options.contains("USE_URI=1") || options.contains("USE_URI")
    }()

    /// An in-memory database holding the contents of the store at `url` and its `-wal`, read from copies
    /// in a temporary directory that is removed afterwards.
    private static func inMemoryCopy(of url: URL) throws -> DatabaseQueue {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("OpenCoreData-inspect-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("store.sqlite")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: url.path, toPath: copy.path)
            if FileManager.default.fileExists(atPath: url.path + "-wal") {
                try FileManager.default.copyItem(atPath: url.path + "-wal", toPath: copy.path + "-wal")
            }
        } catch {
            throw fileError(NSFileReadUnknownError, url, "Cannot read the store file \(url.path): \(error.localizedDescription)")
        }
        let source = try DatabaseQueue(path: copy.path)
        let memory = try DatabaseQueue()
        try source.backup(to: memory)
        try source.close()
        return memory
    }

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
        let detail = error.message ?? "SQLite error \(code)"
        let message = corrupt
            ? "The store file \(url.path) is not a valid SQLite database (\(detail))."
            : "SQLite failed on the store file \(url.path): \(detail)."
        return NSError(domain: NSCocoaErrorDomain, code: corrupt ? NSFileReadCorruptFileError : NSSQLiteError, userInfo: [
            NSLocalizedDescriptionKey: message,
            NSFilePathErrorKey: url.path,
            NSURLErrorKey: url,
            NSSQLiteErrorDomain: code,
        ])
    }

    /// An error with the given Foundation or Core Data code naming the store file.
    static func fileError(_ code: Int, _ url: URL, _ message: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: code, userInfo: [
            NSLocalizedDescriptionKey: message,
            NSFilePathErrorKey: url.path,
            NSURLErrorKey: url,
        ])
    }
}
