import Testing

@testable import OpenCoreDataCore

/// How long a context keeps its registered objects: strongly while they have pending changes, otherwise
/// only while something else refers to them, unless `retainsRegisteredObjects` is set.
@Suite("Registered object retention")
struct RegisteredObjectRetentionTests {
    /// A weak reference, to see whether an object is still alive.
    final class Weak {
        weak var object: NSManagedObject?
        init(_ object: NSManagedObject) { self.object = object }
    }

    /// A context on a blog store in `directory` with `count` tags labelled t1…tN, through a coordinator
    /// of its own (nothing cached yet).
    private func context(in directory: URL, tags count: Int) throws -> NSManagedObjectContext {
        let coordinator = try StoreKit.tagCoordinator(at: directory.appendingPathComponent("Blog.sqlite"), tags: count)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// More registered objects than a context holds before it lets go of unreferenced ones.
    private static var manyRows: Int { NSManagedObjectContext.minimumRegistryReleaseThreshold + 100 }

    @Test("by default a context keeps no strong reference to an unchanged object: once the app lets go, it leaves")
    func unchangedObjectsLeave() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = try context(in: directory, tags: Self.manyRows)
        try context.performAndWait {
            #expect(context.retainsRegisteredObjects == false)
            var tags: [NSManagedObject]? = try context.fetch(StoreKit.request("Tag"))
            let watchers = (tags ?? []).prefix(10).map(Weak.init)
            let ids = (tags ?? []).prefix(10).map(\.objectID)
            #expect(context.registeredObjects.count == Self.manyRows)
            tags = nil
            // The context lets go of them by the time it fetches again.
            _ = try context.fetch(StoreKit.request("Author"))
            #expect(context.registeredObjects.count == 0)
            #expect(watchers.allSatisfy { $0.object == nil })
            for id in ids { #expect(context.registeredObject(for: id) == nil) }
            // The ID still names the row: looking it up gives a new object with the row's values.
            let again = context.object(with: ids[0])
            #expect(again.value(forKey: "label") as? String == "t1")
        }
    }

    @Test("inserted, changed and deleted objects stay registered until the save, then leave when nothing refers to them")
    func pendingObjectsStayUntilSaved() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = try context(in: directory, tags: Self.manyRows)
        try context.performAndWait {
            var tags: [NSManagedObject]? = try context.fetch(
                StoreKit.request(
                    "Tag", "label IN %@", [["t1", "t2", "t3"]],
                    sort: [NSSortDescriptor(key: "label", ascending: true)]))
            tags?[0].setValue("changed", forKey: "label")
            if let doomed = tags?[1] { context.delete(doomed) }
            var inserted: NSManagedObject? = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            inserted?.setValue("new", forKey: "label")
            let watchers = (tags ?? []).map(Weak.init) + [Weak(try #require(inserted))]
            tags = nil
            inserted = nil
            // Many more objects, unreferenced: the next fetch lets go of every unchanged one.
            _ = try context.fetch(StoreKit.request("Tag", "label != %@", ["t3"]))
            _ = try context.fetch(StoreKit.request("Author"))
            #expect(context.registeredObjects.count == 3)
            #expect(watchers[0].object != nil && watchers[1].object != nil && watchers[3].object != nil)
            #expect(watchers[2].object == nil)
            #expect(context.hasChanges)
            try context.save()
            // Saved, they are unchanged objects like any other.
            _ = try context.fetch(StoreKit.request("Tag"))
            _ = try context.fetch(StoreKit.request("Author"))
            #expect(context.registeredObjects.count == 0)
            #expect(watchers.allSatisfy { $0.object == nil })
        }
        let labels = try StoreKit.rows(
            directory.appendingPathComponent("Blog.sqlite"),
            "SELECT ZLABEL FROM ZTAG WHERE ZLABEL IN ('changed', 'new', 't1', 't2', 't3') ORDER BY ZLABEL"
        )
        .map { $0[0] as String }
        #expect(labels == ["changed", "new", "t3"])
    }

    @Test("retainsRegisteredObjects keeps every registered object alive until it is switched off")
    func retainingContextKeepsObjects() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = try context(in: directory, tags: Self.manyRows)
        try context.performAndWait {
            context.retainsRegisteredObjects = true
            var tags: [NSManagedObject]? = try context.fetch(StoreKit.request("Tag"))
            let watchers = (tags ?? []).prefix(10).map(Weak.init)
            tags = nil
            _ = try context.fetch(StoreKit.request("Author"))
            #expect(context.registeredObjects.count == Self.manyRows)
            #expect(watchers.allSatisfy { $0.object != nil })
            for watcher in watchers {
                let object = try #require(watcher.object)
                #expect(context.registeredObject(for: object.objectID) === object)
            }
            context.retainsRegisteredObjects = false
            #expect(watchers.allSatisfy { $0.object == nil })
            #expect(context.registeredObjects.count == 0)
        }
    }

    @Test("an object that a kept object refers to stays registered")
    func relatedObjectsStay() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Blog.sqlite")
        let (coordinator, _) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
        let writer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        writer.persistentStoreCoordinator = coordinator
        try writer.performAndWait {
            let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: writer)
            author.setValue("Ann", forKey: "name")
            let post = NSEntityDescription.insertNewObject(forEntityName: "Post", into: writer)
            post.setValue("Hello", forKey: "title")
            post.setValue(author, forKey: "author")
            try writer.save()
        }
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        try reader.performAndWait {
            let post = try #require(try reader.fetch(StoreKit.request("Post")).first)
            let author = Weak(try #require(post.value(forKey: "author") as? NSManagedObject))
            #expect(reader.registeredObjects.count == 2)
            #expect((author.object?.value(forKey: "name") as? String) == "Ann")
            #expect(post.value(forKey: "title") as? String == "Hello")
        }
    }

