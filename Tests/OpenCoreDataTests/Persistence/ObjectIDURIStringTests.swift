import OpenCoreData
import Testing

/// `NSPersistentStoreCoordinator.managedObjectID(for:)`: an object ID back from the string form of its URI.
@Suite("Object IDs from URI strings")
struct ObjectIDURIStringTests {
    @Test("the string of a saved object's URI gives its ID back; other strings give nil")
    func roundTrip() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = NSManagedObjectModel()
        model.entities = [ModelKit.entity("Item", [ModelKit.attribute("name", .stringAttributeType)])]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: directory.appendingPathComponent("S.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let (saved, temporary) = try context.performAndWait {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
            let temporary = item.objectID.uriRepresentation().absoluteString
            try context.save()
            return (item.objectID, temporary)
        }
        let string = saved.uriRepresentation().absoluteString
        #expect(coordinator.managedObjectID(for: string) == saved)
        #expect(coordinator.managedObjectID(for: temporary) == nil)
        #expect(coordinator.managedObjectID(for: "") == nil)
        #expect(coordinator.managedObjectID(for: "not a uri at all") == nil)
        #expect(coordinator.managedObjectID(for: string.replacingOccurrences(of: "/Item/", with: "/Nope/")) == nil)
    }
}
