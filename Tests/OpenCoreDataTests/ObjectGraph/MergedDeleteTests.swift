import OpenCoreData
import Testing

/// `mergeChanges(fromContextDidSave:)` of a delete, as Apple's Core Data merges it.
@Suite("Merging a saved delete")
struct MergedDeleteTests {
    @Test("a referenced instance stays registered, is no fault, is deleted and reads its old values; fetches no longer find it")
    func deletedInstanceStays() throws {
        let stack = try GraphStack()
        let reader = stack.context()
        let writer = stack.context()
        reader.make("Author", ["name": "Ann"])
        reader.make("Author", ["name": "Cid"])
        try reader.save()
        let cid = try #require(try reader.all("Author", predicate: NSPredicate(format: "name == 'Cid'")).first)
        #expect(!cid.isFault)

        let doomed = try #require(try writer.all("Author", predicate: NSPredicate(format: "name == 'Cid'")).first)
        writer.delete(doomed)
        let recorder = NotificationRecorder([.NSManagedObjectContextDidSave], object: writer)
        try writer.save()
        let note = try #require(recorder.notifications.first)

        reader.mergeChanges(fromContextDidSave: note)
        #expect(reader.registeredObjects.contains(cid))
        #expect(cid.managedObjectContext === reader)
        #expect(!cid.isFault)
        #expect(cid.isDeleted)
        #expect(cid.value(forKey: "name") as? String == "Cid")
        #expect(try reader.all("Author").compactMap { $0.value(forKey: "name") as? String } == ["Ann"])
        #expect(try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Author")) == 1)
        #expect(!reader.hasChanges)
        try reader.save()
    }
}
