import Foundation
import Testing

@testable import OpenCoreDataCore

/// Saves to an `NSAtomicStore`: cache nodes made, updated and removed, then `save()`.
@Suite("Atomic store saves")
struct AtomicStoreSaveTests {
    @Test("inserts, updates and deletes reach the nodes and the file")
    func insertUpdateDelete() throws {
        let url = AtomicStoreKit.url()
        let (coordinator, store) = try AtomicStoreKit.open(url)
        let context = try JSONStoreKit.seed(coordinator)
        #expect(store.lock.withLock { store.saves } == 1)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let people = try context.fetch(request)
            #expect((store.referenceObject(for: people[0].objectID) as? String)?.hasPrefix("Person-") == true)
            people[0].setValue("Anna", forKey: "name")
            context.delete(people[1])
            try context.save()
            #expect(store.lock.withLock { store.removedNodes } == [people[1].objectID])
            #expect(store.cacheNode(for: people[0].objectID)?.value(forKey: "name") as? String == "Anna")
            #expect(store.cacheNode(for: people[0].objectID)?._version == 2)
        }
        let (reopened, _) = try AtomicStoreKit.open(url)
        let fresh = JSONStoreKit.context(reopened)
        try fresh.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            let people = try fresh.fetch(request)
            #expect(people.map { $0.value(forKey: "name") as? String } == ["Anna", "Cy"])
            let notes = NSFetchRequest<NSManagedObject>(entityName: "Note")
            notes.predicate = NSPredicate(format: "owner == nil")
            let orphans = try fresh.count(for: notes)
            #expect(orphans == 2)
        }
    }

    @Test("a save() that throws fails the context's save and leaves the nodes as they were")
    func failedSaveRollsBack() throws {
        let (coordinator, store) = try AtomicStoreKit.open(AtomicStoreKit.url())
        let context = try JSONStoreKit.seed(coordinator)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = NSPredicate(format: "name == %@", "Bo")
            let bo = try #require(try context.fetch(request).first)
            bo.setValue("Bob", forKey: "name")
            let extra = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            extra.setValue("later", forKey: "label")
            store.lock.withLock { store.failNextSave = true }
            let error = try #require(throws: NSError.self) { try context.save() }
            #expect(error.code == NSFileWriteOutOfSpaceError)
            #expect(store.cacheNode(for: bo.objectID)?.value(forKey: "name") as? String == "Bo")
            #expect(store.cacheNode(for: bo.objectID)?._version == 1)
            #expect(store.cacheNodes().count == 10)
            #expect(context.hasChanges)
            try context.save()
            #expect(store.cacheNode(for: bo.objectID)?.value(forKey: "name") as? String == "Bob")
            #expect(store.cacheNodes().count == 11)
        }
    }

    @Test("a save over a node another context changed fails with 133020")
    func conflict() throws {
        let (coordinator, _) = try AtomicStoreKit.open(AtomicStoreKit.url())
        try JSONStoreKit.seed(coordinator)
        let first = JSONStoreKit.context(coordinator), second = JSONStoreKit.context(coordinator)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = NSPredicate(format: "name == %@", "Cy")
        let late = try second.performAndWait {
            let cy = try #require(try second.fetch(request).first)
            _ = cy.value(forKey: "name")
            return cy
        }
        try first.performAndWait {
            try #require(try first.fetch(request).first).setValue(Int64(46), forKey: "age")
            try first.save()
        }
        try second.performAndWait {
            late.setValue("Cyd", forKey: "name")
            let error = try #require(throws: NSError.self) { try second.save() }
            #expect(error.code == NSManagedObjectMergeError)
            second.mergePolicy = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
            try second.save()
            #expect(late.value(forKey: "age") as? Int64 == 46)
        }
    }
}
