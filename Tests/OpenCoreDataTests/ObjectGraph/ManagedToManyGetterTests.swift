import Foundation
import OpenCoreData
import Testing

// A to-many relationship read through a `@Managed` getter, as Core Data's generated accessors read it.

final class GetterShelf: NSManagedObject {
    @Managed var name: String?
    @Managed var books: Set<GetterBook>?
    /// The keys `value(forKey:)` was asked for: a generated accessor does not go through it.
    nonisolated(unsafe) static var valueForKeyCalls: [String] = []

    override func value(forKey key: String) -> Any? {
        Self.valueForKeyCalls.append(key)
        return super.value(forKey: key)
    }
}

final class GetterBook: NSManagedObject {
    @Managed var title: String?
    @Managed var shelf: GetterShelf?
}

@Suite("@Managed to-many getters", .serialized)
struct ManagedToManyGetterTests {
    /// Shelves and books, one-to-many.
    static func model() -> NSManagedObjectModel {
        let shelf = NSEntityDescription()
        shelf.name = "GetterShelf"
        shelf.managedObjectClassName = NSStringFromClass(GetterShelf.self)
        let book = NSEntityDescription()
        book.name = "GetterBook"
        book.managedObjectClassName = NSStringFromClass(GetterBook.self)
        func text(_ name: String) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = .stringAttributeType
            attribute.isOptional = true
            return attribute
        }
        let books = NSRelationshipDescription()
        books.name = "books"
        books.destinationEntity = book
        books.maxCount = 0
        books.isOptional = true
        let owner = NSRelationshipDescription()
        owner.name = "shelf"
        owner.destinationEntity = shelf
        owner.maxCount = 1
        owner.isOptional = true
        books.inverseRelationship = owner
        owner.inverseRelationship = books
        shelf.properties = [text("name"), books]
        book.properties = [text("title"), owner]
        let model = NSManagedObjectModel()
        model.entities = [shelf, book]
        return model
    }

    @Test("an optional Set getter reads a fault's saved books and the context's new one, without value(forKey:)")
    func optionalSetGetter() throws {
        let directory = try TestScratch.directory("ManagedToManyGetter")
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = Self.model()
        let url = directory.appendingPathComponent("Shelves.sqlite")
        func context() throws -> NSManagedObjectContext {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            _ = try coordinator.addPersistentStore(type: .sqlite, at: url)
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            return context
        }
        let writer = try context()
        try writer.performAndWait {
            let shelf = GetterShelf(context: writer)
            shelf.name = "kitchen"
            for title in ["soups", "breads", "pies"] {
                let book = GetterBook(context: writer)
                book.title = title
                book.shelf = shelf
            }
            try writer.save()
        }
        let reader = try context()
        try reader.performAndWait {
            let request = NSFetchRequest<GetterShelf>(entityName: "GetterShelf")
            request.returnsObjectsAsFaults = true
            let shelf = try #require(try reader.fetch(request).first)
            #expect(shelf.isFault)
            GetterShelf.valueForKeyCalls = []
            let books = try #require(shelf.books)
            #expect(Set(books.compactMap(\.title)) == ["soups", "breads", "pies"])
            #expect(books.allSatisfy { $0.managedObjectContext === reader && $0.shelf === shelf })
            #expect(!GetterShelf.valueForKeyCalls.contains("books"))

            let added = GetterBook(context: reader)
            added.title = "cakes"
            added.shelf = shelf
            #expect(shelf.books?.count == 4)
            #expect(shelf.books?.contains(added) == true)
            // Key-value coding reads the same contents, through the override.
            #expect((shelf.value(forKey: "books") as? Set<NSManagedObject>)?.count == 4)
            #expect(GetterShelf.valueForKeyCalls.contains("books"))
        }
    }
}
