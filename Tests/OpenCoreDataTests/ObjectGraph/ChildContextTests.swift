import OpenCoreData
import Testing

@Suite("Parent and child contexts")
struct ChildContextTests {
    /// A private-queue child of a context.
    private func child(of parent: NSManagedObjectContext) -> NSManagedObjectContext {
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        return child
    }

    /// The number of objects of an entity in the store, read by a fresh context.
    private func storeCount(_ stack: GraphStack, _ entity: String = "Author") throws -> Int {
        let reader = stack.context()
        return try reader.performAndWait { try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: entity)) }
    }

    @Test("a child's save pushes its inserts into the parent, not to disk; the parent's save writes them with permanent IDs")
    func childSaveGoesToParent() throws {
        let stack = try GraphStack()
        let parent = stack.context()
        let child = child(of: parent)
        #expect(child.parent === parent)
        #expect(child.persistentStoreCoordinator === stack.coordinator)

        let tempID = try child.performAndWait {
            let ann = child.make("Author", ["name": "Ann", "age": Int16(30)])
            try child.save()
            #expect(!child.hasChanges)
            return ann.objectID
        }
        #expect(tempID.isTemporaryID)
        #expect(try storeCount(stack) == 0)
        let inParent = try #require(parent.registeredObject(for: tempID))
        #expect(parent.insertedObjects == [inParent])
        #expect(inParent.string("name") == "Ann")
        #expect(inParent.value(forKey: "age") as? Int16 == 30)

        try parent.save()
        #expect(try storeCount(stack) == 1)
        #expect(!inParent.objectID.isTemporaryID)
        let reader = stack.context()
        let stored = try reader.existingObject(with: inParent.objectID)
        #expect(stored.string("name") == "Ann")
    }

    @Test("a child's fetches and faults see the parent's unsaved inserts, changes and deletes")
    func childSeesParentState() throws {
        let stack = try GraphStack()
        let parent = stack.context()
        let ann = parent.make("Author", ["name": "Ann"])
        let bob = parent.make("Author", ["name": "Bob"])
        let cid = parent.make("Author", ["name": "Cid"])
        try parent.save()
        ann.setValue("Anne", forKey: "name")
        parent.delete(bob)
        parent.make("Author", ["name": "Dee"])
        _ = cid

        let child = child(of: parent)
        let names = try child.performAndWait { try child.all("Author", sortedBy: "name").compactMap { $0.string("name") } }
        #expect(names == ["Anne", "Cid", "Dee"])
        let filtered = try child.performAndWait {
            try child.all("Author", predicate: NSPredicate(format: "name BEGINSWITH %@", "A")).compactMap { $0.string("name") }
        }
        #expect(filtered == ["Anne"])
        let count = try child.performAndWait { try child.count(for: NSFetchRequest<NSManagedObject>(entityName: "Author")) }
        #expect(count == 3)
        let faulted = child.performAndWait { child.object(with: ann.objectID).string("name") }
        #expect(faulted == "Anne")
    }

    @Test("a child's updates and deletes become the parent's unsaved changes, and the parent's save writes them")
    func childUpdatesAndDeletes() throws {
        let stack = try GraphStack()
        let parent = stack.context()
        let ann = parent.make("Author", ["name": "Ann"])
        let bob = parent.make("Author", ["name": "Bob"])
        try parent.save()

        let child = child(of: parent)
        try child.performAndWait {
            let objects = try child.all("Author", sortedBy: "name")
            objects[0].setValue("Anne", forKey: "name")
            child.delete(objects[1])
            try child.save()
        }
        #expect(ann.string("name") == "Anne")
        #expect(parent.updatedObjects == [ann])
        #expect(parent.deletedObjects == [bob])
        try parent.save()
        let reader = stack.context()
        #expect(try reader.all("Author").compactMap { $0.string("name") } == ["Anne"])
    }

    @Test("relationships made in a child reach the parent and the store")
    func childRelationships() throws {
        let stack = try GraphStack()
        let parent = stack.context()
        let child = child(of: parent)
        try child.performAndWait {
            let ann = child.make("Author", ["name": "Ann"])
            let post = child.make("Post", ["title": "Hello"])
            post.setValue(ann, forKey: "author")
            try child.save()
        }
        try parent.save()
        let reader = stack.context()
        let post = try #require(try reader.all("Post").first)
        #expect((post.value(forKey: "author") as? NSManagedObject)?.string("name") == "Ann")
    }

    @Test("obtainPermanentIDs in a child gives permanent IDs that the parent and the store keep")
    func permanentIDsInChild() throws {
        let stack = try GraphStack()
        let parent = stack.context()
        let child = child(of: parent)
        let id = try child.performAndWait {
            let ann = child.make("Author", ["name": "Ann"])
            try child.obtainPermanentIDs(for: [ann])
            #expect(!ann.objectID.isTemporaryID)
            try child.save()
            return ann.objectID
        }
        #expect(parent.registeredObject(for: id) != nil)
        try parent.save()
        let reader = stack.context()
        #expect(try reader.existingObject(with: id).string("name") == "Ann")
    }

    @Test("when the root saves, a child's objects known by temporary IDs take the permanent IDs")
    func temporaryIDsBecomePermanent() async throws {
        let stack = try GraphStack()
        let parent = stack.context()
        let child = child(of: parent)
        let ann = try child.performAndWait {
            let ann = child.make("Author", ["name": "Ann"])
            try child.save()
            return ann
        }
        try parent.performAndWait { try parent.save() }
        let id = await child.perform(schedule: .enqueued) { ann.objectID }
        #expect(!id.isTemporaryID)
        let parentID = parent.performAndWait { parent.registeredObjects.first?.objectID }
        #expect(id == parentID)
        // A later change in the child still reaches the same object.
        try child.performAndWait {
            ann.setValue("Anne", forKey: "name")
            try child.save()
        }
        try parent.performAndWait { try parent.save() }
        let reader = stack.context()
        #expect(try reader.all("Author").compactMap { $0.string("name") } == ["Anne"])
    }

    @Test("writer (private) → main → background: an import in the background reaches the store after each level saves")
    func threeLevelChain() async throws {
        let stack = try GraphStack()
        let writer = stack.context()
        let main = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        main.parent = writer
        let background = child(of: main)
        try await background.perform {
            for index in 0..<5 { background.make("Author", ["name": "A\(index)"]) }
            try background.save()
        }
        let seenInMain = try await main.perform { try main.count(for: NSFetchRequest<NSManagedObject>(entityName: "Author")) }
        #expect(seenInMain == 5)
        #expect(try storeCount(stack) == 0)
        try await main.perform { try main.save() }
        #expect(try storeCount(stack) == 0)
        try await writer.perform { try writer.save() }
        #expect(try storeCount(stack) == 5)
    }

    @Test("from the main queue, performAndWait on a private child of a main-queue context reads and saves through the parent")
    @MainActor
    func privateChildOfMainQueueContextFromMainQueue() throws {
        // Swift Testing drains the main queue on a worker thread: the child's block runs on this thread
        // inside queue.sync, and reaching the parent must not wait for the main queue this test holds.
        let stack = try GraphStack()
        let main = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        main.persistentStoreCoordinator = stack.coordinator
        main.make("Author", ["name": "Ann"])
        try main.save()
        let background = child(of: main)
        let names = try background.performAndWait {
            let authors = try background.fetch(NSFetchRequest<NSManagedObject>(entityName: "Author"))
            background.make("Author", ["name": "Bo"])
            try background.save()
            return authors.compactMap { $0.string("name") }
        }
        #expect(names == ["Ann"])
        #expect(main.hasChanges)
        try main.save()
        #expect(try storeCount(stack) == 2)
    }

    @Test("a child that merges automatically sees its parent's saved changes")
    func automaticMergeFromParent() async throws {
        let stack = try GraphStack()
        let parent = stack.context()
        let ann = parent.make("Author", ["name": "Ann"])
        try parent.save()
        let child = child(of: parent)
        child.automaticallyMergesChangesFromParent = true
        #expect(child.automaticallyMergesChangesFromParent)
        let inChild = child.performAndWait {
            let object = child.object(with: ann.objectID)
            _ = object.string("name")
            return object
        }
        try parent.performAndWait {
            ann.setValue("Anne", forKey: "name")
            parent.make("Author", ["name": "Bob"])
            try parent.save()
        }
        let name = await child.perform(schedule: .enqueued) { inChild.string("name") }
        #expect(name == "Anne")
        let registered = await child.perform(schedule: .enqueued) { child.registeredObjects.count }
        #expect(registered == 2)
    }
}
