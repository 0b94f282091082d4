import Foundation
import GRDB
import GRDBSQLite
import OpenCoreData

// The cascade-delete workload (issue 47): the 10,000 authors numbered below 10,000 deleted with their
// 100,000 posts (the `posts` relationship's cascade rule), in one save. Each contender returns the number
// of authors it deleted; the file's remaining authors and posts are checked afterwards.

/// The cascade-delete workload's figures.
public enum CascadeDeleteShape {
    /// Authors deleted: those numbered below this.
    public static let authors = 10_000
}

/// Deletes the authors numbered below `CascadeDeleteShape.authors` through `context` (objects of the
/// subclass or plain ones) and saves: Core Data's cascade deletes their posts.
func deleteAuthors<Object: NSManagedObject>(_ context: NSManagedObjectContext, as type: Object.Type) throws -> Int64 {
    try context.performAndWait {
        let request = NSFetchRequest<Object>(entityName: "Author")
        request.predicate = NSPredicate(format: "number < %lld", Int64(CascadeDeleteShape.authors))
        let authors = try context.fetch(request)
        for author in authors { context.delete(author) }
        try context.save()
        return Int64(authors.count)
    }
}

/// OpenCoreData, `Author` subclass: the authors fetched with a predicate, each `delete(_:)`d, one `save()`.
public struct OpenCoreDataCascadeDelete: Contender {
    public static let name = "OpenCoreData"
    let context: NSManagedObjectContext
    public init(url: URL) throws { context = try AuthorModel.context(at: url, plain: false) }
    public func run() throws -> Int64 { try deleteAuthors(context, as: Author.self) }
}

/// OpenCoreData, plain `NSManagedObject`s: the same.
public struct OpenCoreDataKVCCascadeDelete: Contender {
    public static let name = "OpenCoreData KVC"
    let context: NSManagedObjectContext
    public init(url: URL) throws { context = try AuthorModel.context(at: url, plain: true) }
    public func run() throws -> Int64 { try deleteAuthors(context, as: NSManagedObject.self) }
}

/// Raw SQLite: one transaction deleting the posts of those authors, then the authors.
public final class RawSQLiteCascadeDelete: Contender {
    public static let name = "raw SQLite"
    static let posts = "DELETE FROM ZPOST WHERE ZAUTHOR IN (SELECT Z_PK FROM ZAUTHOR WHERE ZNUMBER < ?)"
    static let authors = "DELETE FROM ZAUTHOR WHERE ZNUMBER < ?"
    let connection: RawConnection

    public init(url: URL) throws { connection = try RawConnection(url: url) }

    public func run() throws -> Int64 {
        try connection.execute("BEGIN IMMEDIATE")
        for sql in [Self.posts, Self.authors] {
            let statement = try connection.prepare(sql)
            defer { sqlite3_finalize(statement) }
            sqlite3_bind_int64(statement, 1, Int64(CascadeDeleteShape.authors))
            guard sqlite3_step(statement) == SQLITE_DONE else { throw connection.error(sql) }
        }
        let deleted = Int64(sqlite3_changes(connection.handle))
        try connection.execute("COMMIT")
        return deleted
    }
}

/// An author row as a GRDB record of its key, decoded and encoded by hand.
struct AuthorKeyRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "ZAUTHOR"
    var key: Int64
    init(row: Row) { key = row[0] }
    func encode(to container: inout PersistenceContainer) { container["Z_PK"] = key }
}

/// The same through `Codable`.
struct CodableAuthorKey: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "ZAUTHOR"
    var key: Int64
    enum CodingKeys: String, CodingKey { case key = "Z_PK" }
}

/// The SELECT of the GRDB contenders: the authors to delete.
let doomedAuthors = "SELECT Z_PK FROM ZAUTHOR WHERE ZNUMBER < ?"

/// GRDB records: the authors fetched as records; for each, its posts deleted with a cached statement
/// and the record `delete(_:)`d, in one write transaction (what the cascade rule does for Core Data).
public final class GRDBRecordCascadeDelete: Contender {
    public static let name = "GRDB FetchableRecord"
    let queue: DatabaseQueue
    public init(url: URL) throws { queue = try GRDBConnection.open(url) }
    public func run() throws -> Int64 {
        try queue.write { db in
            let posts = try db.cachedStatement(sql: "DELETE FROM ZPOST WHERE ZAUTHOR = ?")
            var deleted: Int64 = 0
            for author in try AuthorKeyRecord.fetchAll(db, sql: doomedAuthors, arguments: [CascadeDeleteShape.authors]) {
                try posts.execute(arguments: [author.key])
                if try author.delete(db) { deleted += 1 }
            }
            return deleted
        }
    }
}

/// GRDB `Codable` records: the same through `Codable` records.
public final class GRDBCodableCascadeDelete: Contender {
    public static let name = "GRDB Codable record"
    let queue: DatabaseQueue
    public init(url: URL) throws { queue = try GRDBConnection.open(url) }
    public func run() throws -> Int64 {
        try queue.write { db in
            let posts = try db.cachedStatement(sql: "DELETE FROM ZPOST WHERE ZAUTHOR = ?")
            var deleted: Int64 = 0
            for author in try CodableAuthorKey.fetchAll(db, sql: doomedAuthors, arguments: [CascadeDeleteShape.authors]) {
                try posts.execute(arguments: [author.key])
                if try author.delete(db) { deleted += 1 }
            }
            return deleted
        }
    }
}
