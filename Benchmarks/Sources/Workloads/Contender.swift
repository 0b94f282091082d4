import Foundation

/// One way of inserting `Shape.insertCount` rows into a new database file: `prepare` (not measured)
/// opens the file, `run` (measured) inserts and commits.
public protocol InsertContender {
    /// A short name shown in results.
    static var name: String { get }
    /// Opens a new database at `url`, with WAL and `synchronous=NORMAL`.
    init(url: URL) throws
    /// Inserts `count` rows in one transaction (one save).
    func run(count: Int) throws
}

/// One way of reading every value of every row of the fetch fixture: `init` (not measured) opens the
/// file, `run` (measured) fetches the rows and reads each value, returning their sum.
public protocol FetchContender {
    /// A short name shown in results.
    static var name: String { get }
    /// Opens the fixture at `url`, with WAL and `synchronous=NORMAL`.
    init(url: URL) throws
    /// Fetches every row, reads its ten values and returns their sum.
    func run() throws -> Int64
}

/// The contenders of each workload, in the order results list them. A new contender is a new file
/// with one type, plus its name here.
public enum Contenders {
    public static var insert: [any InsertContender.Type] {
        [
            OpenCoreDataInsert.self,
            OpenCoreDataHistoryInsert.self,
            OpenCoreDataKVCNumberInsert.self,
            OpenCoreDataKVCInt64Insert.self,
            RawSQLiteInsert.self,
            GRDBStatementInsert.self,
            GRDBRecordInsert.self,
        ]
    }

    public static var fetch: [any FetchContender.Type] {
        [
            OpenCoreDataFetch.self,
            OpenCoreDataKVCNumberFetch.self,
            OpenCoreDataKVCInt64Fetch.self,
            RawSQLiteFetch.self,
            GRDBRowCursorFetch.self,
            GRDBRecordFetch.self,
            GRDBCodableRecordFetch.self,
        ]
    }
}
