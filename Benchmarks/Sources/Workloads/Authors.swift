import Foundation
import GRDBSQLite
import OpenCoreData

/// The author of the relationship workloads: a name, a number and a to-many `posts`.
public final class Author: NSManagedObject {
    @Managed public var name: String
    @Managed public var number: Int64
    @Managed public var posts: Set<Post>
}

/// A post of the relationship workloads: a number and a to-one `author`.
public final class Post: NSManagedObject {
    @Managed public var number: Int64
    @Managed public var author: Author?
}

/// The model of the relationship workloads: `Author` (table `ZAUTHOR`: `ZNAME`, `ZNUMBER`) with a
/// to-many `posts` (cascade) and `Post` (table `ZPOST`: `ZNUMBER`, foreign key `ZAUTHOR`, indexed) with
/// its inverse `author`; and the file they start from, `authors` authors of `postsPerAuthor` posts each.
public enum AuthorModel {
    /// Authors of the fixture.
    public static let authors = 20_000
    /// Posts of each author.
    public static let postsPerAuthor = 10

    /// The name of author `a` (0-based): fixed width, so that its last byte varies with `a`.
    public static func name(_ a: Int) -> String { "Author " + String(100_000 + a).dropFirst() }
    /// The number of post `p` (0-based, `p / postsPerAuthor` is its author).
    public static func postNumber(_ p: Int) -> Int64 { Int64(p) }

    /// What every contender of the prefetch workload computes: over posts, number × the last byte of the
    /// author's name (so each post must be read with its own author).
    public static func prefetchChecksum(authors: Int = authors) -> Int64 {
        var sum: Int64 = 0
        for p in 0..<(authors * postsPerAuthor) {
            sum &+= postNumber(p) &* Int64(name(p / postsPerAuthor).utf8.last!)
        }
        return sum
    }

    /// What every contender of the walk workload computes: over authors and their posts, the author's
    /// number × 31 + the post's number.
    public static func walkChecksum(authors: Int = authors) -> Int64 {
        var sum: Int64 = 0
        for p in 0..<(authors * postsPerAuthor) {
            sum &+= Int64(p / postsPerAuthor) &* 31 &+ postNumber(p)
        }
        return sum
    }

    public static func make(plain: Bool) -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = false
            return attribute
        }
        let author = NSEntityDescription()
        author.name = "Author"
        author.managedObjectClassName = plain ? "NSManagedObject" : String(reflecting: Author.self)
        let post = NSEntityDescription()
        post.name = "Post"
        post.managedObjectClassName = plain ? "NSManagedObject" : String(reflecting: Post.self)
        let posts = NSRelationshipDescription()
        posts.name = "posts"
        posts.destinationEntity = post
        posts.maxCount = 0
        posts.isOptional = true
        posts.deleteRule = .cascadeDeleteRule
        let toAuthor = NSRelationshipDescription()
        toAuthor.name = "author"
        toAuthor.destinationEntity = author
        toAuthor.maxCount = 1
        toAuthor.isOptional = true
        toAuthor.deleteRule = .nullifyDeleteRule
        posts.inverseRelationship = toAuthor
        toAuthor.inverseRelationship = posts
        author.properties = [attribute("name", .stringAttributeType), attribute("number", .integer64AttributeType), posts]
        post.properties = [attribute("number", .integer64AttributeType), toAuthor]
        let model = NSManagedObjectModel()
        model.entities = [author, post]
        return model
    }

    /// One model per process and style, as an app has: subclasses, or plain `NSManagedObject`s.
    public static let shared = make(plain: false)
    public static let plainShared = make(plain: true)

    /// A file of `authors` authors and their posts, made by OpenCoreData for the model and filled through
    /// the C API.
    public static func fixture(authors: Int = authors) throws -> StoreFixture {
        try StoreFixture(fileName: "Authors.sqlite", model: shared) { connection in
            let authorEntity = try connection.integers("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Author'")[0]
            let postEntity = try connection.integers("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Post'")[0]
            let insertAuthor = try connection.prepare("INSERT INTO ZAUTHOR (Z_PK, Z_ENT, Z_OPT, ZNAME, ZNUMBER) VALUES (?, ?, 1, ?, ?)")
            defer { sqlite3_finalize(insertAuthor) }
            for a in 0..<authors {
                sqlite3_bind_int64(insertAuthor, 1, Int64(a + 1))
                sqlite3_bind_int64(insertAuthor, 2, authorEntity)
                sqlite3_bind_text(insertAuthor, 3, name(a), -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                sqlite3_bind_int64(insertAuthor, 4, Int64(a))
                guard sqlite3_step(insertAuthor) == SQLITE_DONE else { throw connection.error("INSERT INTO ZAUTHOR") }
                sqlite3_reset(insertAuthor)
            }
            let insertPost = try connection.prepare("INSERT INTO ZPOST (Z_PK, Z_ENT, Z_OPT, ZNUMBER, ZAUTHOR) VALUES (?, ?, 1, ?, ?)")
            defer { sqlite3_finalize(insertPost) }
            for p in 0..<(authors * postsPerAuthor) {
                sqlite3_bind_int64(insertPost, 1, Int64(p + 1))
                sqlite3_bind_int64(insertPost, 2, postEntity)
                sqlite3_bind_int64(insertPost, 3, postNumber(p))
                sqlite3_bind_int64(insertPost, 4, Int64(p / postsPerAuthor + 1))
                guard sqlite3_step(insertPost) == SQLITE_DONE else { throw connection.error("INSERT INTO ZPOST") }
                sqlite3_reset(insertPost)
            }
            try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(authors) WHERE Z_ENT = \(authorEntity)")
            try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(authors * postsPerAuthor) WHERE Z_ENT = \(postEntity)")
        }
    }

    /// A private-queue context on the store at `url`, WAL with `synchronous=NORMAL`, for subclasses or
    /// plain objects.
    public static func context(at url: URL, plain: Bool) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: plain ? plainShared : shared)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: ItemModel.storeOptions)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }
}
