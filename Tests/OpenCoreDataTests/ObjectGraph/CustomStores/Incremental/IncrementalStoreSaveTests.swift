import Foundation
import Testing

@testable import OpenCoreDataCore

/// Saves to an incremental store: `obtainPermanentIDs(for:)` for new objects, then one
/// `NSSaveChangesRequest`; metadata, `identifierForNewStore(at:)` and reopening the store.
@Suite("Incremental store saves")
struct IncrementalStoreSaveTests {
    @Test("new objects get the store's permanent IDs before the save request names them")
    func permanentIDs() throws {
        let (coordinator, store) = try JSONStoreKit.open(JSONStoreKit.url())
        let context = JSONStoreKit.context(coordinator)
        try context.performAndWait {
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            person.setValue("Di", forKey: "name")
            #expect(person.objectID.isTemporaryID)
            try context.obtainPermanentIDs(for: [person])
            #expect(!person.objectID.isTemporaryID)
            #expect(store.referenceObject(for: person.objectID) as? NSNumber == 1)
            #expect(person.objectID.uriRepresentation().absoluteString == "x-coredata://\(store.identifier!)/Person/p1")
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            note.setValue(person, forKey: "owner")
            try context.save()
            #expect(!note.objectID.isTemporaryID)
            let save = try #require(store.lock.withLock { store.executedRequests.last } as? NSSaveChangesRequest)
            #expect(save.insertedObjects?.count == 2)
            #expect(save.insertedObjects?.allSatisfy { !$0.objectID.isTemporaryID } == true)
            #expect(save.updatedObjects?.isEmpty == true)
            #expect(store.lock.withLock { store.records.count } == 2)
        }
    }

    @Test("updates and deletes reach the store and the file; a new coordinator reads them back")
    func updateDeleteReopen() throws {
        let url = JSONStoreKit.url()
        let (coordinator, store) = try JSONStoreKit.open(url)
        let identifier = try #require(store.identifier)
        #expect(identifier.hasPrefix("JSON-"))
        #expect(store.metadata[NSStoreTypeKey] as? String == JSONFileStore.storeType)
        #expect(store.type == JSONFileStore.storeType)
        let context = try JSONStoreKit.seed(coordinator)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let people = try context.fetch(request)
            people[0].setValue("Anna", forKey: "name")
            context.delete(people[1])
            try context.save()
            let save = try #require(store.lock.withLock { store.executedRequests.last } as? NSSaveChangesRequest)
            #expect(save.updatedObjects?.contains(people[0]) == true)
            #expect(save.deletedObjects?.contains(people[1]) == true)
        }
        let (reopened, again) = try JSONStoreKit.open(url)
        #expect(again.identifier == identifier)
        let fresh = JSONStoreKit.context(reopened)
        try fresh.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let people = try fresh.fetch(request)
            #expect(people.map { $0.value(forKey: "name") as? String } == ["Anna", "Cy"])
            let notes = NSFetchRequest<NSManagedObject>(entityName: "Note")
            notes.predicate = NSPredicate(format: "text BEGINSWITH %@", "Bo")
            // The deleted owner's notes were nullified (the relationship's default delete rule).
            let orphans = try fresh.fetch(notes)
            #expect(orphans.count == 2)
            #expect(orphans.allSatisfy { $0.value(forKey: "owner") == nil })
            #expect(people[0].value(forKey: "age") as? Int64 == 31)
            let key = try #require(again.referenceObject(for: people[0].objectID) as? NSNumber)
            #expect(again.lock.withLock { again.records[key.intValue]?.version } == 2)
        }
    }

    @Test("metadata set through the coordinator is kept by the store")
    func metadata() throws {
        let url = JSONStoreKit.url()
        let (coordinator, store) = try JSONStoreKit.open(url)
        var metadata = coordinator.metadata(for: store)
        metadata["Owner"] = "tests"
        coordinator.setMetadata(metadata, for: store)
        #expect(store.metadata["Owner"] as? String == "tests")
        #expect(store.metadata[NSStoreUUIDKey] as? String == store.identifier)
    }
}
