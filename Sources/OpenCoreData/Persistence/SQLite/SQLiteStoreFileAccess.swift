import GRDB

/// Opens SQLite store files and turns SQLite's failures into Core Data's errors, each naming the file.
enum SQLiteStoreFileAccess {
    /// Opens an existing store file for reading only: nothing is written to the file, its WAL or its
    /// shared-memory file beyond what SQLite needs to read a WAL database.
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
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            try queue.inDatabase { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            return queue
        } catch let error as DatabaseError {
            throw sqliteError(error, url)
        }
    }

    /// Runs `body`, turning a SQLite error into an `NSError` naming the store file.
    static func run<T>(_ url: URL, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw sqliteError(error, url)
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
