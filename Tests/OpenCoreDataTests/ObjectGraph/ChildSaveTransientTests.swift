import OpenCoreData
import Testing

/// A child's save pushes ALL its changes one level up — transient values and inherited attributes
/// included — and a child reads every property of the parent's objects.
@Suite("Child context saves: transient values and inherited attributes reach the parent")
struct ChildSaveTransientTests {
    /// A private-queue child of a context.
    private func child(of parent: NSManagedObjectContext) -> NSManagedObjectContext {
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        return child
    }

    @Test("a transient value set on an object inserted in a child is on the parent's object after the child saves")
    func insertedTransient() throws {
        let stack = try GraphStack()
        let parent = stack.context()
        let child = child(of: parent)
        let id = try child.performAndWait {
            let post = child.make("Post", ["title": "Hello", "draft": "scratch"])
            try child.save()
            return post.objectID
        }
        let inParent = try #require(parent.registeredObject(for: id))
        #expect(inParent.value(forKey: "draft") as? String == "scratch")
        #expect(inParent.value(forKey: "title") as? String == "Hello")
        #expect(inParent.changedValues()["draft"] == nil, "changedValues() reports persistent properties only")
        try parent.save()
        #expect(inParent.value(forKey: "draft") as? String == "scratch", "the parent's save keeps it in memory")
        let reader = stack.context()
        #expect(try reader.all("Post").first?.value(forKey: "draft") == nil, "and never stores it")
    }

    @Test("a child's change of only a transient value makes the parent's object updated with that value")
    func transientOnlyUpdate() throws {
        let stack = try GraphStack()
        let parent = stack.context()
        let post = parent.make("Post", ["title": "Hello"])
        try parent.save()
        let recorder = NotificationRecorder([.NSManagedObjectContextObjectsDidChange], object: parent)

        let child = child(of: parent)
        try child.performAndWait {
            let mine = child.object(with: post.objectID)
            mine.setValue("note", forKey: "draft")
            #expect(child.hasChanges)
            try child.save()
            #expect(!child.hasChanges)
        }
        #expect(post.value(forKey: "draft") as? String == "note")
        #expect(parent.updatedObjects == [post])
        #expect(post.isUpdated && post.hasChanges)
        #expect(!post.hasPersistentChangedValues)
        let changes = recorder.named(.NSManagedObjectContextObjectsDidChange)
        #expect(changes.contains { $0.objects(NSUpdatedObjectsKey).contains(post) })
    }

    @Test("a child's transient and persistent changes arrive together; clearing a transient clears it in the parent")
    func transientWithPersistentAndCleared() throws {
        let stack = try GraphStack()
        let parent = stack.context()
        let post = parent.make("Post", ["title": "Hello", "draft": "old"])
        try parent.save()

        let child = child(of: parent)
        try child.performAndWait {
            let mine = child.object(with: post.objectID)
            mine.setValue("Hello again", forKey: "title")
            mine.setValue("new", forKey: "draft")
            try child.save()
        }
        #expect(post.value(forKey: "title") as? String == "Hello again")
        #expect(post.value(forKey: "draft") as? String == "new")
        try parent.save()

        try child.performAndWait {
            let mine = child.object(with: post.objectID)
            mine.setValue(nil, forKey: "draft")
            try child.save()
        }
        #expect(post.value(forKey: "draft") == nil)
        #expect(parent.updatedObjects == [post])
    }

    @Test("a grandchild's transient value travels up through every level")
    func throughTwoLevels() throws {
        let stack = try GraphStack()
        let root = stack.context()
        let middle = child(of: root)
        let leaf = child(of: middle)
        let id = try leaf.performAndWait {
            let post = leaf.make("Post", ["title": "Deep", "draft": "from the leaf"])
            try leaf.save()
            return post.objectID
        }
        try middle.performAndWait { try middle.save() }
        let inRoot = try #require(root.registeredObject(for: id))
        #expect(inRoot.value(forKey: "draft") as? String == "from the leaf")
        #expect(inRoot.value(forKey: "title") as? String == "Deep")
    }

    @Test("inherited attributes of a sub-entity object inserted in a child reach the parent and the store")
    func inheritedAttributesOfInsert() throws {
        let stack = try GraphStack(model: VehicleModel.make())
        let parent = stack.context()
        let child = child(of: parent)
        let id = try child.performAndWait {
            let car = child.make("Car", ["brand": "VW", "numberOfDoors": Int16(5)])
            try child.save()
            return car.objectID
        }
        let inParent = try #require(parent.registeredObject(for: id))
        #expect(inParent.value(forKey: "brand") as? String == "VW")
        #expect(inParent.value(forKey: "numberOfDoors") as? Int16 == 5)
        try parent.save()
        let reader = stack.context()
        let stored = try #require(try reader.all("Car").first)
        #expect(stored.value(forKey: "brand") as? String == "VW")
    }

    @Test("a child reads inherited attributes of objects the parent inserted or changed")
    func childReadsInheritedAttributes() throws {
        let stack = try GraphStack(model: VehicleModel.make())
        let parent = stack.context()
        let car = parent.make("Car", ["brand": "Mini", "numberOfDoors": Int16(3)])
        let child = child(of: parent)
        let brand = child.performAndWait { child.object(with: car.objectID).value(forKey: "brand") as? String }
        #expect(brand == "Mini")
        let fetched = try child.performAndWait {
            try child.all("Vehicle", predicate: NSPredicate(format: "brand == 'Mini'")).map(\.objectID)
        }
        #expect(fetched == [car.objectID])
    }
}
