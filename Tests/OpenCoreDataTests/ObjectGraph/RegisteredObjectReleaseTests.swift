import Testing

@testable import OpenCoreDataCore

/// What a user relies on while a context lets go of unreferenced registered objects: the same answers
/// as a context that keeps every registered object (`retainsRegisteredObjects`).
@Suite("Registered object release: behavior a user relies on")
struct RegisteredObjectReleaseTests {
    /// More objects than a context holds before it lets go of unreferenced ones.
    private static var manyRows: Int { NSManagedObjectContext.minimumRegistryReleaseThreshold + 100 }

    /// A blog store in `directory` with authors a1, a2, post p1 by a1, and many tags.
    private func store(in directory: URL) throws -> (NSPersistentStoreCoordinator, URL) {
        let url = directory.appendingPathComponent("Blog.sqlite")
        let model = StoreKit.blogModel()
        let (writer, _) = try StoreKit.sqliteCoordinator(model, at: url)
        try StoreKit.insert(writer, "Tag", (1...Self.manyRows).map { ["label": "t\($0)"] })
        let setup = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        setup.persistentStoreCoordinator = writer
        try setup.performAndWait {
            let a1 = NSEntityDescription.insertNewObject(forEntityName: "Author", into: setup)
            a1.setValue("a1", forKey: "name")
            let a2 = NSEntityDescription.insertNewObject(forEntityName: "Author", into: setup)
            a2.setValue("a2", forKey: "name")
            let post = NSEntityDescription.insertNewObject(forEntityName: "Post", into: setup)
            post.setValue("p1", forKey: "title")
            post.setValue(a1, forKey: "author")
            try setup.save()
        }
        for store in writer.persistentStores { try writer.remove(store) }
        let (coordinator, _) = try StoreKit.sqliteCoordinator(model, at: url)
        return (coordinator, url)
    }

    /// Registers every tag, unreferenced, then fetches again so that the context may let go of them.
    private func churn(_ context: NSManagedObjectContext) throws {
        _ = try context.fetch(StoreKit.request("Tag"))
        _ = try context.fetch(StoreKit.request("Folder"))
    }

