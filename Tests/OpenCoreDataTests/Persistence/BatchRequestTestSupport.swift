import GRDB
import OpenCoreData

/// A library model for the batch request tests: Shelf(name, books ->> Book), Book(title!, isbn, price,
/// pages, cover [external binary], shelf -> Shelf, tags <<->> Tag), Tag(name, books), and
/// Novel (a subentity of Book with genre). Book.isbn is a uniqueness constraint.
enum LibraryModel {
    static func make(shelfBooksRule: NSDeleteRule = .nullifyDeleteRule, bookTagsRule: NSDeleteRule = .nullifyDeleteRule) -> NSManagedObjectModel {
        let shelf = ModelKit.entity("Shelf")
        let book = ModelKit.entity("Book")
        let novel = ModelKit.entity("Novel")
        let tag = ModelKit.entity("Tag")
        for entity in [shelf, book, novel, tag] { entity.managedObjectClassName = "NSManagedObject" }

        let shelfBooks = ModelKit.relationship("books", to: book, toMany: true)
        shelfBooks.deleteRule = shelfBooksRule
        let bookShelf = ModelKit.relationship("shelf", to: shelf)
        ModelKit.pair(shelfBooks, bookShelf)
        let bookTags = ModelKit.relationship("tags", to: tag, toMany: true)
        bookTags.deleteRule = bookTagsRule
        let tagBooks = ModelKit.relationship("books", to: book, toMany: true)
        ModelKit.pair(bookTags, tagBooks)

        let pages = ModelKit.attribute("pages", .integer64AttributeType)
        pages.defaultValue = 100
        let cover = ModelKit.attribute("cover", .binaryDataAttributeType)
        cover.allowsExternalBinaryDataStorage = true
        shelf.properties = [ModelKit.attribute("name", .stringAttributeType), shelfBooks]
        book.properties = [
            ModelKit.attribute("title", .stringAttributeType, optional: false),
            ModelKit.attribute("isbn", .stringAttributeType),
            ModelKit.attribute("price", .doubleAttributeType),
            pages, cover, bookShelf, bookTags,
        ]
        book.uniquenessConstraints = [["isbn"]]
        novel.properties = [ModelKit.attribute("genre", .stringAttributeType)]
        book.subentities = [novel]
        tag.properties = [ModelKit.attribute("name", .stringAttributeType), tagBooks]

        let model = NSManagedObjectModel()
        model.entities = [shelf, book, novel, tag]
        return model
    }
}

extension GraphStack {
    /// A SQLite stack on the library model.
    static func library(shelfBooksRule: NSDeleteRule = .nullifyDeleteRule, bookTagsRule: NSDeleteRule = .nullifyDeleteRule) throws -> GraphStack {
        try GraphStack(
            .sqlite, model: LibraryModel.make(shelfBooksRule: shelfBooksRule, bookTagsRule: bookTagsRule),
            fileName: "Library.sqlite")
    }

    /// Saves `count` books priced 0, 1, 2, … with titles "Book 0", "Book 1", …; returns their IDs.
    @discardableResult
    func saveBooks(_ count: Int, entity: String = "Book", shelf: String? = nil) throws -> [NSManagedObjectID] {
        let context = self.context()
        return try context.performAndWait {
            let shelfObject = shelf.map { context.make("Shelf", ["name": $0]) }
            let books = (0..<count).map { index in
                context.make(
                    entity,
                    [
                        "title": "Book \(index)", "price": Double(index), "isbn": "\(entity)-\(index)",
                        "shelf": shelfObject,
                    ])
            }
            try context.save()
            return books.map(\.objectID)
        }
    }

    /// The values of one attribute of an entity's rows read by a fresh context, sorted.
    func values(_ entity: String, _ key: String, predicate: NSPredicate? = nil) throws -> [String] {
        let context = self.context()
        return try context.performAndWait {
            try context.all(entity, predicate: predicate).map { "\($0.value(forKeyPath: key) ?? "nil")" }.sorted()
        }
    }
}

extension StoreKit {
    /// Runs one SQL statement on a store file through a separate connection, as another program would.
    static func execute(_ url: URL, _ sql: String, _ arguments: StatementArguments = []) throws {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        try queue.write { try $0.execute(sql: sql, arguments: arguments) }
    }
}
