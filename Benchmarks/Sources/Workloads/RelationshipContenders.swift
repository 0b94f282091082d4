import Foundation
import GRDB
import GRDBSQLite
import OpenCoreData

// The relationship workloads (issue 47): posts fetched with their authors prefetched, reading each
// author's name; and every author's to-many `posts` walked. Each contender returns the checksum of
// `AuthorModel`.

/// The last byte of a name, as a number (the prefetch checksum's factor).
@inline(__always)
func lastByte(_ name: String) -> Int64 { Int64(name.utf8.last ?? 0) }

/// OpenCoreData, `@Managed`: `NSFetchRequest<Post>` with `relationshipKeyPathsForPrefetching = ["author"]`,
/// every post's `number` and its author's `name` read.
public struct OpenCoreDataPrefetch: Contender {
    public static let name = "OpenCoreData"
    let context: NSManagedObjectContext

    public init(url: URL) throws { context = try AuthorModel.context(at: url, plain: false) }

    public func run() throws -> Int64 {
        try context.performAndWait {
            let request = NSFetchRequest<Post>(entityName: "Post")
            request.relationshipKeyPathsForPrefetching = ["author"]
            var sum: Int64 = 0
            for post in try context.fetch(request) {
                guard let author = post.author else { throw WorkloadError("a post without its author") }
                sum &+= post.number &* lastByte(author.name)
            }
            return sum
        }
    }
}

/// OpenCoreData, key-value coding on plain `NSManagedObject`s: the same fetch, read through
/// `value(forKey:)` cast `as? NSManagedObject`, `as? String`, `as? Int64`.
public struct OpenCoreDataKVCPrefetch: Contender {
    public static let name = "OpenCoreData KVC"
    let context: NSManagedObjectContext

    public init(url: URL) throws { context = try AuthorModel.context(at: url, plain: true) }

    public func run() throws -> Int64 {
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Post")
            request.relationshipKeyPathsForPrefetching = ["author"]
            var sum: Int64 = 0
            for post in try context.fetch(request) {
                guard let author = post.value(forKey: "author") as? NSManagedObject,
                    let name = author.value(forKey: "name") as? String,
                    let number = post.value(forKey: "number") as? Int64
                else { throw WorkloadError("a post without its values") }
                sum &+= number &* lastByte(name)
            }
            return sum
        }
    }
}

/// Raw SQLite: one join of posts and authors, step, read the number and the name.
public final class RawSQLitePrefetch: Contender {
    public static let name = "raw SQLite"
    static let sql = "SELECT ZPOST.ZNUMBER, ZAUTHOR.ZNAME FROM ZPOST JOIN ZAUTHOR ON ZAUTHOR.Z_PK = ZPOST.ZAUTHOR"
    let connection: RawConnection

    public init(url: URL) throws { connection = try RawConnection(url: url) }

    public func run() throws -> Int64 {
        let statement = try connection.prepare(Self.sql)
        defer { sqlite3_finalize(statement) }
        var sum: Int64 = 0
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw connection.error(Self.sql) }
            let text = sqlite3_column_text(statement, 1)
            let length = Int(sqlite3_column_bytes(statement, 1))
            let last = length > 0 ? Int64(text?[length - 1] ?? 0) : 0
            sum &+= sqlite3_column_int64(statement, 0) &* last
        }
        return sum
    }
}

/// A post with its author's name, decoded by hand from a row of the join.
struct PostWithAuthor: FetchableRecord {
    var number: Int64
    var authorName: String
    init(row: Row) {
        number = row[0]
        authorName = row[1]
    }
}

/// The same, decoded through `Decodable`.
struct CodablePostWithAuthor: Decodable, FetchableRecord {
    var number: Int64
    var authorName: String
    enum CodingKeys: String, CodingKey { case number = "ZNUMBER", authorName = "ZNAME" }
}

/// GRDB `FetchableRecord`: the join fetched as records (`init(row:)` by hand), then read.
public final class GRDBRecordPrefetch: Contender {
    public static let name = "GRDB FetchableRecord"
    let queue: DatabaseQueue
    public init(url: URL) throws { queue = try GRDBConnection.open(url) }
    public func run() throws -> Int64 {
        try queue.read { db in
            try PostWithAuthor.fetchAll(db, sql: RawSQLitePrefetch.sql).reduce(0) { $0 &+ $1.number &* lastByte($1.authorName) }
        }
    }
}

/// GRDB `Codable` records: the join fetched as `Decodable` records, then read.
public final class GRDBCodablePrefetch: Contender {
    public static let name = "GRDB Codable record"
    let queue: DatabaseQueue
    public init(url: URL) throws { queue = try GRDBConnection.open(url) }
    public func run() throws -> Int64 {
        try queue.read { db in
            try CodablePostWithAuthor.fetchAll(db, sql: RawSQLitePrefetch.sql).reduce(0) { $0 &+ $1.number &* lastByte($1.authorName) }
        }
    }
}

