import Foundation
import GRDBSQLite
import OpenCoreData

/// The entity of the wide workload: 40 attributes of mixed types (attribute `a<n>` is, by `n % 5`, an
/// `Int64`, a `Double`, a `String`, a `Bool` or a `Date`).
public final class Wide: NSManagedObject {
    @Managed public var a0: Int64
    @Managed public var a1: Double
    @Managed public var a2: String
    @Managed public var a3: Bool
    @Managed public var a4: Date
    @Managed public var a5: Int64
    @Managed public var a6: Double
    @Managed public var a7: String
    @Managed public var a8: Bool
    @Managed public var a9: Date
    @Managed public var a10: Int64
    @Managed public var a11: Double
    @Managed public var a12: String
    @Managed public var a13: Bool
    @Managed public var a14: Date
    @Managed public var a15: Int64
    @Managed public var a16: Double
    @Managed public var a17: String
    @Managed public var a18: Bool
    @Managed public var a19: Date
    @Managed public var a20: Int64
    @Managed public var a21: Double
    @Managed public var a22: String
    @Managed public var a23: Bool
    @Managed public var a24: Date
    @Managed public var a25: Int64
    @Managed public var a26: Double
    @Managed public var a27: String
    @Managed public var a28: Bool
    @Managed public var a29: Date
    @Managed public var a30: Int64
    @Managed public var a31: Double
    @Managed public var a32: String
    @Managed public var a33: Bool
    @Managed public var a34: Date
    @Managed public var a35: Int64
    @Managed public var a36: Double
    @Managed public var a37: String
    @Managed public var a38: Bool
    @Managed public var a39: Date
}

/// The kind of a wide attribute.
enum WideKind {
    case int64, double, string, bool, date

    /// The kind of attribute `column`.
    static func of(_ column: Int) -> WideKind { cycle[column % cycle.count] }

    /// The kinds in the order attributes cycle through them.
    static let cycle: [WideKind] = [.int64, .double, .string, .bool, .date]

    var attributeType: NSAttributeType {
        switch self {
        case .int64: .integer64AttributeType
        case .double: .doubleAttributeType
        case .string: .stringAttributeType
        case .bool: .booleanAttributeType
        case .date: .dateAttributeType
        }
    }
}

/// The model of the wide workload (table `ZWIDE`, columns `ZA0`…`ZA39`) and its file: `rows` rows whose
/// values are functions of the row and the column.
public enum WideModel {
    /// Attributes of the entity.
    public static let columns = 40
    /// Rows in the fixture (`OCD_BENCH_ROWS` overrides).
    public static let rows = workloadRows(50_000)

    static func int64(_ row: Int, _ column: Int) -> Int64 { Int64(row &* columns &+ column) }
    static func double(_ row: Int, _ column: Int) -> Double { Double(row) + Double(column) * 0.25 }
    static func string(_ row: Int, _ column: Int) -> String { "v\(column)-\(row)" }
    static func bool(_ row: Int, _ column: Int) -> Bool { (row + column) % 2 == 0 }
    static func date(_ row: Int, _ column: Int) -> Double { 600_000_000 + Double(row) + Double(column) }

    /// What a contender adds for each value it reads, by type.
    @inline(__always) static func weight(_ value: Int64) -> Int64 { value }
    @inline(__always) static func weight(_ value: Double) -> Int64 { Int64(value * 4) }
    @inline(__always) static func weight(_ value: String) -> Int64 { Int64(value.utf8.last ?? 0) &+ Int64(value.utf8.count) }
    @inline(__always) static func weight(_ value: Bool) -> Int64 { value ? 1 : 0 }
    @inline(__always) static func weight(_ value: Date) -> Int64 { Int64(value.timeIntervalSinceReferenceDate) }

    /// What every contender returns after reading every value of every row.
    public static var checksum: Int64 {
        var sum: Int64 = 0
        for row in 0..<rows {
            for column in 0..<columns {
                switch WideKind.of(column) {
                case .int64: sum &+= weight(int64(row, column))
                case .double: sum &+= weight(double(row, column))
                case .string: sum &+= weight(string(row, column))
                case .bool: sum &+= weight(bool(row, column))
                case .date: sum &+= weight(Date(timeIntervalSinceReferenceDate: date(row, column)))
                }
            }
        }
        return sum
    }

    /// The attribute names, as an app spells them.
    public static let keys = (0..<columns).map { "a\($0)" }

    public static func make(plain: Bool) -> NSManagedObjectModel {
        let entity = makeEntity(
            "Wide", className: plain ? "NSManagedObject" : String(reflecting: Wide.self),
            properties: (0..<columns).map { makeAttribute(keys[$0], WideKind.of($0).attributeType) })
        let model = NSManagedObjectModel()
        model.entities = [entity]
        return model
    }

    /// One model per process and style: the subclass, or plain `NSManagedObject`s.
    public static let shared = make(plain: false)
    public static let plainShared = make(plain: true)

    /// The SELECT of the raw SQLite and GRDB contenders, columns in attribute order.
    static let select = "SELECT " + (0..<columns).map { "ZA\($0)" }.joined(separator: ", ") + " FROM ZWIDE"

    /// A file of `rows` rows, made by OpenCoreData for the model and filled through the C API.
    public static func fixture() throws -> StoreFixture {
        try StoreFixture(fileName: "Wide.sqlite", model: shared) { connection in
            let entity = try connection.integers("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Wide'")[0]
            let names = (0..<columns).map { "ZA\($0)" }.joined(separator: ", ")
            let marks = Array(repeating: "?", count: columns).joined(separator: ", ")
            let sql = "INSERT INTO ZWIDE (Z_PK, Z_ENT, Z_OPT, \(names)) VALUES (?, ?, 1, \(marks))"
            let insert = try connection.prepare(sql)
            defer { sqlite3_finalize(insert) }
            for row in 0..<rows {
                sqlite3_bind_int64(insert, 1, Int64(row + 1))
                sqlite3_bind_int64(insert, 2, entity)
                for column in 0..<columns {
                    let index = Int32(column + 3)
                    switch WideKind.of(column) {
                    case .int64: sqlite3_bind_int64(insert, index, int64(row, column))
                    case .double: sqlite3_bind_double(insert, index, double(row, column))
                    case .string: sqlite3_bind_text(insert, index, string(row, column), -1, transientText)
                    case .bool: sqlite3_bind_int64(insert, index, bool(row, column) ? 1 : 0)
                    case .date: sqlite3_bind_double(insert, index, date(row, column))
                    }
                }
                guard sqlite3_step(insert) == SQLITE_DONE else { throw connection.error(sql) }
                sqlite3_reset(insert)
            }
            try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(rows) WHERE Z_ENT = \(entity)")
        }
    }

    /// A private-queue context on the store at `url`, WAL with `synchronous=NORMAL`.
    public static func context(at url: URL, plain: Bool) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: plain ? plainShared : shared)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: ItemModel.storeOptions)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }
}
