import Foundation
import GRDB
import GRDBSQLite
import OpenCoreData

// The wide workload (issue 47): every row of an entity of 40 attributes of mixed types fetched, each of
// its values read as its Swift type. Each contender returns `WideModel.checksum`.

/// OpenCoreData, `@Managed`: `NSFetchRequest<Wide>`, all 40 properties read.
public struct OpenCoreDataWideFetch: Contender {
    public static let name = "OpenCoreData"
    let context: NSManagedObjectContext

    public init(url: URL) throws { context = try WideModel.context(at: url, plain: false) }

    public func run() throws -> Int64 {
        try context.performAndWait {
            var sum: Int64 = 0
            for row in try context.fetch(NSFetchRequest<Wide>(entityName: "Wide")) {
                sum &+= WideModel.weight(row.a0)
                sum &+= WideModel.weight(row.a1)
                sum &+= WideModel.weight(row.a2)
                sum &+= WideModel.weight(row.a3)
                sum &+= WideModel.weight(row.a4)
                sum &+= WideModel.weight(row.a5)
                sum &+= WideModel.weight(row.a6)
                sum &+= WideModel.weight(row.a7)
                sum &+= WideModel.weight(row.a8)
                sum &+= WideModel.weight(row.a9)
                sum &+= WideModel.weight(row.a10)
                sum &+= WideModel.weight(row.a11)
                sum &+= WideModel.weight(row.a12)
                sum &+= WideModel.weight(row.a13)
                sum &+= WideModel.weight(row.a14)
                sum &+= WideModel.weight(row.a15)
                sum &+= WideModel.weight(row.a16)
                sum &+= WideModel.weight(row.a17)
                sum &+= WideModel.weight(row.a18)
                sum &+= WideModel.weight(row.a19)
                sum &+= WideModel.weight(row.a20)
                sum &+= WideModel.weight(row.a21)
                sum &+= WideModel.weight(row.a22)
                sum &+= WideModel.weight(row.a23)
                sum &+= WideModel.weight(row.a24)
                sum &+= WideModel.weight(row.a25)
                sum &+= WideModel.weight(row.a26)
                sum &+= WideModel.weight(row.a27)
                sum &+= WideModel.weight(row.a28)
                sum &+= WideModel.weight(row.a29)
                sum &+= WideModel.weight(row.a30)
                sum &+= WideModel.weight(row.a31)
                sum &+= WideModel.weight(row.a32)
                sum &+= WideModel.weight(row.a33)
                sum &+= WideModel.weight(row.a34)
                sum &+= WideModel.weight(row.a35)
                sum &+= WideModel.weight(row.a36)
                sum &+= WideModel.weight(row.a37)
                sum &+= WideModel.weight(row.a38)
                sum &+= WideModel.weight(row.a39)
            }
            return sum
        }
    }
}

/// OpenCoreData, key-value coding on plain `NSManagedObject`s: all 40 values read through
/// `value(forKey:)`, each cast to its type (`as? Int64`, `as? Double`, `as? String`, `as? Bool`, `as? Date`).
public struct OpenCoreDataKVCWideFetch: Contender {
    public static let name = "OpenCoreData KVC"
    let context: NSManagedObjectContext

    public init(url: URL) throws { context = try WideModel.context(at: url, plain: true) }

    public func run() throws -> Int64 {
        try context.performAndWait {
            var sum: Int64 = 0
            for row in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Wide")) {
                for (column, key) in WideModel.keys.enumerated() {
                    let value = row.value(forKey: key)
                    switch WideKind.of(column) {
                    case .int64:
                        guard let value = value as? Int64 else { throw WorkloadError("\(key) is not an Int64") }
                        sum &+= WideModel.weight(value)
                    case .double:
                        guard let value = value as? Double else { throw WorkloadError("\(key) is not a Double") }
                        sum &+= WideModel.weight(value)
                    case .string:
                        guard let value = value as? String else { throw WorkloadError("\(key) is not a String") }
                        sum &+= WideModel.weight(value)
                    case .bool:
                        guard let value = value as? Bool else { throw WorkloadError("\(key) is not a Bool") }
                        sum &+= WideModel.weight(value)
                    case .date:
                        guard let value = value as? Date else { throw WorkloadError("\(key) is not a Date") }
                        sum &+= WideModel.weight(value)
                    }
                }
            }
            return sum
        }
    }
}

/// Raw SQLite: step through the rows, making each value's Swift value by its column's type.
public final class RawSQLiteWideFetch: Contender {
    public static let name = "raw SQLite"
    let connection: RawConnection

    public init(url: URL) throws { connection = try RawConnection(url: url) }