/// OpenCoreData, `@Managed`: every author fetched, then each author's `posts` walked (a relationship
/// fault per author, as an app's code fires them), reading each post's number.
public struct OpenCoreDataWalk: Contender {
    public static let name = "OpenCoreData"
    let context: NSManagedObjectContext

    public init(url: URL) throws { context = try AuthorModel.context(at: url, plain: false) }

    public func run() throws -> Int64 {
        try context.performAndWait {
            var sum: Int64 = 0
            for author in try context.fetch(NSFetchRequest<Author>(entityName: "Author")) {
                let weight = author.number &* 31
                for post in author.posts { sum &+= weight &+ post.number }
            }
            return sum
        }
    }
}

/// OpenCoreData, key-value coding: the same walk through `value(forKey: "posts") as? Set<NSManagedObject>`.
public struct OpenCoreDataKVCWalk: Contender {
    public static let name = "OpenCoreData KVC"
    let context: NSManagedObjectContext

    public init(url: URL) throws { context = try AuthorModel.context(at: url, plain: true) }

    public func run() throws -> Int64 {
        try context.performAndWait {
            var sum: Int64 = 0
            for author in try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Author")) {
                guard let number = author.value(forKey: "number") as? Int64,
                    let posts = author.value(forKey: "posts") as? Set<NSManagedObject>
                else { throw WorkloadError("an author without values") }
                for post in posts {
                    guard let postNumber = post.value(forKey: "number") as? Int64 else { throw WorkloadError("a post without its number") }
                    sum &+= number &* 31 &+ postNumber
                }
            }
            return sum
        }
    }
}

/// Raw SQLite: the authors, then one prepared `SELECT … WHERE ZAUTHOR = ?` (indexed) per author.
public final class RawSQLiteWalk: Contender {
    public static let name = "raw SQLite"
    static let authors = "SELECT Z_PK, ZNUMBER FROM ZAUTHOR"
    static let posts = "SELECT ZNUMBER FROM ZPOST WHERE ZAUTHOR = ?"
    let connection: RawConnection

    public init(url: URL) throws { connection = try RawConnection(url: url) }

    public func run() throws -> Int64 {
        let authors = try connection.prepare(Self.authors)
        defer { sqlite3_finalize(authors) }
        let posts = try connection.prepare(Self.posts)
        defer { sqlite3_finalize(posts) }
        var sum: Int64 = 0
        while sqlite3_step(authors) == SQLITE_ROW {
            let weight = sqlite3_column_int64(authors, 1) &* 31
            sqlite3_bind_int64(posts, 1, sqlite3_column_int64(authors, 0))
            while sqlite3_step(posts) == SQLITE_ROW { sum &+= weight &+ sqlite3_column_int64(posts, 0) }
            sqlite3_reset(posts)
        }
        return sum
    }
}

/// An author record with its key and number.
struct AuthorRecord: FetchableRecord {
    var id: Int64
    var number: Int64
    init(row: Row) {
        id = row[0]
        number = row[1]
    }
}

/// GRDB `FetchableRecord`: the authors as records, then each author's posts as records of one number.
public final class GRDBRecordWalk: Contender {
    public static let name = "GRDB FetchableRecord"
    let queue: DatabaseQueue
    public init(url: URL) throws { queue = try GRDBConnection.open(url) }

    struct PostNumber: FetchableRecord {
        var number: Int64
        init(row: Row) { number = row[0] }
    }

    public func run() throws -> Int64 {
        try queue.read { db in
            var sum: Int64 = 0
            let statement = try db.cachedStatement(sql: RawSQLiteWalk.posts)
            for author in try AuthorRecord.fetchAll(db, sql: RawSQLiteWalk.authors) {
                let weight = author.number &* 31
                for post in try PostNumber.fetchAll(statement, arguments: [author.id]) { sum &+= weight &+ post.number }
            }
            return sum
        }
    }
}

/// GRDB `Codable` records: the same walk, decoded through `Decodable`.
public final class GRDBCodableWalk: Contender {
    public static let name = "GRDB Codable record"
    let queue: DatabaseQueue
    public init(url: URL) throws { queue = try GRDBConnection.open(url) }

    struct CodableAuthor: Decodable, FetchableRecord {
        var id: Int64
        var number: Int64
        enum CodingKeys: String, CodingKey { case id = "Z_PK", number = "ZNUMBER" }
    }

    struct CodablePost: Decodable, FetchableRecord {
        var number: Int64
        enum CodingKeys: String, CodingKey { case number = "ZNUMBER" }
    }

    public func run() throws -> Int64 {
        try queue.read { db in
            var sum: Int64 = 0
            let statement = try db.cachedStatement(sql: RawSQLiteWalk.posts)
            for author in try CodableAuthor.fetchAll(db, sql: RawSQLiteWalk.authors) {
                let weight = author.number &* 31
                for post in try CodablePost.fetchAll(statement, arguments: [author.id]) { sum &+= weight &+ post.number }
            }
            return sum
        }
    }
}
