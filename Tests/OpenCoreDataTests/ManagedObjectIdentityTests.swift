import Testing
@testable import OpenCoreData

/// Managed objects are equal only to themselves, and their hash does not change when their object ID
/// does: sets and dictionaries of objects made before a save still find them after it.
@Suite("Managed object identity")
struct ManagedObjectIdentityTests {
    @Test("an object is equal to itself only: not to another object, its ID, nil, or a value holding its address")
    func equalityIsIdentity() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (coordinator, _) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(),
                                                             at: directory.appendingPathComponent("Blog.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.performAndWait {
            let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            let other = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            let post = NSEntityDescription.insertNewObject(forEntityName: "Post", into: context)
            #expect(tag.isEqual(tag) && tag == tag)
            let asAny: Any = tag
            let asObject: NSObject = tag
            #expect(tag.isEqual(asAny) && asObject.isEqual(tag))
            #expect(!tag.isEqual(other) && tag != other)
            #expect(!tag.isEqual(post))
            #expect(!tag.isEqual(nil))
            #expect(!tag.isEqual(tag.objectID))
            // Values whose bits are the object's address are not the object.
            let address = Unmanaged.passUnretained(tag).toOpaque()
            #expect(!tag.isEqual(UnsafeRawPointer(address)))
            #expect(!tag.isEqual(Int(bitPattern: UInt(bitPattern: address))))
            let set: Set<NSManagedObject> = [tag, other, tag, post]
            #expect(set.count == 3)
        }
    }

    @Test("saving gives objects permanent IDs without changing their hashes: sets made before the save still find them")
    func hashSurvivesSave() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (coordinator, _) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(),
                                                             at: directory.appendingPathComponent("Blog.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let tags = ["a", "b", "c"].map { label in
                let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
                tag.setValue(label, forKey: "label")
                return tag
            }
            let hashes = tags.map(\.hash)
            let tracked = Set(tags)
            var byObject: [NSManagedObject: String] = [:]
            for tag in tags { byObject[tag] = tag.value(forKey: "label") as? String }
            #expect(tags.allSatisfy { $0.objectID.isTemporaryID })
            try context.save()
            #expect(tags.allSatisfy { !$0.objectID.isTemporaryID })
            #expect(tags.map(\.hash) == hashes)
            #expect(tags.allSatisfy { tracked.contains($0) })
            #expect(tags.allSatisfy { byObject[$0] == $0.value(forKey: "label") as? String })
            // A fetch returns the registered objects: the same instances, found in the set.
            let fetched = try context.fetch(StoreKit.request("Tag"))
            #expect(Set(fetched) == tracked)
        }
    }
}