    public func run() throws -> Int64 {
        let statement = try connection.prepare(WideModel.select)
        defer { sqlite3_finalize(statement) }
        var sum: Int64 = 0
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw connection.error(WideModel.select) }
            for column in 0..<WideModel.columns {
                let index = Int32(column)
                switch WideKind.of(column) {
                case .int64: sum &+= WideModel.weight(sqlite3_column_int64(statement, index))
                case .double: sum &+= WideModel.weight(sqlite3_column_double(statement, index))
                case .string:
                    guard let text = sqlite3_column_text(statement, index) else { throw WorkloadError("a NULL string") }
                    sum &+= WideModel.weight(String(cString: text))
                case .bool: sum &+= WideModel.weight(sqlite3_column_int64(statement, index) != 0)
                case .date: sum &+= WideModel.weight(Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, index)))
                }
            }
        }
        return sum
    }
}

/// A wide row decoded by hand (dates from Core Data's seconds since 2001).
struct WideRecord: FetchableRecord {
    var a0: Int64
    var a1: Double
    var a2: String
    var a3: Bool
    var a4: Date
    var a5: Int64
    var a6: Double
    var a7: String
    var a8: Bool
    var a9: Date
    var a10: Int64
    var a11: Double
    var a12: String
    var a13: Bool
    var a14: Date
    var a15: Int64
    var a16: Double
    var a17: String
    var a18: Bool
    var a19: Date
    var a20: Int64
    var a21: Double
    var a22: String
    var a23: Bool
    var a24: Date
    var a25: Int64
    var a26: Double
    var a27: String
    var a28: Bool
    var a29: Date
    var a30: Int64
    var a31: Double
    var a32: String
    var a33: Bool
    var a34: Date
    var a35: Int64
    var a36: Double
    var a37: String
    var a38: Bool
    var a39: Date

    init(row: Row) {
        a0 = row[0]
        a1 = row[1]
        a2 = row[2]
        a3 = row[3]
        a4 = Date(timeIntervalSinceReferenceDate: row[4])
        a5 = row[5]
        a6 = row[6]
        a7 = row[7]
        a8 = row[8]
        a9 = Date(timeIntervalSinceReferenceDate: row[9])
        a10 = row[10]
        a11 = row[11]
        a12 = row[12]
        a13 = row[13]
        a14 = Date(timeIntervalSinceReferenceDate: row[14])
        a15 = row[15]
        a16 = row[16]
        a17 = row[17]
        a18 = row[18]
        a19 = Date(timeIntervalSinceReferenceDate: row[19])
        a20 = row[20]
        a21 = row[21]
        a22 = row[22]
        a23 = row[23]
        a24 = Date(timeIntervalSinceReferenceDate: row[24])
        a25 = row[25]
        a26 = row[26]
        a27 = row[27]
        a28 = row[28]
        a29 = Date(timeIntervalSinceReferenceDate: row[29])
        a30 = row[30]
        a31 = row[31]
        a32 = row[32]
        a33 = row[33]
        a34 = Date(timeIntervalSinceReferenceDate: row[34])
        a35 = row[35]
        a36 = row[36]
        a37 = row[37]
        a38 = row[38]
        a39 = Date(timeIntervalSinceReferenceDate: row[39])
    }

    var weight: Int64 {
        var sum: Int64 = 0
        sum &+= WideModel.weight(a0)
        sum &+= WideModel.weight(a1)
        sum &+= WideModel.weight(a2)
        sum &+= WideModel.weight(a3)
        sum &+= WideModel.weight(a4)
        sum &+= WideModel.weight(a5)
        sum &+= WideModel.weight(a6)
        sum &+= WideModel.weight(a7)
        sum &+= WideModel.weight(a8)
        sum &+= WideModel.weight(a9)
        sum &+= WideModel.weight(a10)
        sum &+= WideModel.weight(a11)
        sum &+= WideModel.weight(a12)
        sum &+= WideModel.weight(a13)
        sum &+= WideModel.weight(a14)
        sum &+= WideModel.weight(a15)
        sum &+= WideModel.weight(a16)
        sum &+= WideModel.weight(a17)
        sum &+= WideModel.weight(a18)
        sum &+= WideModel.weight(a19)
        sum &+= WideModel.weight(a20)
        sum &+= WideModel.weight(a21)
        sum &+= WideModel.weight(a22)
        sum &+= WideModel.weight(a23)
        sum &+= WideModel.weight(a24)
        sum &+= WideModel.weight(a25)
        sum &+= WideModel.weight(a26)
        sum &+= WideModel.weight(a27)
        sum &+= WideModel.weight(a28)
        sum &+= WideModel.weight(a29)
        sum &+= WideModel.weight(a30)
        sum &+= WideModel.weight(a31)
        sum &+= WideModel.weight(a32)
        sum &+= WideModel.weight(a33)
        sum &+= WideModel.weight(a34)
        sum &+= WideModel.weight(a35)
        sum &+= WideModel.weight(a36)
        sum &+= WideModel.weight(a37)
        sum &+= WideModel.weight(a38)
        sum &+= WideModel.weight(a39)
        return sum
    }
}

