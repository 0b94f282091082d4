import OpenCoreData
import Testing

final class KeyPathAuthor: NSManagedObject {
    @Managed var name: String
    @Managed var born: Date
    @Managed var books: Set<KeyPathBook>
    @Managed var awards: NSOrderedSet?
}

final class KeyPathBook: NSManagedObject {
    @Managed var title: String?
    @Managed var pages: Int32
    @Managed var isbn: UUID
    @Managed var author: KeyPathAuthor?
    @Managed var editor: KeyPathAuthor
    @Managed var tags: NSSet
}

/// Swift key paths to `@Managed` properties name their Core Data keys, as `#keyPath` and
/// `NSSortDescriptor(keyPath:)` do on Apple platforms (Xcode's template sorts `\Item.timestamp`).
@Suite("Swift key paths to managed properties")
struct ManagedKeyPathTests {
    @Test("a key path to an attribute names it, for every declared type")
    func attributes() {
        #expect(NSSortDescriptor(keyPath: \KeyPathBook.title, ascending: true).key == "title")
        #expect(NSSortDescriptor(keyPath: \KeyPathBook.pages, ascending: false).key == "pages")
        #expect(NSSortDescriptor(keyPath: \KeyPathBook.isbn, ascending: true).key == "isbn")
        #expect(NSSortDescriptor(keyPath: \KeyPathAuthor.name, ascending: true).key == "name")
        #expect(NSSortDescriptor(keyPath: \KeyPathAuthor.born, ascending: true).key == "born")
    }

    @Test("a key path through a to-one relationship names every step")
    func throughRelationships() {
        #expect(NSSortDescriptor(keyPath: \KeyPathBook.author?.name, ascending: true).key == "author.name")
        #expect(NSSortDescriptor(keyPath: \KeyPathBook.editor.born, ascending: true).key == "editor.born")
        #expect(NSExpression(forKeyPath: \KeyPathBook.author?.name).keyPath == "author.name")
    }

    @Test("key paths to to-many relationships name them")
    func toMany() {
        #expect(NSSortDescriptor(keyPath: \KeyPathAuthor.books, ascending: true).key == "books")
        #expect(NSSortDescriptor(keyPath: \KeyPathAuthor.awards, ascending: true).key == "awards")
        #expect(NSSortDescriptor(keyPath: \KeyPathBook.tags, ascending: true).key == "tags")
    }

    @Test("a sort descriptor made from a key path sorts fetched objects")
    func sortsFetchedObjects() throws {
        let model = NSManagedObjectModel()
        let book = NSEntityDescription()
        book.name = "KeyPathBook"
        book.managedObjectClassName = NSStringFromClass(KeyPathBook.self)
        let title = NSAttributeDescription()
        title.name = "title"
        title.attributeType = .stringAttributeType
        book.properties = [title]
        model.entities = [book]
        let container = NSPersistentContainer(name: "KeyPaths", managedObjectModel: model)
        let description = NSPersistentStoreDescription()
        description.type = NSInMemoryStoreType
        container.persistentStoreDescriptions = [description]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        #expect(failure == nil)
        let context = container.viewContext
        for name in ["b", "c", "a"] {
            let object = NSEntityDescription.insertNewObject(forEntityName: "KeyPathBook", into: context)
            object.setValue(name, forKey: "title")
        }
        try context.save()
        let request = NSFetchRequest<NSManagedObject>(entityName: "KeyPathBook")
        request.sortDescriptors = [NSSortDescriptor(keyPath: \KeyPathBook.title, ascending: false)]
        let titles = try context.fetch(request).map { $0.value(forKey: "title") as? String }
        #expect(titles == ["c", "b", "a"])
    }
}
