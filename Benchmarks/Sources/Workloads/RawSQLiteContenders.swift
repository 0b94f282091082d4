import Foundation
import GRDBSQLite

/// A raw SQLite connection: the C API and nothing else.
final class RawConnection {
    let handle: OpaquePointer

    init(url: URL) throws {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(url.path, &handle, flags, nil) == SQLITE_OK, let handle else {
            if let handle { sqlite3_close(handle) }
            throw WorkloadError("cannot open \(url.path)")
        }
        self.handle = handle
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
    }

    deinit {
        sqlite3_close(handle)
    }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw error(sql) }
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw error(sql) }
        return statement
    }

    func error(_ sql: String) -> WorkloadError {
        WorkloadError("\(String(cString: sqlite3_errmsg(handle))) in \(sql)")
    }
}

/// The plain table of the raw SQLite and GRDB insert contenders.
enum PlainTable {
    static let create =
        "CREATE TABLE item (id INTEGER PRIMARY KEY, "
        + (0..<Shape.columnCount).map { "i\($0) INTEGER NOT NULL" }.joined(separator: ", ") + ")"
    static let insert =
        "INSERT INTO item (" + (0..<Shape.columnCount).map { "i\($0)" }.joined(separator: ", ")
        + ") VALUES (" + Array(repeating: "?", count: Shape.columnCount).joined(separator: ", ") + ")"
}

/// The Core Data table of the fetch fixture, read by the raw SQLite and GRDB fetch contenders.
enum FixtureTable {
    static let select = "SELECT " + (0..<Shape.columnCount).map { "ZI\($0)" }.joined(separator: ", ") + " FROM ZITEM"
}

/// Raw SQLite: one transaction, one prepared INSERT reused for every row.
public final class RawSQLiteInsert: InsertContender {
    public static let name = "raw SQLite"
    let connection: RawConnection

    public init(url: URL) throws {
        connection = try RawConnection(url: url)
        try connection.execute(PlainTable.create)
    }

    public func run(count: Int) throws {
        try connection.execute("BEGIN TRANSACTION")
        let statement = try connection.prepare(PlainTable.insert)
        defer { sqlite3_finalize(statement) }
        for row in 0..<count {
            for column in 0..<Shape.columnCount {
                sqlite3_bind_int64(statement, Int32(column + 1), Shape.value(row: row, column: column))
            }
            guard sqlite3_step(statement) == SQLITE_DONE else { throw connection.error(PlainTable.insert) }
            sqlite3_reset(statement)
        }
        try connection.execute("COMMIT")
    }
}

/// Raw SQLite: step through the rows and read ten columns each.
/// The statement is prepared once and reused by every run, as GRDB and OpenCoreData reuse theirs.
public final class RawSQLiteFetch: FetchContender {
    public static let name = "raw SQLite"
    let connection: RawConnection
    let statement: OpaquePointer

    public init(url: URL) throws {
        connection = try RawConnection(url: url)
        statement = try connection.prepare(FixtureTable.select)
    }

    deinit {
        sqlite3_finalize(statement)
    }

    public func run() throws -> Int64 {
        defer { sqlite3_reset(statement) }
        var sum: Int64 = 0
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw connection.error(FixtureTable.select) }
            for column in 0..<Int32(Shape.columnCount) {
                sum &+= sqlite3_column_int64(statement, column)
            }
        }
        return sum
    }
}