/// The same row decoded through `Decodable` (dates with GRDB's `.timeIntervalSinceReferenceDate`).
struct CodableWide: Decodable, FetchableRecord {
    var a0: Int64
    var a1: Double
    var a2: String
    var a3: Bool
    var a4: Date
    var a5: Int64
    var a6: Double
    var a7: String
    var a8: Bool
    var a9: Date
    var a10: Int64
    var a11: Double
    var a12: String
    var a13: Bool
    var a14: Date
    var a15: Int64
    var a16: Double
    var a17: String
    var a18: Bool
    var a19: Date
    var a20: Int64
    var a21: Double
    var a22: String
    var a23: Bool
    var a24: Date
    var a25: Int64
    var a26: Double
    var a27: String
    var a28: Bool
    var a29: Date
    var a30: Int64
    var a31: Double
    var a32: String
    var a33: Bool
    var a34: Date
    var a35: Int64
    var a36: Double
    var a37: String
    var a38: Bool
    var a39: Date

    enum CodingKeys: String, CodingKey {
        case a0 = "ZA0", a1 = "ZA1", a2 = "ZA2", a3 = "ZA3", a4 = "ZA4", a5 = "ZA5", a6 = "ZA6", a7 = "ZA7"
        case a8 = "ZA8", a9 = "ZA9", a10 = "ZA10", a11 = "ZA11", a12 = "ZA12", a13 = "ZA13", a14 = "ZA14", a15 = "ZA15"
        case a16 = "ZA16", a17 = "ZA17", a18 = "ZA18", a19 = "ZA19", a20 = "ZA20", a21 = "ZA21", a22 = "ZA22", a23 = "ZA23"
        case a24 = "ZA24", a25 = "ZA25", a26 = "ZA26", a27 = "ZA27", a28 = "ZA28", a29 = "ZA29", a30 = "ZA30", a31 = "ZA31"
        case a32 = "ZA32", a33 = "ZA33", a34 = "ZA34", a35 = "ZA35", a36 = "ZA36", a37 = "ZA37", a38 = "ZA38", a39 = "ZA39"
    }

    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSinceReferenceDate }

    var weight: Int64 {
        var sum: Int64 = 0
        sum &+= WideModel.weight(a0)
        sum &+= WideModel.weight(a1)
        sum &+= WideModel.weight(a2)
        sum &+= WideModel.weight(a3)
        sum &+= WideModel.weight(a4)
        sum &+= WideModel.weight(a5)
        sum &+= WideModel.weight(a6)
        sum &+= WideModel.weight(a7)
        sum &+= WideModel.weight(a8)
        sum &+= WideModel.weight(a9)
        sum &+= WideModel.weight(a10)
        sum &+= WideModel.weight(a11)
        sum &+= WideModel.weight(a12)
        sum &+= WideModel.weight(a13)
        sum &+= WideModel.weight(a14)
        sum &+= WideModel.weight(a15)
        sum &+= WideModel.weight(a16)
        sum &+= WideModel.weight(a17)
        sum &+= WideModel.weight(a18)
        sum &+= WideModel.weight(a19)
        sum &+= WideModel.weight(a20)
        sum &+= WideModel.weight(a21)
        sum &+= WideModel.weight(a22)
        sum &+= WideModel.weight(a23)
        sum &+= WideModel.weight(a24)
        sum &+= WideModel.weight(a25)
        sum &+= WideModel.weight(a26)
        sum &+= WideModel.weight(a27)
        sum &+= WideModel.weight(a28)
        sum &+= WideModel.weight(a29)
        sum &+= WideModel.weight(a30)
        sum &+= WideModel.weight(a31)
        sum &+= WideModel.weight(a32)
        sum &+= WideModel.weight(a33)
        sum &+= WideModel.weight(a34)
        sum &+= WideModel.weight(a35)
        sum &+= WideModel.weight(a36)
        sum &+= WideModel.weight(a37)
        sum &+= WideModel.weight(a38)
        sum &+= WideModel.weight(a39)
        return sum
    }
}

/// GRDB `FetchableRecord`: every row fetched as a record (`init(row:)` by hand), then read.
public final class GRDBRecordWideFetch: Contender {
    public static let name = "GRDB FetchableRecord"
    let queue: DatabaseQueue
    public init(url: URL) throws { queue = try GRDBConnection.open(url) }
    public func run() throws -> Int64 {
        try queue.read { db in try WideRecord.fetchAll(db, sql: WideModel.select).reduce(0) { $0 &+ $1.weight } }
    }
}

/// GRDB `Codable` records: every row fetched as a `Decodable` record, then read.
public final class GRDBCodableWideFetch: Contender {
    public static let name = "GRDB Codable record"
    let queue: DatabaseQueue
    public init(url: URL) throws { queue = try GRDBConnection.open(url) }
    public func run() throws -> Int64 {
        try queue.read { db in try CodableWide.fetchAll(db, sql: WideModel.select).reduce(0) { $0 &+ $1.weight } }
    }
}