    @Test("objects the app keeps while the others leave are the ones their IDs and a new fetch give back")
    func keptObjectsKeepTheirIdentity() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let context = try context(in: directory, tags: Self.manyRows)
        try context.performAndWait {
            let request = StoreKit.request("Tag", sort: [NSSortDescriptor(key: "label", ascending: true)])
            var tags: [NSManagedObject]? = try context.fetch(request)
            // One object in forty stays: most runs of consecutive keys empty out, a few keep one object.
            let kept = (tags ?? []).enumerated().filter { $0.offset % 40 == 3 }.map(\.element)
            let keptByID = Dictionary(uniqueKeysWithValues: kept.map { ($0.objectID, $0) })
            tags = nil
            _ = try context.fetch(StoreKit.request("Author"))
            #expect(context.registeredObjects.count == kept.count)
            for object in kept {
                #expect(context.registeredObject(for: object.objectID) === object)
                #expect(context.object(with: object.objectID) === object)
            }
            let again = try context.fetch(request)
            #expect(again.count == Self.manyRows)
            for object in again {
                if let old = keptByID[object.objectID] { #expect(object === old) }
            }
            #expect(Set(again.map(ObjectIdentifier.init)).isSuperset(of: kept.map(ObjectIdentifier.init)))
        }
    }

    @Test("a long-lived context that fetches many rows in turn keeps neither all their objects nor all their rows")
    func longLivedContextStaysBounded() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rows = 3 * NSManagedObjectContext.minimumRegistryReleaseThreshold
        let context = try context(in: directory, tags: rows)
        try context.performAndWait {
            var largest = 0
            var largestCache = 0
            var read = 0
            for offset in stride(from: 0, to: rows, by: 500) {
                let request = StoreKit.request("Tag", sort: [NSSortDescriptor(key: "label", ascending: true)])
                request.fetchOffset = offset
                request.fetchLimit = 500
                for tag in try context.fetch(request) where tag.value(forKey: "label") is String { read += 1 }
                largest = max(largest, context.registry.count)
                largestCache = max(largestCache, context.persistentStoreCoordinator?._rowCache.count ?? 0)
            }
            #expect(read == rows)
            #expect(largest < 2 * NSManagedObjectContext.minimumRegistryReleaseThreshold + 500)
            #expect(largest < rows)
            // The coordinator's row cache lets go of their rows with them.
            #expect(largestCache < 2 * NSManagedObjectContext.minimumRegistryReleaseThreshold + 500)
        }
    }
}
