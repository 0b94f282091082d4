import GRDB
import Testing

@testable import OpenCoreDataCore

/// A context's registered objects: one object per ID, found again by ID whatever the primary keys, the
/// entities and the stores, and forgotten when deleted or reset.
@Suite("Registered objects")
struct ObjectRegistryTests {
    /// Primary keys next to, across and far from each other: neighbours, the edges of runs of 16 and 32,
    /// and keys past 32 bits.
    static let scatteredKeys: [Int64] = [
        1, 2, 3, 14, 15, 16, 17, 18, 31, 32, 33, 47, 48, 63, 64, 65, 100, 255, 256,
        257, 1_000, 4_095, 4_096, 65_535, 65_536, 1_000_000, 2_147_483_647,
        2_147_483_648, 4_294_967_295, 4_294_967_296, 4_294_967_297,
        1_099_511_627_776, 9_007_199_254_740_993, 9_223_372_036_854_775_806,
    ]

    /// A store whose Tag rows have `scatteredKeys` as primary keys, each labelled with its key.
    private func scatteredStore(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("Scattered.sqlite")
        let (coordinator, _) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
        try StoreKit.insert(coordinator, "Tag", Self.scatteredKeys.map { ["label": "t\($0)"] })
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            // Move each row to its key from the largest down, so no two rows ever share a key.
            for (pk, key) in zip(1..., Self.scatteredKeys).reversed() {
                try db.execute(sql: "UPDATE ZTAG SET Z_PK = ? WHERE Z_PK = ?", arguments: [key, pk])
            }
            try db.execute(
                sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Tag'",
                arguments: [Self.scatteredKeys.max()])
        }
        try queue.close()
        return url
    }

    /// `scatteredStore(in:)` opened by a new coordinator, with a private-queue context on it.
    private func scatteredContext(in directory: URL) throws -> (URL, NSPersistentStoreCoordinator, NSManagedObjectContext) {
        let url = try scatteredStore(in: directory)
        let (coordinator, _) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (url, coordinator, context)
    }

    @Test("each fetched row is one object, found again by its ID, whatever its primary key")
    func scatteredPrimaryKeys() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, coordinator, context) = try scatteredContext(in: directory)
        try context.performAndWait {
            let tags = try context.fetch(StoreKit.request("Tag"))
            #expect(tags.count == Self.scatteredKeys.count)
            #expect(context.registeredObjects.count == Self.scatteredKeys.count)
            for tag in tags {
                let uri = tag.objectID.uriRepresentation().absoluteString
                let last = try #require(uri.split(separator: "/").last)
                let key = try #require(Int64(last.dropFirst()))
                #expect(tag.value(forKey: "label") as? String == "t\(key)")
                #expect(context.registeredObject(for: tag.objectID) === tag)
                // A new ID for the same row, from its URI, finds the same object.
                let again = try #require(coordinator.managedObjectID(forURIRepresentation: tag.objectID.uriRepresentation()))
                #expect(again !== tag.objectID)
                #expect(context.object(with: again) === tag)
                #expect(try context.existingObject(with: again) === tag)
            }
            // A second fetch returns the same objects, not new ones.
            let again = try context.fetch(StoreKit.request("Tag"))
            #expect(Set(again.map(ObjectIdentifier.init)) == Set(tags.map(ObjectIdentifier.init)))
            #expect(context.registeredObjects.count == Self.scatteredKeys.count)
        }
    }

    @Test("deleted and saved objects leave the registry; the objects of their neighbours stay")
    func deletionKeepsNeighbours() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (url, _, context) = try scatteredContext(in: directory)
        try context.performAndWait {
            let tags = try context.fetch(StoreKit.request("Tag", sort: [NSSortDescriptor(key: "label", ascending: true)]))
            let deleted = tags.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
            let kept = tags.enumerated().filter { $0.offset % 3 != 0 }.map(\.element)
            let deletedIDs = deleted.map(\.objectID)
            for tag in deleted { context.delete(tag) }
            try context.save()
            for id in deletedIDs {
                #expect(context.registeredObject(for: id) == nil)
                #expect(throws: NSError.self) { try context.existingObject(with: id) }
            }
            for tag in kept { #expect(context.registeredObject(for: tag.objectID) === tag) }
            #expect(context.registeredObjects.count == kept.count)
            // A fresh fetch sees the same survivors and no ghosts of the deleted rows.
            let refetched = try context.fetch(StoreKit.request("Tag"))
            #expect(Set(refetched.map(ObjectIdentifier.init)) == Set(kept.map(ObjectIdentifier.init)))
            context.reset()
            #expect(context.registeredObjects.isEmpty)
            for tag in kept { #expect(context.registeredObject(for: tag.objectID) == nil) }
        }
        let remaining = try StoreKit.rows(url, "SELECT COUNT(*) FROM ZTAG")[0][0] as Int64
        #expect(Int(remaining) == Self.scatteredKeys.count - (Self.scatteredKeys.count + 2) / 3)
    }

    @Test("objects of different entities with the same primary key are different objects")
    func samePrimaryKeyOtherEntity() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Blog.sqlite")
        let (coordinator, _) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
        let authorIDs = try StoreKit.insert(coordinator, "Author", (1...20).map { ["name": "a\($0)", "age": $0] })
        let tagIDs = try StoreKit.insert(coordinator, "Tag", (1...20).map { ["label": "t\($0)"] })
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            _ = try context.fetch(StoreKit.request("Author"))
            _ = try context.fetch(StoreKit.request("Tag"))
            #expect(context.registeredObjects.count == 40)
            for (index, (authorID, tagID)) in zip(authorIDs, tagIDs).enumerated() {
                let author = try #require(context.registeredObject(for: authorID))
                let tag = try #require(context.registeredObject(for: tagID))
                #expect(author !== tag)
                #expect(author.entity.name == "Author")
                #expect(tag.entity.name == "Tag")
                #expect(author.value(forKey: "name") as? String == "a\(index + 1)")
                #expect(tag.value(forKey: "label") as? String == "t\(index + 1)")
            }
            context.delete(try #require(context.registeredObject(for: tagIDs[0])))
            try context.save()
            #expect(context.registeredObject(for: tagIDs[0]) == nil)
            #expect(context.registeredObject(for: authorIDs[0])?.value(forKey: "name") as? String == "a1")
        }
    }

    @Test("objects of two stores with the same entity and primary key are different objects")
    func samePrimaryKeyOtherStore() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = StoreKit.blogModel()
        let urls = ["A", "B"].map { directory.appendingPathComponent("\($0).sqlite") }
        for (url, name) in zip(urls, ["A", "B"]) {
            let (writer, _) = try StoreKit.sqliteCoordinator(model, at: url)
            try StoreKit.insert(writer, "Tag", (1...20).map { ["label": "\(name)\($0)"] })
            for store in writer.persistentStores { try writer.remove(store) }
        }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let first = try coordinator.addPersistentStore(type: .sqlite, at: urls[0])
        let second = try coordinator.addPersistentStore(type: .sqlite, at: urls[1])
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        try reader.performAndWait {
            let tags = try reader.fetch(StoreKit.request("Tag"))
            #expect(tags.count == 40)
            #expect(reader.registeredObjects.count == 40)
            for tag in tags {
                let label = try #require(tag.value(forKey: "label") as? String)
                #expect(tag.objectID.persistentStore === (label.hasPrefix("A") ? first : second))
                #expect(reader.registeredObject(for: tag.objectID) === tag)
                #expect(tag.objectID.uriRepresentation().lastPathComponent == "p\(label.dropFirst())")
            }
        }
    }
}
