import OpenCoreData
import Testing

@Suite("Context undo and redo")
struct ContextUndoTests {
    /// A context with an undo manager on a fresh store of the relationship model.
    private func undoableContext(_ kind: TestStoreKind) throws -> (GraphStack, NSManagedObjectContext, UndoManager) {
        let stack = try GraphRulesModel.stack(kind)
        let context = stack.context()
        let manager = UndoManager()
        context.undoManager = manager
        return (stack, context, manager)
    }

    @Test("a context has no undo manager unless one is set, and undo() then does nothing")
    func noUndoManagerByDefault() throws {
        let stack = try GraphRulesModel.stack(.inMemory)
        let context = stack.context()
        #expect(context.undoManager == nil)
        let user = context.make("User", ["name": "Ann"])
        context.undo()
        #expect(user.isInserted)
    }

    @Test("undo puts an attribute back and clears the change; redo applies it again", arguments: TestStoreKind.allCases)
    func attributeChange(kind: TestStoreKind) throws {
        let (stack, context, manager) = try undoableContext(kind)
        defer { withExtendedLifetime(stack) {} }
        let user = context.make("User", ["name": "Ann"])
        try context.save()
        user.setValue("Annie", forKey: "name")
        #expect(manager.canUndo)
        context.undo()
        #expect(user.value(forKey: "name") as? String == "Ann")
        #expect(!context.hasChanges && !user.isUpdated)
        #expect(manager.canRedo)
        context.redo()
        #expect(user.value(forKey: "name") as? String == "Annie")
        #expect(user.isUpdated)
    }

    @Test("each event (up to processPendingChanges) is one undo group")
    func eventsAreGroups() throws {
        let (_, context, _) = try undoableContext(.inMemory)
        let user = context.make("User", ["name": "A"])
        try context.save()
        user.setValue("B", forKey: "name")
        user.setValue("C", forKey: "name")
        context.processPendingChanges()
        user.setValue("D", forKey: "name")
        context.undo()
        #expect(user.value(forKey: "name") as? String == "C")
        context.undo()
        #expect(user.value(forKey: "name") as? String == "A")
        context.redo()
        context.redo()
        #expect(user.value(forKey: "name") as? String == "D")
    }

    @Test(
        "undoing an insert removes the object from the context; redo brings the same object back with its values", arguments: TestStoreKind.allCases)
    func insertUndo(kind: TestStoreKind) throws {
        let (stack, context, _) = try undoableContext(kind)
        let ann = context.make("User", ["name": "Ann"])
        try context.save()
        let post = context.make("Post", ["title": "Hello", "author": ann])
        context.undo()
        #expect(post.managedObjectContext == nil)
        #expect(context.insertedObjects.isEmpty)
        #expect(ann.related("posts").isEmpty)
        #expect(!context.hasChanges)
        context.redo()
        #expect(post.managedObjectContext === context && post.isInserted)
        #expect(post.value(forKey: "title") as? String == "Hello")
        #expect(ann.related("posts").first === post)
        try context.save()
        let reader = stack.context()
        #expect(try reader.all("Post").first?.toOne("author")?.value(forKey: "name") as? String == "Ann")
    }

    @Test(
        "undoing a delete restores the object, the cascaded objects and every nullified inverse; redo deletes again",
        arguments: TestStoreKind.allCases)
    func deleteUndo(kind: TestStoreKind) throws {
        let (stack, context, _) = try undoableContext(kind)
        let ann = context.make("User", ["name": "Ann"])
        let posts = ["P1", "P2"].map { context.make("Post", ["title": $0, "author": ann]) }
        let alice = context.make("Student", ["name": "Alice"])
        let ios = context.make("Course", ["title": "iOS"])
        alice.mutableSetValue(forKey: "courses").add(ios)
        try context.save()

        context.delete(ann)
        context.delete(ios)
        context.processPendingChanges()
        #expect(posts.allSatisfy { $0.isDeleted })
        #expect(alice.related("courses").isEmpty)
        context.undo()
        #expect(!ann.isDeleted && posts.allSatisfy { !$0.isDeleted } && !ios.isDeleted)
        #expect(ann.related("posts").count == 2)
        #expect(posts.allSatisfy { $0.toOne("author") === ann })
        #expect(alice.related("courses").first === ios)
        #expect(ios.related("students").first === alice)
        #expect(!context.hasChanges)
        context.redo()
        #expect(ann.isDeleted && posts.allSatisfy { $0.isDeleted } && ios.isDeleted)
        #expect(alice.related("courses").isEmpty)
        try context.save()
        let fresh = stack.context()
        #expect(try fresh.all("User").isEmpty && fresh.all("Post").isEmpty && fresh.all("Course").isEmpty)
        #expect(try fresh.all("Student").first?.related("courses").isEmpty == true)
    }

