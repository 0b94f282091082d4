import Foundation
import Testing

@testable import OpenCoreDataCore

/// Optimistic locking on the versions of an incremental store's nodes, resolved by merge policies.
@Suite("Incremental store optimistic locking")
struct IncrementalStoreLockingTests {
    /// Two contexts that read Ann; the first renames her and saves.
    private func race(_ coordinator: NSPersistentStoreCoordinator) throws -> (NSManagedObjectContext, NSManagedObject) {
        try JSONStoreKit.seed(coordinator)
        let first = JSONStoreKit.context(coordinator)
        let second = JSONStoreKit.context(coordinator)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = NSPredicate(format: "name == %@", "Ann")
        let late = try second.performAndWait {
            let ann = try #require(try second.fetch(request).first)
            _ = ann.value(forKey: "name")
            return ann
        }
        try first.performAndWait {
            let ann = try #require(try first.fetch(request).first)
            ann.setValue(Int64(32), forKey: "age")
            try first.save()
        }
        return (second, late)
    }

    @Test("a save over a newer version fails with 133020 and writes nothing")
    func conflictThrows() throws {
        let (coordinator, store) = try JSONStoreKit.open(JSONStoreKit.url())
        let (second, ann) = try race(coordinator)
        try second.performAndWait {
            ann.setValue("Annie", forKey: "name")
            let error = try #require(throws: NSError.self) { try second.save() }
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSManagedObjectMergeError)
            let conflicts = error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict]
            #expect(conflicts?.first?.sourceObject === ann)
            #expect(conflicts?.first?.oldVersionNumber == 1)
            #expect(conflicts?.first?.newVersionNumber == 2)
        }
        let key = try #require(store.referenceObject(for: ann.objectID) as? NSNumber)
        #expect(store.lock.withLock { store.records[key.intValue]?.values["name"] as? String } == "Ann")
    }

    @Test("a merge policy resolves the conflict and the save goes through")
    func mergePolicyResolves() throws {
        let (coordinator, store) = try JSONStoreKit.open(JSONStoreKit.url())
        let (second, ann) = try race(coordinator)
        try second.performAndWait {
            second.mergePolicy = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
            ann.setValue("Annie", forKey: "name")
            try second.save()
        }
        let key = try #require(store.referenceObject(for: ann.objectID) as? NSNumber)
        let record = try #require(store.lock.withLock { store.records[key.intValue] })
        #expect(record.values["name"] as? String == "Annie")
        #expect(record.values["age"] as? Int == 32)
        #expect(record.version == 3)
    }
}
