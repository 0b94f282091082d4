import Foundation
import Testing

@testable import OpenCoreDataCore

/// Faults of an incremental store's objects fulfilled through `newValuesForObject(with:with:)`, and
/// relationships through `newValue(forRelationship:forObjectWith:with:)`.
@Suite("Incremental store faults and relationships")
struct IncrementalStoreFaultTests {
    @Test("a fetched object is a fault until read; its values come from the node")
    func faultFiresThroughNode() throws {
        let (coordinator, store) = try JSONStoreKit.seeded()
        let context = JSONStoreKit.context(coordinator)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = NSPredicate(format: "name == %@", "Ann")
            let ann = try #require(try context.fetch(request).first)
            #expect(ann.isFault)
            let before = store.lock.withLock { store.nodeRequests.count }
            #expect(ann.value(forKey: "age") as? Int64 == 31)
            #expect(!ann.isFault)
            #expect(ann.value(forKey: "score") as? Double == 4.5)
            #expect(ann.value(forKey: "joined") as? Date == Date(timeIntervalSinceReferenceDate: 31_000))
            let asked = store.lock.withLock { Array(store.nodeRequests[before...]) }
            #expect(asked == [ann.objectID])
            #expect(store.lock.withLock { store.contexts.last } == ObjectIdentifier(context))
        }
    }

    @Test("to-one values from the node, to-many values from newValue(forRelationship:)")
    func relationships() throws {
        let (coordinator, store) = try JSONStoreKit.seeded()
        let context = JSONStoreKit.context(coordinator)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
            request.predicate = NSPredicate(format: "text == %@", "Bo 1")
            let note = try #require(try context.fetch(request).first)
            let owner = try #require(note.value(forKey: "owner") as? NSManagedObject)
            #expect(owner.value(forKey: "name") as? String == "Bo")
            let notes = try #require(owner.value(forKey: "notes") as? Set<NSManagedObject>)
            #expect(Set(notes.compactMap { $0.value(forKey: "text") as? String }) == ["Bo 1", "Bo 2"])
            #expect(store.lock.withLock { store.relationshipRequests }.contains("notes"))
            let tags = try #require(note.value(forKey: "tags") as? Set<NSManagedObject>)
            #expect(tags.compactMap { $0.value(forKey: "label") as? String } == ["urgent"])
            let tagged = try #require(tags.first?.value(forKey: "notes") as? Set<NSManagedObject>)
            #expect(tagged.count == 3)
        }
    }

    @Test("an object the store no longer has fails its fault")
    func missingObject() throws {
        let (coordinator, store) = try JSONStoreKit.open(JSONStoreKit.url())
        let context = JSONStoreKit.context(coordinator)
        let entity = try #require(coordinator.managedObjectModel.entitiesByName["Person"])
        let ghost = store.newObjectID(for: entity, referenceObject: 999)
        let error = context.performAndWait {
            #expect(throws: NSError.self) { try context.existingObject(with: ghost) }
        }
        #expect(error?.domain == NSCocoaErrorDomain)
    }
}
