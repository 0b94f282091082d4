import Testing

@testable import OpenCoreDataCore

/// Managed objects are equal only to themselves, and their hash does not change when their object ID
/// does: sets and dictionaries of objects made before a save still find them after it.
@Suite("Managed object identity")
struct ManagedObjectIdentityTests {
    @Test("an object is equal to itself only: not to another object, its ID, nil, or a value holding its address")
    func equalityIsIdentity() throws {
        let stack = try GraphStack()
        let context = stack.context()
        context.performAndWait {
            let tag = context.make("Tag")
            let other = context.make("Tag")
            let post = context.make("Post")
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
        let stack = try GraphStack()
        let context = stack.context()
        try context.performAndWait {
            let tags = ["a", "b", "c"].map { context.make("Tag", ["name": $0]) }
            let hashes = tags.map(\.hash)
            let tracked = Set(tags)
            var byObject: [NSManagedObject: String] = [:]
            for tag in tags { byObject[tag] = tag.value(forKey: "name") as? String }
            #expect(tags.allSatisfy { $0.objectID.isTemporaryID })
            try context.save()
            #expect(tags.allSatisfy { !$0.objectID.isTemporaryID })
            #expect(tags.map(\.hash) == hashes)
            #expect(tags.allSatisfy { tracked.contains($0) })
            #expect(tags.allSatisfy { byObject[$0] == $0.value(forKey: "name") as? String })
            // A fetch returns the registered objects: the same instances, found in the set.
            let fetched = try context.all("Tag")
            #expect(Set(fetched) == tracked)
        }
    }
}
