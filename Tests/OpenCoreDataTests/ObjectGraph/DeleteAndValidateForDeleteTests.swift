import OpenCoreData
import Testing

/// `delete(_:)` and `validateForDelete()` as Apple's Core Data behaves (recorded from its framework).
@Suite("Deleting and validating for delete", .serialized)
struct DeleteAndValidateForDeleteTests {
    @Test("delete(_:) calls prepareForDeletion() at each call and sets isDeleted at once")
    func prepareAtEachDelete() throws {
        let model = GraphRulesModel.make()
        model.entitiesByName["Writer"]?.managedObjectClassName = String(reflecting: CountingDeletionObject.self)
        let stack = try GraphStack(.sqlite, model: model)
        let context = stack.context()
        CountingDeletionObject.prepared = [:]
        let writer = context.make("Writer", ["name": "w"])
        try context.save()
        context.delete(writer)
        #expect(CountingDeletionObject.prepared == ["w": 1])
        #expect(writer.isDeleted)
        context.delete(writer)
        #expect(CountingDeletionObject.prepared == ["w": 2])
        #expect(writer.isDeleted)
        try context.save()
        #expect(try stack.context().all("Writer").isEmpty)
    }

    @Test("validateForDelete() throws 1600 while a deny relationship holds objects, and passes once they are deleted")
    func denyRule() throws {
        let stack = try GraphRulesModel.stack(.sqlite)
        let context = stack.context()
        let writer = context.make("Writer", ["name": "w"])
        let volumes = (1...2).map { context.make("Volume", ["title": "v\($0)", "writer": writer]) }
        try context.save()
        let error = try #require(throws: NSError.self) { try writer.validateForDelete() }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSValidationRelationshipDeniedDeleteError)
        for volume in volumes { context.delete(volume) }
        context.processPendingChanges()
        try writer.validateForDelete()
        context.delete(writer)
        try context.save()
        #expect(try stack.context().all("Writer").isEmpty)
    }
}
