import Foundation
import GRDBSQLite
import OpenCoreData

/// The entity of the text-and-dates workload: three strings (one optional), two dates, a double and a
/// Boolean, as a note-taking app's row has.
public final class Note: NSManagedObject {
    @Managed public var title: String
    @Managed public var body: String
    @Managed public var subtitle: String?
    @Managed public var created: Date
    @Managed public var modified: Date
    @Managed public var score: Double
    @Managed public var flag: Bool
}

/// The model of the text-and-dates workload (table `ZNOTE`) and the file it starts from: `rows` notes
/// whose values are functions of the row number, so that every contender's checksum can be computed.
public enum NoteModel {
    /// Notes in the fixture (`OCD_BENCH_ROWS` overrides).
    public static let rows = workloadRows(200_000)

    static func title(_ row: Int) -> String { "Note \(row)" }
    static func body(_ row: Int) -> String { "The body of note number \(row), long enough to live on the heap." }
    static func subtitle(_ row: Int) -> String? { row % 3 == 0 ? nil : "Subtitle \(row)" }
    static func created(_ row: Int) -> Double { 700_000_000 + Double(row) }
    static func modified(_ row: Int) -> Double { 700_000_000.5 + Double(row) * 2 }
    static func score(_ row: Int) -> Double { Double(row) * 0.25 }
    static func flag(_ row: Int) -> Bool { row % 2 == 0 }

    /// What a contender adds for one note: the title's last byte, the lengths of the body and the
    /// subtitle, the whole seconds of both dates, four times the score and the flag.
    @inline(__always)
    static func weight(
        title: String, body: String, subtitle: String?, created: Date, modified: Date, score: Double, flag: Bool
    ) -> Int64 {
        var sum = Int64(title.utf8.last ?? 0) &+ Int64(body.utf8.count) &+ Int64(subtitle?.utf8.count ?? 0)
        sum &+= Int64(created.timeIntervalSinceReferenceDate) &+ Int64(modified.timeIntervalSinceReferenceDate)
        return sum &+ Int64(score * 4) &+ (flag ? 1 : 0)
    }

    /// What every contender returns after reading every note.
    public static var checksum: Int64 {
        (0..<rows).reduce(0) { sum, row in
            sum
                &+ weight(
                    title: title(row), body: body(row), subtitle: subtitle(row),
                    created: Date(timeIntervalSinceReferenceDate: created(row)),
                    modified: Date(timeIntervalSinceReferenceDate: modified(row)), score: score(row), flag: flag(row))
        }
    }

    public static func make(plain: Bool) -> NSManagedObjectModel {
        let entity = makeEntity(
            "Note", className: plain ? "NSManagedObject" : String(reflecting: Note.self),
            properties: [
                makeAttribute("title", .stringAttributeType), makeAttribute("body", .stringAttributeType),
                makeAttribute("subtitle", .stringAttributeType, optional: true), makeAttribute("created", .dateAttributeType),
                makeAttribute("modified", .dateAttributeType), makeAttribute("score", .doubleAttributeType),
                makeAttribute("flag", .booleanAttributeType),
            ])
        let model = NSManagedObjectModel()
        model.entities = [entity]
        return model
    }

    /// One model per process and style, as an app has: the subclass, or plain `NSManagedObject`s.
    public static let shared = make(plain: false)
    public static let plainShared = make(plain: true)

    /// The SELECT of the raw SQLite and GRDB contenders, in the order of the attributes.
    static let select = "SELECT ZTITLE, ZBODY, ZSUBTITLE, ZCREATED, ZMODIFIED, ZSCORE, ZFLAG FROM ZNOTE"

    /// A file of `rows` notes, made by OpenCoreData for the model and filled through the C API.
    public static func fixture() throws -> StoreFixture {
        try StoreFixture(fileName: "Notes.sqlite", model: shared) { connection in
            let entity = try connection.integers("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Note'")[0]
            let sql = """
                INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZBODY, ZSUBTITLE, ZCREATED, ZMODIFIED, ZSCORE, ZFLAG)
                VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?)
                """
            let insert = try connection.prepare(sql)
            defer { sqlite3_finalize(insert) }
            for row in 0..<rows {
                sqlite3_bind_int64(insert, 1, Int64(row + 1))
                sqlite3_bind_int64(insert, 2, entity)
                sqlite3_bind_text(insert, 3, title(row), -1, transientText)
                sqlite3_bind_text(insert, 4, body(row), -1, transientText)
                if let subtitle = subtitle(row) {
                    sqlite3_bind_text(insert, 5, subtitle, -1, transientText)
                } else {
                    sqlite3_bind_null(insert, 5)
                }
                sqlite3_bind_double(insert, 6, created(row))
                sqlite3_bind_double(insert, 7, modified(row))
                sqlite3_bind_double(insert, 8, score(row))
                sqlite3_bind_int64(insert, 9, flag(row) ? 1 : 0)
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
