import Foundation
import GRDB
import GRDBSQLite
import OpenCoreData

/// The entity of the selective-fetch workload: a `code` (indexed) and a `value`.
public final class Event: NSManagedObject {
    @Managed public var code: Int64
    @Managed public var value: Int64
}

/// The selective-fetch workload (issue 47): `rows` events whose `code` (row % `codes`, indexed) picks 100
/// rows; fetch `i` of the `codes` fetches reads the events of code `i` in one context, so every row is read
/// once and each contender returns the sum of every `value`.
public enum EventModel {
    /// Distinct codes: the fetches a run makes.
    public static let codes = 1_000
    /// Events of each code: the rows a fetch returns.
    public static let perCode = 100
    /// Events in the fixture.
    public static var rows: Int { codes * perCode }
    /// What every contender returns: Σ value = Σ row.
    public static var checksum: Int64 { Int64(rows) * Int64(rows - 1) / 2 }

    public static func make(plain: Bool) -> NSManagedObjectModel {
        let code = makeAttribute("code", .integer64AttributeType)
        let entity = makeEntity(
            "Event", className: plain ? "NSManagedObject" : String(reflecting: Event.self),
            properties: [code, makeAttribute("value", .integer64AttributeType)])
        entity.indexes = [
            NSFetchIndexDescription(name: "byCode", elements: [NSFetchIndexElementDescription(property: code, collationType: .binary)])
        ]
        let model = NSManagedObjectModel()
        model.entities = [entity]
        return model
    }

    /// One model per process and style: the subclass, or plain `NSManagedObject`s.
    public static let shared = make(plain: false)
    public static let plainShared = make(plain: true)

    /// A file of `rows` events (row `r`: code `r % codes`, value `r`); throws unless the store made an
    /// index on `ZCODE`, so that every contender's query uses one.
    public static func fixture() throws -> StoreFixture {
        let fixture = try StoreFixture(
            fileName: "Events.sqlite", model: shared, entity: "Event", rows: rows,
            columns: [("code", { Int64($0 % codes) }), ("value", { Int64($0) })])
        let indexes = try RawConnection(url: fixture.url).integers(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ZEVENT' AND sql LIKE '%ZCODE%'")
        guard indexes[0] > 0 else { throw WorkloadError("the store made no index on ZEVENT.ZCODE") }
        return fixture
    }

    /// A private-queue context on the store at `url`, WAL with `synchronous=NORMAL`.
    public static func context(at url: URL, plain: Bool) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: plain ? plainShared : shared)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: ItemModel.storeOptions)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// The query of the raw SQLite and GRDB contenders.
    static let select = "SELECT ZVALUE FROM ZEVENT WHERE ZCODE = ?"
}

/// OpenCoreData, `@Managed`: `NSFetchRequest<Event>` with `code == %lld`, every `value` read, 1,000 times.
public struct OpenCoreDataSelectiveFetch: Contender {
    public static let name = "OpenCoreData"
    let context: NSManagedObjectContext

    public init(url: URL) throws { context = try EventModel.context(at: url, plain: false) }

    public func run() throws -> Int64 {
        try context.performAndWait {
            var sum: Int64 = 0
            for code in 0..<EventModel.codes {
                let request = NSFetchRequest<Event>(entityName: "Event")
                request.predicate = NSPredicate(format: "code == %lld", Int64(code))
                for event in try context.fetch(request) { sum &+= event.value }
            }
            return sum
        }
    }
}

/// OpenCoreData, key-value coding on plain `NSManagedObject`s: the same, `value(forKey:) as? Int64`.
public struct OpenCoreDataKVCSelectiveFetch: Contender {
    public static let name = "OpenCoreData KVC"
    let context: NSManagedObjectContext

    public init(url: URL) throws { context = try EventModel.context(at: url, plain: true) }

    public func run() throws -> Int64 {
        try context.performAndWait {
            var sum: Int64 = 0
            for code in 0..<EventModel.codes {
                let request = NSFetchRequest<NSManagedObject>(entityName: "Event")
                request.predicate = NSPredicate(format: "code == %lld", Int64(code))
                for event in try context.fetch(request) {
                    guard let value = event.value(forKey: "value") as? Int64 else { throw WorkloadError("an event without its value") }
                    sum &+= value
                }
            }
            return sum
        }
    }
}

/// Raw SQLite: one prepared `SELECT ZVALUE FROM ZEVENT WHERE ZCODE = ?`, bound and stepped per fetch.
public final class RawSQLiteSelectiveFetch: Contender {
    public static let name = "raw SQLite"
    let connection: RawConnection

    public init(url: URL) throws { connection = try RawConnection(url: url) }

    public func run() throws -> Int64 {
        let statement = try connection.prepare(EventModel.select)
        defer { sqlite3_finalize(statement) }
        var sum: Int64 = 0
        for code in 0..<EventModel.codes {
            sqlite3_bind_int64(statement, 1, Int64(code))
            while sqlite3_step(statement) == SQLITE_ROW { sum &+= sqlite3_column_int64(statement, 0) }
            sqlite3_reset(statement)
        }
        return sum
    }
}

/// An event's value decoded by hand.
struct EventRecord: FetchableRecord {
    var value: Int64
    init(row: Row) { value = row[0] }
}

/// The same through `Decodable`.
struct CodableEvent: Decodable, FetchableRecord {
    var value: Int64
    enum CodingKeys: String, CodingKey { case value = "ZVALUE" }
}

/// GRDB `FetchableRecord`: a cached statement, the records of each code fetched and read.
public final class GRDBRecordSelectiveFetch: Contender {
    public static let name = "GRDB FetchableRecord"
    let queue: DatabaseQueue
    public init(url: URL) throws { queue = try GRDBConnection.open(url) }
    public func run() throws -> Int64 {
        try queue.read { db in
            let statement = try db.cachedStatement(sql: EventModel.select)
            var sum: Int64 = 0
            for code in 0..<EventModel.codes {
                for event in try EventRecord.fetchAll(statement, arguments: [code]) { sum &+= event.value }
            }
            return sum
        }
    }
}

/// GRDB `Codable` records: the same through `Decodable` records.
public final class GRDBCodableSelectiveFetch: Contender {
    public static let name = "GRDB Codable record"
    let queue: DatabaseQueue
    public init(url: URL) throws { queue = try GRDBConnection.open(url) }
    public func run() throws -> Int64 {
        try queue.read { db in
            let statement = try db.cachedStatement(sql: EventModel.select)
            var sum: Int64 = 0
            for code in 0..<EventModel.codes {
                for event in try CodableEvent.fetchAll(statement, arguments: [code]) { sum &+= event.value }
            }
            return sum
        }
    }
}