    @Test("undoing a relationship change restores both sides: the old owner gets the object back", arguments: TestStoreKind.allCases)
    func relationshipUndo(kind: TestStoreKind) throws {
        let (stack, context, _) = try undoableContext(kind)
        let ann = context.make("User", ["name": "Ann"])
        let bob = context.make("User", ["name": "Bob"])
        let post = context.make("Post", ["title": "Hello", "author": ann])
        let mix = context.make("Playlist", ["name": "Mix"])
        let songs = ["A", "B", "C"].map { context.make("Song", ["title": $0]) }
        mix.mutableOrderedSetValue(forKey: "songs").addObjects(from: songs)
        try context.save()

        bob.mutableSetValue(forKey: "posts").add(post)
        let list = mix.mutableOrderedSetValue(forKey: "songs")
        list.removeObject(at: 2)
        list.insert(songs[2], at: 0)
        context.undo()
        #expect(post.toOne("author") === ann)
        #expect(ann.related("posts").first === post && bob.related("posts").isEmpty)
        #expect(mix.relatedNames("songs", "title") == ["A", "B", "C"])
        #expect(!context.hasChanges)
        context.redo()
        #expect(post.toOne("author") === bob && ann.related("posts").isEmpty)
        #expect(mix.relatedNames("songs", "title") == ["C", "A", "B"])
        try context.save()
        let fresh = stack.context()
        #expect(try fresh.all("User", sortedBy: "name").map { $0.related("posts").count } == [0, 1])
        #expect(try fresh.all("Playlist").first?.relatedNames("songs", "title") == ["C", "A", "B"])
    }

    @Test("undo after a save makes the saved change unsaved again; saving then stores the old value", arguments: TestStoreKind.allCases)
    func undoAfterSave(kind: TestStoreKind) throws {
        let (stack, context, _) = try undoableContext(kind)
        let user = context.make("User", ["name": "Ann"])
        try context.save()
        user.setValue("Annie", forKey: "name")
        try context.save()
        context.undo()
        #expect(user.isUpdated)
        try context.save()
        let reader = stack.context()
        #expect(try reader.all("User").first?.value(forKey: "name") as? String == "Ann")
    }

    @Test("undoing a saved insert deletes the object", arguments: TestStoreKind.allCases)
    func undoSavedInsert(kind: TestStoreKind) throws {
        let (stack, context, _) = try undoableContext(kind)
        let ann = context.make("User", ["name": "Ann"])
        try context.save()
        context.undo()
        #expect(ann.isDeleted)
        try context.save()
        #expect(try stack.context().all("User").isEmpty)
    }

    @Test("undoing a saved delete inserts the object again with its values and relationships", arguments: TestStoreKind.allCases)
    func undoSavedDelete(kind: TestStoreKind) throws {
        let (stack, context, _) = try undoableContext(kind)
        let ann = context.make("User", ["name": "Ann"])
        let post = context.make("Post", ["title": "Hello", "author": ann])
        try context.save()
        context.delete(ann)
        try context.save()
        #expect(try stack.context().all("Post").isEmpty)
        context.undo()
        #expect(ann.isInserted && post.isInserted)
        #expect(post.toOne("author") === ann)
        try context.save()
        let fresh = stack.context()
        #expect(try fresh.all("User").map { $0.value(forKey: "name") as? String } == ["Ann"])
        #expect(try fresh.all("Post").first?.toOne("author")?.value(forKey: "name") as? String == "Ann")
    }

    @Test("rollback and reset clear the undo stack")
    func rollbackAndResetClear() throws {
        let (stack, context, manager) = try undoableContext(.sqlite)
        defer { withExtendedLifetime(stack) {} }  // the stack's folder holds the store file
        let user = context.make("User", ["name": "Ann"])
        try context.save()
        user.setValue("B", forKey: "name")
        context.rollback()
        #expect(user.value(forKey: "name") as? String == "Ann")
        #expect(!manager.canUndo && !manager.canRedo)
        user.setValue("C", forKey: "name")
        context.reset()
        #expect(!manager.canUndo)
    }

    @Test("changes made with registration disabled are not undone")
    func disabledRegistration() throws {
        let (_, context, manager) = try undoableContext(.inMemory)
        let user = context.make("User", ["name": "Ann"])
        context.processPendingChanges()
        manager.disableUndoRegistration()
        user.setValue("Quiet", forKey: "name")
        context.processPendingChanges()
        manager.enableUndoRegistration()
        context.undo()
        #expect(user.managedObjectContext == nil)
        context.redo()
        #expect(user.value(forKey: "name") as? String == "Quiet")
    }

    @Test("levelsOfUndo limits how many events can be undone (the seed's levelsOfUndo = 10)")
    func levels() throws {
        let (_, context, manager) = try undoableContext(.inMemory)
        manager.levelsOfUndo = 10
        let user = context.make("User", ["name": "0"])
        try context.save()
        for step in 1...12 {
            user.setValue("\(step)", forKey: "name")
            context.processPendingChanges()
        }
        for _ in 1...15 { context.undo() }
        #expect(user.value(forKey: "name") as? String == "2")
    }

    @Test("action names set on the context's undo manager name the event")
    func actionName() throws {
        let (_, context, manager) = try undoableContext(.inMemory)
        context.make("User", ["name": "Ann"])
        manager.setActionName("Add User")
        context.processPendingChanges()
        #expect(manager.undoMenuItemTitle == "Undo Add User")
        context.undo()
        #expect(manager.redoMenuItemTitle == "Redo Add User")
    }
}
