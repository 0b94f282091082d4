import Foundation
import GRDB

/// A GRDB connection with WAL and `synchronous=NORMAL`.
enum GRDBConnection {
    static func open(_ url: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }
}

/// GRDB's statement API: one transaction, one prepared statement executed with arguments per row.
public final class GRDBStatementInsert: InsertContender {
    public static let name = "GRDB statement"
    let queue: DatabaseQueue

    public init(url: URL) throws {
        queue = try GRDBConnection.open(url)
        try queue.write { try $0.execute(sql: PlainTable.create) }
    }

    public func run(count: Int) throws {
        try queue.inTransaction { db in
            let statement = try db.makeStatement(sql: PlainTable.insert)
            for row in 0..<count {
                try statement.execute(arguments: [
                    Shape.value(row: row, column: 0), Shape.value(row: row, column: 1),
                    Shape.value(row: row, column: 2), Shape.value(row: row, column: 3),
                    Shape.value(row: row, column: 4), Shape.value(row: row, column: 5),
                    Shape.value(row: row, column: 6), Shape.value(row: row, column: 7),
                    Shape.value(row: row, column: 8), Shape.value(row: row, column: 9),
                ])
            }
            return .commit
        }
    }
}

/// A GRDB record of the plain table, encoded through `Codable`.
struct PlainItem: Codable, PersistableRecord, FetchableRecord {
    static let databaseTableName = "item"
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int64

    init(row: Int) {
        i0 = Shape.value(row: row, column: 0)
        i1 = Shape.value(row: row, column: 1)
        i2 = Shape.value(row: row, column: 2)
        i3 = Shape.value(row: row, column: 3)
        i4 = Shape.value(row: row, column: 4)
        i5 = Shape.value(row: row, column: 5)
        i6 = Shape.value(row: row, column: 6)
        i7 = Shape.value(row: row, column: 7)
        i8 = Shape.value(row: row, column: 8)
        i9 = Shape.value(row: row, column: 9)
    }
}

/// GRDB's record API: one transaction, `insert(_:)` of a `Codable` record per row.
public final class GRDBRecordInsert: InsertContender {
    public static let name = "GRDB record"
    let queue: DatabaseQueue

    public init(url: URL) throws {
        queue = try GRDBConnection.open(url)
        try queue.write { try $0.execute(sql: PlainTable.create) }
    }

    public func run(count: Int) throws {
        try queue.inTransaction { db in
            for row in 0..<count {
                try PlainItem(row: row).insert(db)
            }
            return .commit
        }
    }
}

/// GRDB's `Row` cursor: iterate the rows, read ten columns by index.
public final class GRDBRowCursorFetch: FetchContender {
    public static let name = "GRDB Row cursor"
    let queue: DatabaseQueue

    public init(url: URL) throws {
        queue = try GRDBConnection.open(url)
    }

    public func run() throws -> Int64 {
        try queue.read { db in
            var sum: Int64 = 0
            let rows = try Row.fetchCursor(db, sql: FixtureTable.select)
            while let row = try rows.next() {
                for column in 0..<Shape.columnCount {
                    sum &+= row[column] as Int64
                }
            }
            return sum
        }
    }
}

/// A `FetchableRecord` struct of the fixture table decoded by hand from the row.
struct FixtureItem: FetchableRecord {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int64

    init(row: Row) {
        i0 = row[0]
        i1 = row[1]
        i2 = row[2]
        i3 = row[3]
        i4 = row[4]
        i5 = row[5]
        i6 = row[6]
        i7 = row[7]
        i8 = row[8]
        i9 = row[9]
    }

    var sum: Int64 { i0 &+ i1 &+ i2 &+ i3 &+ i4 &+ i5 &+ i6 &+ i7 &+ i8 &+ i9 }
}

/// GRDB's `FetchableRecord` structs (`init(row:)` written by hand): `fetchAll`, then every property read.
public final class GRDBRecordFetch: FetchContender {
    public static let name = "GRDB FetchableRecord"
    let queue: DatabaseQueue

    public init(url: URL) throws {
        queue = try GRDBConnection.open(url)
    }

    public func run() throws -> Int64 {
        try queue.read { db in
            try FixtureItem.fetchAll(db, sql: FixtureTable.select).reduce(0) { $0 &+ $1.sum }
        }
    }
}

/// A `Codable` `FetchableRecord` struct of the fixture table (GRDB decodes it through `Decodable`).
struct CodableFixtureItem: Decodable, FetchableRecord {
    var i0, i1, i2, i3, i4, i5, i6, i7, i8, i9: Int64

    enum CodingKeys: String, CodingKey {
        case i0 = "ZI0", i1 = "ZI1", i2 = "ZI2", i3 = "ZI3", i4 = "ZI4"
        case i5 = "ZI5", i6 = "ZI6", i7 = "ZI7", i8 = "ZI8", i9 = "ZI9"
    }

    var sum: Int64 { i0 &+ i1 &+ i2 &+ i3 &+ i4 &+ i5 &+ i6 &+ i7 &+ i8 &+ i9 }
}

/// GRDB's `Codable` records: `fetchAll`, then every property read.
public final class GRDBCodableRecordFetch: FetchContender {
    public static let name = "GRDB Codable record"
    let queue: DatabaseQueue

    public init(url: URL) throws {
        queue = try GRDBConnection.open(url)
    }

    public func run() throws -> Int64 {
        try queue.read { db in
            try CodableFixtureItem.fetchAll(db, sql: FixtureTable.select).reduce(0) { $0 &+ $1.sum }
        }
    }
}