    private func context(_ coordinator: NSPersistentStoreCoordinator, retains: Bool) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.retainsRegisteredObjects = retains
        return context
    }

    @Test("a context pinned to a query generation shows the pinned values of an object it let go of", arguments: [false, true])
    func pinnedGenerationAfterRelease(retains: Bool) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (coordinator, _) = try store(in: directory)
        let reader = context(coordinator, retains: retains)
        let id = try reader.performAndWait {
            try reader.setQueryGenerationFrom(.current)
            let post = try #require(try reader.fetch(StoreKit.request("Post")).first)
            #expect(post.value(forKey: "title") as? String == "p1")
            return post.objectID
        }
        let writer = context(coordinator, retains: false)
        try writer.performAndWait {
            let post = try writer.existingObject(with: id)
            post.setValue("changed", forKey: "title")
            try writer.save()
        }
        try reader.performAndWait {
            try churn(reader)
            #expect((reader.registeredObject(for: id) == nil) == !retains)
            #expect(reader.object(with: id).value(forKey: "title") as? String == "p1")
            let fetched = try reader.fetch(StoreKit.request("Post")).first
            #expect(fetched?.value(forKey: "title") as? String == "p1")
        }
    }

    @Test("changing a to-one relationship updates the inverse of the old destination the context let go of", arguments: [false, true])
    func inverseOfReleasedDestination(retains: Bool) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (coordinator, url) = try store(in: directory)
        let context = context(coordinator, retains: retains)
        try context.performAndWait {
            // The authors are read, then nothing refers to them.
            let ids = try context.fetch(StoreKit.request("Author", sort: [NSSortDescriptor(key: "name", ascending: true)]))
                .map(\.objectID)
            let post = try #require(try context.fetch(StoreKit.request("Post")).first)
            try churn(context)
            #expect((context.registeredObject(for: ids[0]) == nil) == !retains)
            post.setValue(context.object(with: ids[1]), forKey: "author")
            let a1Posts = context.object(with: ids[0]).value(forKey: "posts") as? Set<NSManagedObject>
            let a2Posts = context.object(with: ids[1]).value(forKey: "posts") as? Set<NSManagedObject>
            #expect(a1Posts?.isEmpty == true)
            #expect(a2Posts?.contains(post) == true)
            try context.save()
        }
        let owners = try StoreKit.rows(url, "SELECT ZAUTHOR.ZNAME FROM ZPOST JOIN ZAUTHOR ON ZPOST.ZAUTHOR = ZAUTHOR.Z_PK")
            .map { $0[0] as String }
        #expect(owners == ["a2"])
    }

    @Test("undo and redo reach a saved change of an object the app let go of", arguments: [false, true])
    func undoAfterRelease(retains: Bool) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (coordinator, url) = try store(in: directory)
        let context = context(coordinator, retains: retains)
        try context.performAndWait {
            context.undoManager = UndoManager()
            var post: NSManagedObject? = try context.fetch(StoreKit.request("Post")).first
            post?.setValue("edited", forKey: "title")
            context.processPendingChanges()
            post = nil
            try context.save()
            try churn(context)
            context.undo()
            #expect(context.hasChanges)
            try context.save()
        }
        #expect(try StoreKit.rows(url, "SELECT ZTITLE FROM ZPOST").map { $0[0] as String } == ["p1"])
    }

    @Test("an object the app holds is the one object(with:), a fetch and a batched fetch return, across releases")
    func heldObjectIdentity() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (coordinator, _) = try store(in: directory)
        let context = context(coordinator, retains: false)
        try context.performAndWait {
            let request = StoreKit.request("Tag", sort: [NSSortDescriptor(key: "label", ascending: true)])
            request.fetchBatchSize = 50
            let batched = try context.fetch(request)
            let held = batched[0]
            var seen = 0
            for tag in batched where tag.value(forKey: "label") is String { seen += 1 }
            try churn(context)
            #expect(seen == Self.manyRows)
            #expect(batched[0] === held)
            #expect(context.object(with: held.objectID) === held)
            let again = try context.fetch(StoreKit.request("Tag", "label == %@", ["t1"]))
            #expect(again.first === held)
        }
    }

    @Test("new objects keep their identity through obtainPermanentIDs, URIs and the save, across pages of IDs")
    func newObjectIdentityThroughPermanentIDs() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (coordinator, _) = try store(in: directory)
        let context = context(coordinator, retains: false)
        try context.performAndWait {
            let posts = (0..<40).map { index in
                let post = NSEntityDescription.insertNewObject(forEntityName: index % 3 == 0 ? "SpecialPost" : "Post", into: context)
                post.setValue("n\(index)", forKey: "title")
                return post
            }
            let temporary = posts.map(\.objectID)
            try context.obtainPermanentIDs(for: Array(posts.prefix(20)))
            for (post, old) in zip(posts, temporary) {
                #expect(context.object(with: post.objectID) === post)
                if !post.objectID.isTemporaryID { #expect(context.registeredObject(for: old) == nil) }
            }
            try context.save()
            try churn(context)
            for post in posts {
                #expect(!post.objectID.isTemporaryID)
                let id = try #require(coordinator.managedObjectID(forURIRepresentation: post.objectID.uriRepresentation()))
                #expect(id == post.objectID)
                #expect(id.entity.name == post.entity.name)
                #expect(context.object(with: id) === post)
            }
            let fetched = try context.fetch(StoreKit.request("Post", "title BEGINSWITH %@", ["n"]))
            #expect(fetched.count == posts.count)
            #expect(Set(fetched.map(ObjectIdentifier.init)) == Set(posts.map(ObjectIdentifier.init)))
        }
    }

    @Test("deleting an object nullifies the inverse of related objects the context let go of", arguments: [false, true])
    func deleteRuleOnReleasedObjects(retains: Bool) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (coordinator, url) = try store(in: directory)
        let context = context(coordinator, retains: retains)
        try context.performAndWait {
            let postID = try #require(try context.fetch(StoreKit.request("Post")).first?.objectID)
            let author = try #require(try context.fetch(StoreKit.request("Author", "name == %@", ["a1"])).first)
            try churn(context)
            #expect((context.registeredObject(for: postID) == nil) == !retains)
            context.delete(author)
            context.processPendingChanges()
            #expect(context.updatedObjects.map(\.objectID) == [postID])
            #expect(context.object(with: postID).value(forKey: "author") == nil)
            try context.save()
        }
        let rows = try StoreKit.rows(url, "SELECT ZAUTHOR FROM ZPOST")
        #expect(rows.count == 1)
        #expect(rows.first.map { $0[0] as Int64? } == .some(nil))
    }

    @Test("a child's new object saved through its parent, then changed again in the child, updates its one row", arguments: [false, true])
    func childChangesAfterParentSaveAndRelease(retains: Bool) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (coordinator, url) = try store(in: directory)
        let parent = context(coordinator, retains: retains)
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        child.retainsRegisteredObjects = retains
        let post = try child.performAndWait {
            let post = NSEntityDescription.insertNewObject(forEntityName: "Post", into: child)
            post.setValue("draft", forKey: "title")
            try child.save()
            return post
        }
        try parent.performAndWait {
            try parent.save()
            try churn(parent)
            #expect((parent.registry.count == 0) == !retains)
        }
        try child.performAndWait {
            post.setValue("final", forKey: "title")
            try child.save()
        }
        try parent.performAndWait { try parent.save() }
        let titles = try StoreKit.rows(url, "SELECT ZTITLE FROM ZPOST ORDER BY ZTITLE").map { $0[0] as String }
        #expect(titles == ["final", "p1"])
    }

    @Test("a many-to-many change shows on the other side after the context let go of that side's objects", arguments: [false, true])
    func manyToManyInverseAfterRelease(retains: Bool) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (coordinator, url) = try store(in: directory)
        let context = context(coordinator, retains: retains)
        try context.performAndWait {
            let post = try #require(try context.fetch(StoreKit.request("Post")).first)
            let tagIDs = try context.fetch(
                StoreKit.request(
                    "Tag", "label IN %@", [["t5", "t6"]],
                    sort: [NSSortDescriptor(key: "label", ascending: true)])
            ).map(\.objectID)
            post.mutableSetValue(forKey: "tags").addObjects(from: tagIDs.map { context.object(with: $0) })
            context.processPendingChanges()
            // The post's set is emptied of one tag through the tag's side.
            context.object(with: tagIDs[1]).mutableSetValue(forKey: "posts").remove(post)
            post.mutableSetValue(forKey: "tags").removeAllObjects()
            post.mutableSetValue(forKey: "tags").add(context.object(with: tagIDs[0]))
            context.processPendingChanges()
            try churn(context)
            let first = context.object(with: tagIDs[0]).value(forKey: "posts") as? Set<NSManagedObject>
            let second = context.object(with: tagIDs[1]).value(forKey: "posts") as? Set<NSManagedObject>
            #expect(first == [post])
            #expect(second?.isEmpty == true)
            try context.save()
        }
        let links = try StoreKit.rows(url, "SELECT COUNT(*) FROM Z_3TAGS").map { $0[0] as Int }
        #expect(links == [1])
    }

    @Test("automatic merging updates held objects and objects the context let go of alike", arguments: [false, true])
    func automaticMergeAfterRelease(retains: Bool) async throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (coordinator, _) = try store(in: directory)
        let view = context(coordinator, retains: retains)
        view.automaticallyMergesChangesFromParent = true
        let (post, tagID) = try view.performAndWait {
            let post = try #require(try view.fetch(StoreKit.request("Post")).first)
            let tag = try #require(try view.fetch(StoreKit.request("Tag", "label == %@", ["t7"])).first)
            #expect(tag.value(forKey: "label") as? String == "t7")
            return (post, tag.objectID)
        }
        try view.performAndWait {
            try churn(view)
            #expect((view.registeredObject(for: tagID) == nil) == !retains)
        }
        let background = context(coordinator, retains: false)
        try await background.perform {
            try background.existingObject(with: post.objectID).setValue("merged", forKey: "title")
            try background.existingObject(with: tagID).setValue("t7 merged", forKey: "label")
            try background.save()
        }
        let (title, label, changed) = await view.perform(schedule: .enqueued) {
            (post.value(forKey: "title") as? String, view.object(with: tagID).value(forKey: "label") as? String, view.hasChanges)
        }
        #expect(title == "merged")
        #expect(label == "t7 merged")
        #expect(!changed)
    }
}
