import Foundation
import GRDBSQLite
import OpenCoreData

/// The aggregate workload: per bucket, the sum, average and count of `amount` over every reading,
/// computed by the store. Each contender returns Σ over the groups of bucket + sum + rounded average
/// + count.
public enum AggregateCheck {
    /// The checksum of the groups of `rows` readings.
    public static func expected(rows: Int) -> Int64 {
        var sums = [Int64](repeating: 0, count: ReadingModel.buckets)
        var counts = [Int64](repeating: 0, count: ReadingModel.buckets)
        for row in 0..<rows {
            let bucket = Int(ReadingModel.bucket(row))
            sums[bucket] += ReadingModel.amount(row)
            counts[bucket] += 1
        }
        var total: Int64 = 0
        for bucket in 0..<ReadingModel.buckets where counts[bucket] > 0 {
            let average = (Double(sums[bucket]) / Double(counts[bucket])).rounded()
            total += Int64(bucket) + sums[bucket] + Int64(average) + counts[bucket]
        }
        return total
    }

    static func checksum(bucket: Int64, sum: Int64, average: Double, count: Int64) -> Int64 {
        bucket + sum + Int64(average.rounded()) + count
    }
}

/// OpenCoreData, as the seeds write it: `NSFetchRequest<NSDictionary>` with `.dictionaryResultType`,
/// `propertiesToFetch` = bucket and three `NSExpressionDescription`s (`sum:`, `average:`, `count:`),
/// `propertiesToGroupBy` = bucket.
public struct OpenCoreDataAggregate: Contender {
    public static let name = "OpenCoreData"
    let context: NSManagedObjectContext

    public init(url: URL) throws {
        context = try ReadingModel.context(at: url)
    }

    static func description(_ name: String, _ function: String, _ type: NSAttributeType) -> NSExpressionDescription {
        let description = NSExpressionDescription()
        description.name = name
        description.expression = NSExpression(forFunction: function, arguments: [NSExpression(forKeyPath: "amount")])
        description.expressionResultType = type
        return description
    }

    public func run() throws -> Int64 {
        let context = self.context
        return try context.performAndWait {
            let request = NSFetchRequest<NSDictionary>(entityName: "Reading")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = [
                "bucket",
                Self.description("total", "sum:", .integer64AttributeType),
                Self.description("mean", "average:", .doubleAttributeType),
                Self.description("n", "count:", .integer64AttributeType),
            ]
            request.propertiesToGroupBy = ["bucket"]
            var checksum: Int64 = 0
            for group in try context.fetch(request) {
                guard let bucket = (group["bucket"] as? NSNumber)?.int64Value,
                    let total = (group["total"] as? NSNumber)?.int64Value,
                    let mean = (group["mean"] as? NSNumber)?.doubleValue,
                    let count = (group["n"] as? NSNumber)?.int64Value
                else {
                    throw WorkloadError("aggregate row without its four values: \(group)")
                }
                checksum += AggregateCheck.checksum(bucket: bucket, sum: total, average: mean, count: count)
            }
            return checksum
        }
    }
}

/// Raw SQLite: `SELECT ZBUCKET, SUM(ZAMOUNT), AVG(ZAMOUNT), COUNT(ZAMOUNT) FROM ZREADING GROUP BY ZBUCKET`.
public final class RawSQLiteAggregate: Contender {
    public static let name = "raw SQLite"
    static let sql = "SELECT ZBUCKET, SUM(ZAMOUNT), AVG(ZAMOUNT), COUNT(ZAMOUNT) FROM ZREADING GROUP BY ZBUCKET"
    let connection: RawConnection

    public init(url: URL) throws {
        connection = try RawConnection(url: url)
    }

    public func run() throws -> Int64 {
        let statement = try connection.prepare(Self.sql)
        defer { sqlite3_finalize(statement) }
        var checksum: Int64 = 0
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw connection.error(Self.sql) }
            checksum += AggregateCheck.checksum(
                bucket: sqlite3_column_int64(statement, 0),
                sum: sqlite3_column_int64(statement, 1),
                average: sqlite3_column_double(statement, 2),
                count: sqlite3_column_int64(statement, 3))
        }
        return checksum
    }
}
