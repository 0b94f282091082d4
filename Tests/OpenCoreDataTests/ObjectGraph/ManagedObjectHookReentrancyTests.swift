import OpenCoreData
import Testing

/// A Post subclass whose overridable hooks reach back into the object and its context while the
/// object graph is in the middle of an operation: reading and writing other properties, asking for
/// its changes, creating objects. Core Data users do all of this in their subclasses.
final class ReentrantPost: NSManagedObject {
    nonisolated(unsafe) static var seen: [String] = []

    override func willChangeValue(forKey key: String) {
        super.willChangeValue(forKey: key)
        _ = changedValues()
        _ = changedValuesForCurrentEvent()
        _ = managedObjectContext?.hasChanges
    }

    override func didChangeValue(forKey key: String) {
        super.didChangeValue(forKey: key)
        _ = changedValuesForCurrentEvent()
        _ = committedValues(forKeys: nil)
        // Keeps a derived value in step, as subclasses do from their setters.
        if key == "title" { setPrimitiveValue("edited \(primitiveValue(forKey: "title") ?? "")", forKey: "body") }
        _ = managedObjectContext?.updatedObjects.count
    }

    override func willAccessValue(forKey key: String?) {
        super.willAccessValue(forKey: key)
        _ = isUpdated
    }

    override func awakeFromFetch() {
        super.awakeFromFetch()
        Self.seen.append("fetched \(value(forKey: "title") as? String ?? "?")")
        setPrimitiveValue("draft of \(primitiveValue(forKey: "title") ?? "")", forKey: "draft")
        _ = changedValues()
    }

    override func awakeFromInsert() {
        super.awakeFromInsert()
        setPrimitiveValue("untitled", forKey: "title")
        _ = managedObjectContext?.insertedObjects.count
    }

    override func willSave() {
        super.willSave()
        if !isDeleted, value(forKey: "rating") == nil { setValue(1.5, forKey: "rating") }
        _ = changedValues()
    }

    override func didSave() {
        super.didSave()
        _ = committedValues(forKeys: ["title"])
        _ = managedObjectContext?.hasChanges
    }

    override func prepareForDeletion() {
        super.prepareForDeletion()
        _ = value(forKey: "author")
        setValue(nil, forKey: "tags")
    }

    override func willTurnIntoFault() {
        super.willTurnIntoFault()
        _ = changedValues()
        _ = primitiveValue(forKey: "title")
    }

    override func didTurnIntoFault() {
        super.didTurnIntoFault()
        _ = isFault
        _ = managedObjectContext?.registeredObjects.count
    }

    override func validateValue(_ value: AutoreleasingUnsafeMutablePointer<AnyObject?>, forKey key: String) throws {
        _ = primitiveValue(forKey: "title")
        _ = changedValues()
        try super.validateValue(value, forKey: key)
    }
}

@Suite("Managed object hooks that reach back into the object graph", .serialized)
struct ManagedObjectHookReentrancyTests {
    private func stack() throws -> GraphStack {
        let model = BlogModel.make()
        model.entitiesByName["Post"]?.managedObjectClassName = NSStringFromClass(ReentrantPost.self)
        return try GraphStack(model: model)
    }

    @Test("insert, change, save, fetch, refresh, undo and delete with hooks that read and write the object")
    func lifecycle() throws {
        let stack = try stack()
        let context = stack.context()
        context.undoManager = UndoManager()
        let author = context.make("Author", ["name": "Ann"])
        let tag = context.make("Tag", ["name": "swift"])
        let post = try #require(context.make("Post") as? ReentrantPost)
        #expect(post.value(forKey: "title") as? String == "untitled")
        post.setValue("Hello", forKey: "title")
        post.setValue(author, forKey: "author")
        post.setValue(NSSet(object: tag), forKey: "tags")
        #expect(post.value(forKey: "body") as? String == "edited Hello")
        try context.save()
        #expect(post.value(forKey: "rating") as? Double == 1.5)

        post.setValue("Again", forKey: "title")
        context.processPendingChanges()
        context.undoManager?.undo()
        #expect(post.value(forKey: "title") as? String == "Hello")
        context.rollback()

        let reader = stack.context()
        let fetched = try #require(try reader.all("Post").first as? ReentrantPost)
        #expect(fetched.value(forKey: "draft") as? String == "draft of Hello")
        fetched.setValue("Changed", forKey: "title")
        reader.refresh(fetched, mergeChanges: true)
        #expect(fetched.value(forKey: "title") as? String == "Changed")
        reader.refresh(fetched, mergeChanges: false)
        #expect(fetched.value(forKey: "title") as? String == "Hello")
        reader.refreshAllObjects()
        try reader.save()

        context.delete(post)
        try context.save()
        #expect(try stack.context().all("Post").isEmpty)
        #expect(ReentrantPost.seen.contains("fetched Hello"))
    }

    @Test("merging another context's save into objects whose hooks read the context")
    func merging() throws {
        let stack = try stack()
        let writer = stack.context()
        let post = writer.make("Post", ["title": "One"])
        try writer.save()
        let reader = stack.context()
        let fetched = try #require(try reader.all("Post").first)
        _ = fetched.value(forKey: "title")
        let recorder = NotificationRecorder([.NSManagedObjectContextDidSave], object: writer)
        post.setValue("Two", forKey: "title")
        try writer.save()
        reader.mergeChanges(fromContextDidSave: try #require(recorder.notifications.first))
        #expect(fetched.value(forKey: "title") as? String == "Two")
    }
}
