import Testing

@testable import OpenCoreDataCore

/// Objects that outlive their context: once the context goes away, each reads `nil` for its
/// `managedObjectContext` and keeps the values it had loaded, whatever state it was in.
@Suite("Context lifetime")
struct ContextLifetimeTests {
    /// A weak reference, to see whether the context is gone.
    final class Weak {
        weak var context: NSManagedObjectContext?
        init(_ context: NSManagedObjectContext) { self.context = context }
    }

    /// Objects in every state a context holds, with the context released afterwards.
    private struct Survivors {
        let saved: NSManagedObject
        let inserted: NSManagedObject
        let updated: NSManagedObject
        let deleted: NSManagedObject
        let fetched: NSManagedObject
    }

    @Test("objects inserted, updated, deleted, fetched and saved read a nil context once it is released")
    func objectsOutliveTheirContext() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (coordinator, _) = try StoreKit.sqliteCoordinator(
            StoreKit.blogModel(),
            at: directory.appendingPathComponent("Blog.sqlite"))
        var watcher: Weak?
        let survivors: Survivors = try {
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            watcher = Weak(context)
            return try context.performAndWait {
                for label in ["a", "b", "c", "d"] {
                    NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context).setValue(label, forKey: "label")
                }
                try context.save()
                let tags = try context.fetch(StoreKit.request("Tag", sort: [NSSortDescriptor(key: "label", ascending: true)]))
                tags[1].setValue("b2", forKey: "label")
                context.delete(tags[2])
                let inserted = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
                inserted.setValue("e", forKey: "label")
                #expect(tags.allSatisfy { $0.managedObjectContext === context })
                return Survivors(saved: tags[0], inserted: inserted, updated: tags[1], deleted: tags[2], fetched: tags[3])
            }
        }()
        #expect(watcher?.context == nil)
        for object in [survivors.saved, survivors.inserted, survivors.updated, survivors.deleted, survivors.fetched] {
            #expect(object.managedObjectContext == nil)
        }
        #expect(survivors.inserted.value(forKey: "label") as? String == "e")
        #expect(survivors.updated.value(forKey: "label") as? String == "b2")
    }
}
