import Foundation
import GRDB
import GRDBSQLite
import OpenCoreData

// The text-and-dates workload (issue 47): every note fetched and each of its seven values read as
// the Swift value an app uses (`String`, `String?`, `Date`, `Double`, `Bool`). Each contender returns
// `NoteModel.checksum`.

/// OpenCoreData, `@Managed`: `NSFetchRequest<Note>`, every property read.
public struct OpenCoreDataTextAndDates: Contender {
    public static let name = "OpenCoreData"
    let context: NSManagedObjectContext

    public init(url: URL) throws { context = try NoteModel.context(at: url, plain: false) }

    public func run() throws -> Int64 {
        try context.performAndWait {
            var sum: Int64 = 0
            for note in try context.fetch(NSFetchRequest<Note>(entityName: "Note")) {
                sum &+= NoteModel.weight(
                    title: note.title, body: note.body, subtitle: note.subtitle, created: note.created,
                    modified: note.modified, score: note.score, flag: note.flag)
            }
            return sum
        }
    }
}

/// OpenCoreData, key-value coding on plain `NSManagedObject`s: every value read through
/// `value(forKey:)` cast `as? String`, `as? Date`, `as? Double`, `as? Bool`.
public struct OpenCoreDataKVCTextAndDates: Contender {
    public static let name = "OpenCoreData KVC"
    let context: NSManagedObjectContext

    public init(url: URL) throws { context = try NoteModel.context(at: url, plain: true) }

    public func run() throws -> Int64 {
        try context.performAndWait {
            var sum: Int64 = 0
            for note in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note")) {
                guard let title = note.value(forKey: "title") as? String,
                    let body = note.value(forKey: "body") as? String,
                    let created = note.value(forKey: "created") as? Date,
                    let modified = note.value(forKey: "modified") as? Date,
                    let score = note.value(forKey: "score") as? Double,
                    let flag = note.value(forKey: "flag") as? Bool
                else { throw WorkloadError("a note without its values") }
                let subtitle = note.value(forKey: "subtitle") as? String
                sum &+= NoteModel.weight(
                    title: title, body: body, subtitle: subtitle, created: created, modified: modified, score: score, flag: flag)
            }
            return sum
        }
    }
}

/// Raw SQLite: step through the notes, making each value's Swift value (`String(cString:)`,
/// `Date(timeIntervalSinceReferenceDate:)`).
public final class RawSQLiteTextAndDates: Contender {
    public static let name = "raw SQLite"
    let connection: RawConnection

    public init(url: URL) throws { connection = try RawConnection(url: url) }

    public func run() throws -> Int64 {
        let statement = try connection.prepare(NoteModel.select)
        defer { sqlite3_finalize(statement) }
        var sum: Int64 = 0
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW, let title = sqlite3_column_text(statement, 0), let body = sqlite3_column_text(statement, 1)
            else { throw connection.error(NoteModel.select) }
            let subtitle = sqlite3_column_text(statement, 2).map { String(cString: $0) }
            sum &+= NoteModel.weight(
                title: String(cString: title), body: String(cString: body), subtitle: subtitle,
                created: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, 3)),
                modified: Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, 4)),
                score: sqlite3_column_double(statement, 5), flag: sqlite3_column_int64(statement, 6) != 0)
        }
        return sum
    }
}

/// A note decoded by hand from a row (dates from Core Data's seconds since 2001).
struct NoteRecord: FetchableRecord {
    var title: String
    var body: String
    var subtitle: String?
    var created: Date
    var modified: Date
    var score: Double
    var flag: Bool

    init(row: Row) {
        title = row[0]
        body = row[1]
        subtitle = row[2]
        created = Date(timeIntervalSinceReferenceDate: row[3])
        modified = Date(timeIntervalSinceReferenceDate: row[4])
        score = row[5]
        flag = row[6]
    }

    var weight: Int64 {
        NoteModel.weight(title: title, body: body, subtitle: subtitle, created: created, modified: modified, score: score, flag: flag)
    }
}

/// The same note decoded through `Decodable` (dates with GRDB's `.timeIntervalSinceReferenceDate`).
struct CodableNote: Decodable, FetchableRecord {
    var title: String
    var body: String
    var subtitle: String?
    var created: Date
    var modified: Date
    var score: Double
    var flag: Bool

    enum CodingKeys: String, CodingKey {
        case title = "ZTITLE", body = "ZBODY", subtitle = "ZSUBTITLE", created = "ZCREATED", modified = "ZMODIFIED"
        case score = "ZSCORE", flag = "ZFLAG"
    }

    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSinceReferenceDate }

    var weight: Int64 {
        NoteModel.weight(title: title, body: body, subtitle: subtitle, created: created, modified: modified, score: score, flag: flag)
    }
}

/// GRDB `FetchableRecord`: every note fetched as a record (`init(row:)` by hand), then read.
public final class GRDBRecordTextAndDates: Contender {
    public static let name = "GRDB FetchableRecord"
    let queue: DatabaseQueue
    public init(url: URL) throws { queue = try GRDBConnection.open(url) }
    public func run() throws -> Int64 {
        try queue.read { db in try NoteRecord.fetchAll(db, sql: NoteModel.select).reduce(0) { $0 &+ $1.weight } }
    }
}

/// GRDB `Codable` records: every note fetched as a `Decodable` record, then read.
public final class GRDBCodableTextAndDates: Contender {
    public static let name = "GRDB Codable record"
    let queue: DatabaseQueue
    public init(url: URL) throws { queue = try GRDBConnection.open(url) }
    public func run() throws -> Int64 {
        try queue.read { db in try CodableNote.fetchAll(db, sql: NoteModel.select).reduce(0) { $0 &+ $1.weight } }
    }
}
