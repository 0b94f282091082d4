import OpenCoreData

/// A blog model built in code, and coordinators with real stores in temporary directories, shared by
/// the object-graph tests.
enum BlogModel {
    /// Author(name!, age, posts ->> Post), Post(title!, body, created, rating, views, published,
    /// author -> Author, tags <<->> Tag), Tag(name, posts), Book(title, chapters ordered ->> Chapter),
    /// Chapter(title, book).
    static func make() -> NSManagedObjectModel {
        let author = ModelKit.entity("Author")
        let post = ModelKit.entity("Post")
        let tag = ModelKit.entity("Tag")
        let book = ModelKit.entity("Book")
        let chapter = ModelKit.entity("Chapter")
        for entity in [author, post, tag, book, chapter] { entity.managedObjectClassName = "NSManagedObject" }

        let authorPosts = ModelKit.relationship("posts", to: post, toMany: true)
        let postAuthor = ModelKit.relationship("author", to: author)
        ModelKit.pair(authorPosts, postAuthor)
        let postTags = ModelKit.relationship("tags", to: tag, toMany: true)
        let tagPosts = ModelKit.relationship("posts", to: post, toMany: true)
        ModelKit.pair(postTags, tagPosts)
        let bookChapters = ModelKit.relationship("chapters", to: chapter, toMany: true)
        bookChapters.isOrdered = true
        let chapterBook = ModelKit.relationship("book", to: book)
        ModelKit.pair(bookChapters, chapterBook)

        let views = ModelKit.attribute("views", .integer64AttributeType)
        views.defaultValue = 0
        let published = ModelKit.attribute("published", .booleanAttributeType)
        published.defaultValue = false
        let age = ModelKit.attribute("age", .integer16AttributeType)

        author.properties = [ModelKit.attribute("name", .stringAttributeType, optional: false), age, authorPosts]
        post.properties = [
            ModelKit.attribute("title", .stringAttributeType, optional: false),
            ModelKit.attribute("body", .stringAttributeType),
            ModelKit.attribute("created", .dateAttributeType),
            ModelKit.attribute("rating", .doubleAttributeType),
            views, published,
            ModelKit.attribute("draft", .stringAttributeType, transient: true),
            postAuthor, postTags,
        ]
        tag.properties = [ModelKit.attribute("name", .stringAttributeType), tagPosts]
        book.properties = [ModelKit.attribute("title", .stringAttributeType), bookChapters]
        chapter.properties = [ModelKit.attribute("title", .stringAttributeType), chapterBook]

        let model = NSManagedObjectModel()
        model.entities = [author, post, tag, book, chapter]
        return model
    }
}

/// A temporary directory removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = TestScratch.root.appendingPathComponent("graph-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }
}

/// The kinds of store the object-graph tests run against.
enum TestStoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite, inMemory
    var description: String { rawValue }
}

/// A coordinator with one store, and the directory holding the store's file.
struct GraphStack {
    let directory: TemporaryDirectory
    let model: NSManagedObjectModel
    let coordinator: NSPersistentStoreCoordinator
    let storeURL: URL

    init(
        _ kind: TestStoreKind = .sqlite, model: NSManagedObjectModel = BlogModel.make(),
        directory: TemporaryDirectory = TemporaryDirectory(), fileName: String = "Blog.sqlite"
    ) throws {
        self.directory = directory
        self.model = model
        storeURL = directory.file(fileName)
        coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        switch kind {
        case .sqlite: try coordinator.addPersistentStore(type: .sqlite, at: storeURL)
        case .inMemory: try coordinator.addPersistentStore(type: .inMemory, at: storeURL)
        }
    }

    /// A second coordinator on the same store file.
    func secondCoordinator() throws -> NSPersistentStoreCoordinator {
        let other = NSPersistentStoreCoordinator(managedObjectModel: model)
        try other.addPersistentStore(type: .sqlite, at: storeURL)
        return other
    }

    /// A context on a new coordinator of the store (an empty row cache) whose SQL statements `recorder`
    /// captures.
    func recordedContext(_ recorder: SQLDebugLogRecorder) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        coordinator.sqlDebugLog = recorder.log(level: 1)
        try coordinator.addPersistentStore(type: .sqlite, at: storeURL)
        return context(coordinator)
    }

    /// A new context on the coordinator (confined to the calling test: private queue, used directly
    /// or through performAndWait).
    func context(_ coordinator: NSPersistentStoreCoordinator? = nil) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator ?? self.coordinator
        return context
    }
}

extension NSManagedObjectContext {
    /// Inserts an object of the named entity with the given values.
    @discardableResult
    func make(_ entityName: String, _ values: [String: Any?] = [:]) -> NSManagedObject {
        let object = NSEntityDescription.insertNewObject(forEntityName: entityName, into: self)
        for (key, value) in values { object.setValue(value, forKey: key) }
        return object
    }

    /// Fetches the named entity, sorted by a key when given.
    func all(_ entityName: String, sortedBy key: String? = nil, predicate: NSPredicate? = nil) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: entityName)
        request.predicate = predicate
        if let key { request.sortDescriptors = [NSSortDescriptor(key: key, ascending: true)] }
        return try fetch(request)
    }
}
