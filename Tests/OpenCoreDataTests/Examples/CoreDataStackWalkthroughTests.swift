import OpenCoreData
import Testing

final class WalkthroughNote: NSManagedObject {
    @Managed var text: String?
    @Managed var created: Date?

    @nonobjc class func fetchRequest() -> NSFetchRequest<WalkthroughNote> {
        NSFetchRequest<WalkthroughNote>(entityName: "Note")
    }
}

/// The whole path a Core Data user walks, written as Apple's documentation writes it: container,
/// description with pragmas, insert by name and by subclass, save, fetch with predicate, sort and page.
@Suite("A Core Data stack, start to finish")
struct CoreDataStackWalkthroughTests {
    static func makeModel() -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        let user = NSEntityDescription()
        user.name = "User"
        let name = NSAttributeDescription()
        name.name = "name"
        name.attributeType = .stringAttributeType
        user.properties = [name]
        let note = NSEntityDescription()
        note.name = "Note"
        note.managedObjectClassName = NSStringFromClass(WalkthroughNote.self)
        let text = NSAttributeDescription()
        text.name = "text"
        text.attributeType = .stringAttributeType
        let created = NSAttributeDescription()
        created.name = "created"
        created.attributeType = .dateAttributeType
        note.properties = [text, created]
        model.entities = [user, note]
        return model
    }

    @Test("insert, save, reopen and fetch a page, as the object-graph issue's user does")
    func walkthrough() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let storeURL = directory.appendingPathComponent("Blog.sqlite")
        let model = Self.makeModel()

        do {
            let container = NSPersistentContainer(name: "Blog", managedObjectModel: model)
            let description = NSPersistentStoreDescription(url: storeURL)
            description.setOption(["journal_mode": "WAL"] as NSDictionary, forKey: NSSQLitePragmasOption)
            container.persistentStoreDescriptions = [description]
            var loadError: (any Error)?
            container.loadPersistentStores { _, error in loadError = error }
            #expect(loadError == nil)
            let context = container.viewContext
            let user = NSEntityDescription.insertNewObject(forEntityName: "User", into: context)
            user.setValue("Ann", forKey: "name")
            let start = Date(timeIntervalSinceReferenceDate: 0)
            for i in 0..<70 {
                let note = WalkthroughNote(context: context)
                note.text = i % 2 == 0 ? "hello \(i)" : "bye \(i)"
                note.created = start.addingTimeInterval(Double(i))
            }
            try context.save()
            #expect(!context.hasChanges)
        }

        let container = NSPersistentContainer(name: "Blog", managedObjectModel: model)
        container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: storeURL)]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        #expect(loadError == nil)
        let context = container.viewContext
        let request: NSFetchRequest<WalkthroughNote> = WalkthroughNote.fetchRequest()
        request.predicate = NSPredicate(format: "text BEGINSWITH %@", "he")
        request.sortDescriptors = [NSSortDescriptor(key: "created", ascending: false)]
        request.fetchLimit = 20
        request.fetchOffset = 10
        let notes = try context.fetch(request)
        #expect(notes.count == 20)
        #expect(notes.first?.text == "hello 48")
        #expect(notes.last?.text == "hello 10")
        let all = NSFetchRequest<WalkthroughNote>(entityName: "Note")
        all.predicate = request.predicate
        #expect(try context.count(for: all) == 35)
        let users = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "User"))
        #expect(users.map { $0.value(forKey: "name") as? String } == ["Ann"])
    }
}
