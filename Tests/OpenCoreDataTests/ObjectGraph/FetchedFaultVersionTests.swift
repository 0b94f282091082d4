import OpenCoreData
import Testing

/// Faults a fetch returns keep the row they were fetched with (and its version), so they can fire
/// without reading the store again. That row must never make a save see a conflict that is not there:
/// deleting a fault that another context changed and saved through the same coordinator is not a
/// conflict, while a change the coordinator never saw still is.
@Suite("Fetched faults and optimistic locking")
struct FetchedFaultVersionTests {
    /// A writer and a reader on one coordinator; the reader holds the object as a fetched fault,
    /// after which the writer changes the object and saves.
    private func faultChangedElsewhere() throws -> (GraphStack, NSManagedObjectContext, NSManagedObject) {
        let stack = try GraphStack(model: Self.noteModel())
        let writer = stack.context()
        let ann = writer.make("Note", ["name": "Ann", "age": 3])
        try writer.save()
        let reader = stack.context()
        let fault = try #require(try reader.all("Note").first)
        #expect(fault.isFault)
        ann.setValue("Anne", forKey: "name")
        try writer.save()
        return (stack, reader, fault)
    }

    /// One entity without relationships: deleting it runs no delete rule, so nothing fires its fault.
    static func noteModel() -> NSManagedObjectModel {
        let note = ModelKit.entity("Note")
        note.managedObjectClassName = "NSManagedObject"
        note.properties = [ModelKit.attribute("name", .stringAttributeType), ModelKit.attribute("age", .integer16AttributeType)]
        let model = NSManagedObjectModel()
        model.entities = [note]
        return model
    }

    @Test("deleting a fetched fault another context changed since saves without a merge conflict")
    func deleteFaultChangedElsewhere() throws {
        let (stack, reader, fault) = try faultChangedElsewhere()
        reader.delete(fault)
        try reader.save()
        #expect(try stack.context().all("Note").isEmpty)
    }

    @Test("deleting such a fault after refreshAllObjects saves without a merge conflict")
    func deleteFaultAfterRefreshAll() throws {
        let (stack, reader, fault) = try faultChangedElsewhere()
        reader.refreshAllObjects()
        reader.delete(fault)
        try reader.save()
        #expect(try stack.context().all("Note").isEmpty)
    }

    @Test("a child context deleting such a fault saves through its parent without a merge conflict")
    func childDeletesFaultChangedElsewhere() throws {
        let (stack, reader, fault) = try faultChangedElsewhere()
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = reader
        try child.performAndWait {
            child.delete(try child.existingObject(with: fault.objectID))
            try child.save()
        }
        try reader.save()
        #expect(try stack.context().all("Note").isEmpty)
    }

    @Test("a fetched fault deleted after a genuine conflict from another coordinator still reports it")
    func deleteFaultChangedByOtherCoordinator() throws {
        let stack = try GraphStack(model: Self.noteModel())
        let writer = stack.context()
        let ann = writer.make("Note", ["name": "Ann"])
        try writer.save()
        let reader = stack.context()
        let fault = try #require(try reader.all("Note").first)
        let other = stack.context(try stack.secondCoordinator())
        try other.existingObject(with: ann.objectID).setValue("Anne", forKey: "name")
        try other.save()
        reader.delete(fault)
        #expect(throws: NSError.self) { try reader.save() }
    }
}
