import Foundation
import Testing

@testable import OpenCoreDataCore

/// Fetch requests of every result type reaching an `NSIncrementalStore` through `execute(_:with:)`.
@Suite("Incremental store fetches")
struct IncrementalStoreFetchTests {
    @Test("managed objects: predicate and sort descriptors, the request and context handed to execute")
    func managedObjects() throws {
        let (coordinator, store) = try JSONStoreKit.open(JSONStoreKit.url())
        try JSONStoreKit.seed(coordinator)
        let context = JSONStoreKit.context(coordinator)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = NSPredicate(format: "age > %d", 25)
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: false)]
            let people = try context.fetch(request)
            #expect(people.map { $0.value(forKey: "name") as? String } == ["Cy", "Ann"])
            #expect(people.allSatisfy { $0.managedObjectContext === context })
            let last = try #require(store.lock.withLock { store.executedRequests.last } as? NSFetchRequest<NSFetchRequestResult>)
            #expect(last.resultType == .managedObjectResultType)
            #expect(store.lock.withLock { store.contexts }.contains(ObjectIdentifier(context)))
        }
    }

    @Test("object IDs, dictionaries and counts")
    func otherResultTypes() throws {
        let (coordinator, store) = try JSONStoreKit.open(JSONStoreKit.url())
        try JSONStoreKit.seed(coordinator)
        let context = JSONStoreKit.context(coordinator)
        try context.performAndWait {
            let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Person")
            ids.resultType = .managedObjectIDResultType
            ids.sortDescriptors = [NSSortDescriptor(key: "age", ascending: true)]
            let fetched = try context.fetch(ids)
            #expect(fetched.count == 3)
            #expect(fetched.allSatisfy { $0.persistentStore === store && !$0.isTemporaryID })
            #expect(context.object(with: fetched[0]).value(forKey: "name") as? String == "Bo")

            let dictionaries = NSFetchRequest<NSDictionary>(entityName: "Person")
            dictionaries.resultType = .dictionaryResultType
            dictionaries.propertiesToFetch = ["name", "age"]
            dictionaries.predicate = NSPredicate(format: "name BEGINSWITH %@", "C")
            let rows = try context.fetch(dictionaries)
            #expect(rows.count == 1)
            #expect(rows.first?["name"] as? String == "Cy")
            #expect((rows.first?["age"] as? NSNumber)?.intValue == 45)
            #expect(rows.first?["score"] == nil)

            let counted = NSFetchRequest<NSNumber>(entityName: "Note")
            counted.resultType = .countResultType
            #expect(try context.fetch(counted).first?.intValue == 6)
            let people = NSFetchRequest<NSManagedObject>(entityName: "Person")
            people.predicate = NSPredicate(format: "score >= 4.5")
            #expect(try context.count(for: people) == 2)
        }
    }

    @Test("limit, offset and unsaved changes of the context")
    func windowAndPendingChanges() throws {
        let (coordinator, _) = try JSONStoreKit.open(JSONStoreKit.url())
        try JSONStoreKit.seed(coordinator)
        let context = JSONStoreKit.context(coordinator)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.sortDescriptors = [NSSortDescriptor(key: "age", ascending: true)]
            request.fetchOffset = 1
            request.fetchLimit = 1
            #expect(try context.fetch(request).map { $0.value(forKey: "name") as? String } == ["Ann"])

            let all = NSFetchRequest<NSManagedObject>(entityName: "Person")
            all.sortDescriptors = [NSSortDescriptor(key: "age", ascending: true)]
            let people = try context.fetch(all)
            let new = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            new.setValue("Al", forKey: "name")
            new.setValue(Int64(5), forKey: "age")
            context.delete(people[2])
            #expect(try context.fetch(all).map { $0.value(forKey: "name") as? String } == ["Al", "Bo", "Ann"])
            #expect(try context.count(for: all) == 3)
            all.includesPendingChanges = false
            #expect(try context.fetch(all).count == 3)
            #expect(try context.fetch(all).contains { $0 === people[2] })
        }
    }
}
