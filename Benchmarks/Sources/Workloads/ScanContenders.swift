import Foundation
import GRDBSQLite
import OpenCoreData

/// Reads every reading of the file as managed objects and sums bucket + amount of each.
func scanReadings(_ context: NSManagedObjectContext, batchSize: Int) throws -> Int64 {
    try context.performAndWait {
        let request = NSFetchRequest<Reading>(entityName: "Reading")
        request.fetchBatchSize = batchSize
        var sum: Int64 = 0
        for reading in try context.fetch(request) {
            sum &+= reading.bucket &+ reading.amount
        }
        return sum
    }
}

/// OpenCoreData: `NSFetchRequest<Reading>` with `fetchBatchSize = 500`, every object touched (both
/// properties read): IDs first, then rows one batch at a time.
public struct OpenCoreDataBatchedScan: Contender {
    public static let name = "OpenCoreData fetchBatchSize 500"
    let context: NSManagedObjectContext

    public init(url: URL) throws {
        context = try ReadingModel.context(at: url)
    }

    public func run() throws -> Int64 {
        try scanReadings(context, batchSize: 500)
    }
}

/// OpenCoreData: the same fetch without a batch size (every object materialised at once), for contrast.
public struct OpenCoreDataUnbatchedScan: Contender {
    public static let name = "OpenCoreData no batch size"
    let context: NSManagedObjectContext

    public init(url: URL) throws {
        context = try ReadingModel.context(at: url)
    }

    public func run() throws -> Int64 {
        try scanReadings(context, batchSize: 0)
    }
}

/// Raw SQLite: step through `SELECT ZBUCKET, ZAMOUNT FROM ZREADING`, reading both columns.
public final class RawSQLiteScan: Contender {
    public static let name = "raw SQLite"
    static let sql = "SELECT ZBUCKET, ZAMOUNT FROM ZREADING"
    let connection: RawConnection

    public init(url: URL) throws {
        connection = try RawConnection(url: url)
    }

    public func run() throws -> Int64 {
        let statement = try connection.prepare(Self.sql)
        defer { sqlite3_finalize(statement) }
        var sum: Int64 = 0
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw connection.error(Self.sql) }
            sum &+= sqlite3_column_int64(statement, 0) &+ sqlite3_column_int64(statement, 1)
        }
        return sum
    }
}
