import Foundation
import Testing

@testable import OpenCoreDataCore

/// Fetches from an `NSAtomicStore`: its cache nodes selected in memory, for every result type.
@Suite("Atomic store fetches")
struct AtomicStoreFetchTests {
    @Test("objects, IDs, dictionaries and counts with predicates and sort descriptors; relationships")
    func resultTypes() throws {
        let url = AtomicStoreKit.url()
        let (coordinator, _) = try AtomicStoreKit.open(url)
        try JSONStoreKit.seed(coordinator)
        // Read back by a new coordinator: everything comes from the file through load().
        let (reopened, store) = try AtomicStoreKit.open(url)
        #expect(store.cacheNodes().count == 10)
        let context = JSONStoreKit.context(reopened)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = NSPredicate(format: "age > %d", 25)
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: false)]
            let people = try context.fetch(request)
            #expect(people.map { $0.value(forKey: "name") as? String } == ["Cy", "Ann"])
            #expect(people[1].value(forKey: "joined") as? Date == Date(timeIntervalSinceReferenceDate: 31_000))
            let notes = try #require(people[0].value(forKey: "notes") as? Set<NSManagedObject>)
            #expect(Set(notes.compactMap { $0.value(forKey: "text") as? String }) == ["Cy 1", "Cy 2"])
            #expect(notes.allSatisfy { $0.value(forKey: "owner") as? NSManagedObject === people[0] })

            let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Note")
            ids.resultType = .managedObjectIDResultType
            ids.predicate = NSPredicate(format: "ANY tags.label == %@", "urgent")
            let tagged = try context.fetch(ids)
            #expect(tagged.count == 3)
            #expect(tagged.allSatisfy { (store.referenceObject(for: $0) as? String)?.hasPrefix("Note-") == true })

            let owned = NSFetchRequest<NSManagedObject>(entityName: "Note")
            owned.predicate = NSPredicate(format: "owner == %@", people[1])
            #expect(try context.count(for: owned) == 2)

            let dictionaries = NSFetchRequest<NSDictionary>(entityName: "Person")
            dictionaries.resultType = .dictionaryResultType
            dictionaries.propertiesToFetch = ["name"]
            dictionaries.sortDescriptors = [NSSortDescriptor(key: "name", ascending: false)]
            #expect(try context.fetch(dictionaries).map { $0["name"] as? String } == ["Cy", "Bo", "Ann"])

            let counted = NSFetchRequest<NSNumber>(entityName: "Tag")
            counted.resultType = .countResultType
            #expect(try context.fetch(counted).first?.intValue == 1)
        }
    }
}
