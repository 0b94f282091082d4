import GRDB
import Testing

@testable import OpenCoreDataCore

/// A blog model and helpers shared by the store tests: coordinators on temporary files, SQLite-level
/// reads of the files and file checksums.
enum StoreKit {
    /// Author (every attribute type) ⟷ posts: Post.author (to-one, inverse to-many);
    /// Post ⟷ Tag many-to-many; Folder.children ordered ⟷ Folder.parent; SpecialPost a subentity of Post.
    static func blogModel() -> NSManagedObjectModel {
        let author = ModelKit.entity(
            "Author",
            [
                ModelKit.attribute("name", .stringAttributeType),
                ModelKit.attribute("age", .integer64AttributeType),
                ModelKit.attribute("rank", .integer16AttributeType),
                ModelKit.attribute("born", .dateAttributeType),
                ModelKit.attribute("active", .booleanAttributeType),
                ModelKit.attribute("uid", .UUIDAttributeType),
                ModelKit.attribute("site", .URIAttributeType),
                ModelKit.attribute("rating", .doubleAttributeType),
                ModelKit.attribute("balance", .decimalAttributeType),
                ModelKit.attribute("photo", .binaryDataAttributeType),
            ])
        let post = ModelKit.entity("Post", [ModelKit.attribute("title", .stringAttributeType)])
        let special = ModelKit.entity("SpecialPost", [ModelKit.attribute("badge", .stringAttributeType)])
        let tag = ModelKit.entity("Tag", [ModelKit.attribute("label", .stringAttributeType)])
        let folder = ModelKit.entity("Folder", [ModelKit.attribute("title", .stringAttributeType)])
        post.subentities = [special]
        let posts = ModelKit.relationship("posts", to: post, toMany: true)
        let postAuthor = ModelKit.relationship("author", to: author)
        ModelKit.pair(posts, postAuthor)
        let tags = ModelKit.relationship("tags", to: tag, toMany: true)
        let tagPosts = ModelKit.relationship("posts", to: post, toMany: true)
        ModelKit.pair(tags, tagPosts)
        let children = ModelKit.relationship("children", to: folder, toMany: true)
        children.isOrdered = true
        let parent = ModelKit.relationship("parent", to: folder)
        ModelKit.pair(children, parent)
        author.properties += [posts]
        post.properties += [postAuthor, tags]
        tag.properties += [tagPosts]
        folder.properties += [children, parent]
        let model = NSManagedObjectModel()
        model.entities = [author, post, special, tag, folder]
        return model
    }

    /// A coordinator with a SQLite store at `url`.
    static func sqliteCoordinator(
        _ model: NSManagedObjectModel, at url: URL,
        options: [AnyHashable: Any]? = nil
    ) throws -> (NSPersistentStoreCoordinator, NSPersistentStore) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
        return (coordinator, store)
    }

    static func entity(_ coordinator: NSPersistentStoreCoordinator, _ name: String) throws -> NSEntityDescription {
        try #require(coordinator.managedObjectModel.entitiesByName[name])
    }

    /// Inserts one object per value dictionary, returning the permanent IDs in order.
    @discardableResult
    static func insert(
        _ coordinator: NSPersistentStoreCoordinator, _ entityName: String,
        _ rows: [[String: Any]]
    ) throws -> [NSManagedObjectID] {
        let entity = try entity(coordinator, entityName)
        var changes = StoreSaveChanges()
        let ids = rows.map { _ in NSManagedObjectID(temporaryFor: entity) }
        for (id, values) in zip(ids, rows) {
            changes.inserted.append(.init(objectID: id, values: values, toMany: [:]))
        }
        let result = try coordinator.save(changes)
        return try ids.map { try #require(result.permanentIDs[$0]) }
    }

    /// A coordinator, with nothing cached yet, on a blog store at `url` holding `count` tags labelled
    /// t1…tN (written through another coordinator).
    static func tagCoordinator(at url: URL, tags count: Int) throws -> NSPersistentStoreCoordinator {
        let model = blogModel()
        let (writer, _) = try sqliteCoordinator(model, at: url)
        try insert(writer, "Tag", (1...count).map { ["label": "t\($0)"] })
        for store in writer.persistentStores { try writer.remove(store) }
        return try sqliteCoordinator(model, at: url).0
    }

    /// Runs one SQL query on a file through a separate read-only connection.
    static func rows(_ url: URL, _ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { try Row.fetchAll($0, sql: sql, arguments: arguments) }
    }

    /// The bytes of what a store holds: the store file, its write-ahead log and its rollback journal,
    /// keyed by suffix ("", "-wal", "-journal"); absent files, and an empty `-wal`, are absent keys.
    ///
    /// The `-shm` file is not among them: it is SQLite's shared-memory index of the WAL, which every
    /// connection that reads the store writes (its read marks), as SQLite reads a store through ordinary
    /// connections (`Docs/Reliability.md`); and a reading connection may leave an empty `-wal`.
    static func files(_ url: URL, suffixes: [String] = ["", "-wal", "-journal"]) -> [String: Data] {
        var result: [String: Data] = [:]
        for suffix in suffixes {
            if let data = FileManager.default.contents(atPath: url.path + suffix), !(suffix == "-wal" && data.isEmpty) {
                result[suffix] = data
            }
        }
        return result
    }

    /// A fetch request for an entity of a coordinator's model.
    static func request(
        _ entityName: String, _ format: String? = nil, _ arguments: [Any] = [],
        sort: [NSSortDescriptor]? = nil
    ) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: entityName)
        if let format { request.predicate = NSPredicate(format: format, argumentArray: arguments) }
        request.sortDescriptors = sort
        return request
    }
}
