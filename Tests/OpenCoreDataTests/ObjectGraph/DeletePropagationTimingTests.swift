import OpenCoreData
import Testing

/// `propagatesDeletesAtEndOfEvent`: delete rules run at the end of each event by default, and only at
/// save when it is `false`.
@Suite("Delete propagation timing")
struct DeletePropagationTimingTests {
    /// Folder.items (to-many, cascade) ⟷ Item.folder (to-one, nullify).
    static func context(at url: URL) throws -> NSManagedObjectContext {
        let folder = ModelKit.entity("Folder", [ModelKit.attribute("title", .stringAttributeType)])
        let item = ModelKit.entity("Item", [ModelKit.attribute("name", .stringAttributeType)])
        let items = ModelKit.relationship("items", to: item, toMany: true)
        items.deleteRule = .cascadeDeleteRule
        let owner = ModelKit.relationship("folder", to: folder)
        owner.deleteRule = .nullifyDeleteRule
        ModelKit.pair(items, owner)
        folder.properties += [items]
        item.properties += [owner]
        let model = NSManagedObjectModel()
        model.entities = [folder, item]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    static func makeFolder(in context: NSManagedObjectContext, items: Int) -> (NSManagedObject, [NSManagedObject]) {
        let folder = NSEntityDescription.insertNewObject(forEntityName: "Folder", into: context)
        let children = (0..<items).map { index -> NSManagedObject in
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            item.setValue("item \(index)", forKey: "name")
            item.setValue(folder, forKey: "folder")
            return item
        }
        return (folder, children)
    }

    static func count(_ entity: String, in context: NSManagedObjectContext) throws -> Int {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.includesPendingChanges = false
        return try context.count(for: request)
    }

    @Test("by default a cascade runs at the end of the event")
    func defaultPropagatesAtEndOfEvent() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = try Self.context(at: directory.appendingPathComponent("S.sqlite"))
        try context.performAndWait {
            #expect(context.propagatesDeletesAtEndOfEvent)
            let (folder, items) = Self.makeFolder(in: context, items: 2)
            try context.save()
            context.delete(folder)
            context.processPendingChanges()
            #expect(items.allSatisfy { $0.isDeleted })
            #expect(context.deletedObjects.count == 3)
        }
    }

    @Test("when false, deleted objects keep their relationships until save, and the save runs the rules")
    func deferredUntilSave() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = try Self.context(at: directory.appendingPathComponent("S.sqlite"))
        try context.performAndWait {
            context.propagatesDeletesAtEndOfEvent = false
            #expect(!context.propagatesDeletesAtEndOfEvent)
            let (folder, items) = Self.makeFolder(in: context, items: 2)
            let kept = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            try context.save()
            context.delete(folder)
            context.processPendingChanges()
            #expect(folder.isDeleted)
            #expect(items.allSatisfy { !$0.isDeleted })
            #expect(items.allSatisfy { $0.value(forKey: "folder") as? NSManagedObject === folder })
            #expect(context.deletedObjects.count == 1)
            try context.save()
            #expect(try Self.count("Folder", in: context) == 0)
            #expect(try Self.count("Item", in: context) == 1)
            #expect(kept.managedObjectContext === context)
        }
    }

    @Test("when false, an unsaved folder deleted before the save takes its unsaved items with it at save")
    func deferredForInsertedObjects() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = try Self.context(at: directory.appendingPathComponent("S.sqlite"))
        try context.performAndWait {
            context.propagatesDeletesAtEndOfEvent = false
            let (folder, items) = Self.makeFolder(in: context, items: 3)
            context.processPendingChanges()
            context.delete(folder)
            context.processPendingChanges()
            // The deleted new folder is still known, so its items can still reach it through the rules.
            #expect(folder.isDeleted)
            #expect(items.allSatisfy { !$0.isDeleted })
            try context.save()
            #expect(try Self.count("Folder", in: context) == 0)
            #expect(try Self.count("Item", in: context) == 0)
            #expect(!context.hasChanges)
        }
    }
}
