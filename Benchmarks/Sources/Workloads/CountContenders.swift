import Foundation
import GRDBSQLite
import OpenCoreData

/// The count workload (issue 47): `count(for:)` of the readings below each of ten bucket thresholds
/// (`bucket < 10`, `< 20`, … `< 100`) over the aggregate workload's 1M readings, against the `COUNT(*)`
/// written by hand. Each contender returns the sum of the ten counts.
public enum CountShape {
    /// The thresholds counted below.
    static let thresholds: [Int64] = (1...10).map { Int64($0 * 10) }

    /// What every contender returns over `rows` readings.
    public static func expected(rows: Int) -> Int64 {
        thresholds.reduce(0) { total, threshold in total + Int64((0..<rows).count(where: { ReadingModel.bucket($0) < threshold })) }
    }
}

/// OpenCoreData: `context.count(for:)` of an `NSFetchRequest` with `bucket < %lld`, ten times.
public struct OpenCoreDataCount: Contender {
    public static let name = "OpenCoreData"
    let context: NSManagedObjectContext

    public init(url: URL) throws { context = try ReadingModel.context(at: url) }

    public func run() throws -> Int64 {
        try context.performAndWait {
            var total: Int64 = 0
            for threshold in CountShape.thresholds {
                let request = NSFetchRequest<Reading>(entityName: "Reading")
                request.predicate = NSPredicate(format: "bucket < %lld", threshold)
                total += Int64(try context.count(for: request))
            }
            return total
        }
    }
}

/// Raw SQLite: one prepared `SELECT COUNT(*) FROM ZREADING WHERE ZBUCKET < ?`, rebound ten times.
public final class RawSQLiteCount: Contender {
    public static let name = "raw SQLite"
    static let sql = "SELECT COUNT(*) FROM ZREADING WHERE ZBUCKET < ?"
    let connection: RawConnection

    public init(url: URL) throws { connection = try RawConnection(url: url) }

    public func run() throws -> Int64 {
        let statement = try connection.prepare(Self.sql)
        defer { sqlite3_finalize(statement) }
        var total: Int64 = 0
        for threshold in CountShape.thresholds {
            sqlite3_bind_int64(statement, 1, threshold)
            guard sqlite3_step(statement) == SQLITE_ROW else { throw connection.error(Self.sql) }
            total += sqlite3_column_int64(statement, 0)
            sqlite3_reset(statement)
        }
        return total
    }
}
