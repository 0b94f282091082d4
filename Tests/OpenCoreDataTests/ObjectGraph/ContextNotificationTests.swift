import OpenCoreData
import Testing

@Suite("Context notifications")
struct ContextNotificationTests {
    private static let allNames: [Notification.Name] = [
        .NSManagedObjectContextObjectsDidChange, .NSManagedObjectContextWillSave,
        .NSManagedObjectContextDidSave, .NSManagedObjectContextDidSaveObjectIDs,
    ]

    @Test("processPendingChanges posts ObjectsDidChange with the inserted, updated and deleted objects, the context as object")
    func objectsDidChange() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann"])
        let bob = context.make("Author", ["name": "Bob"])
        try context.save()
        let recorder = NotificationRecorder([.NSManagedObjectContextObjectsDidChange], object: context)

        let cid = context.make("Author", ["name": "Cid"])
        ann.setValue("Anne", forKey: "name")
        context.delete(bob)
        context.processPendingChanges()

        let notes = recorder.notifications
        try #require(notes.count == 1)
        #expect(notes[0].object as AnyObject === context)
        #expect(notes[0].objects(NSInsertedObjectsKey) == [cid])
        #expect(notes[0].objects(NSUpdatedObjectsKey) == [ann])
        #expect(notes[0].objects(NSDeletedObjectsKey) == [bob])
    }

    @Test("an event with no change, or one that only fetched objects, posts nothing; the next event reports only its own changes")
    func onlyNewChanges() throws {
        let stack = try GraphStack()
        let seed = stack.context()
        seed.make("Author", ["name": "Ann"])
        try seed.save()
        let context = stack.context()
        let recorder = NotificationRecorder([.NSManagedObjectContextObjectsDidChange], object: context)
        let fetched = try context.all("Author")
        context.processPendingChanges()
        #expect(recorder.notifications.isEmpty)

        let first = context.make("Author", ["name": "Bob"])
        context.processPendingChanges()
        let second = context.make("Author", ["name": "Cid"])
        fetched[0].setValue(Int16(40), forKey: "age")
        context.processPendingChanges()
        context.processPendingChanges()

        let notes = recorder.notifications
        try #require(notes.count == 2)
        #expect(notes[0].objects(NSInsertedObjectsKey) == [first])
        #expect(notes[1].objects(NSInsertedObjectsKey) == [second])
        #expect(notes[1].objects(NSUpdatedObjectsKey) == [fetched[0]])
    }

    @Test("an object inserted in one event and deleted in a later one is reported deleted; inserted and deleted in one event, not at all")
    func insertedThenDeleted() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let recorder = NotificationRecorder([.NSManagedObjectContextObjectsDidChange], object: context)
        let kept = context.make("Author", ["name": "Ann"])
        context.processPendingChanges()
        context.delete(kept)
        let fleeting = context.make("Author", ["name": "Bob"])
        context.delete(fleeting)
        context.processPendingChanges()
        let notes = recorder.notifications
        try #require(notes.count == 2)
        #expect(notes[1].objects(NSDeletedObjectsKey) == [kept])
        #expect(notes[1].objects(NSInsertedObjectsKey).isEmpty)
    }

    @Test(
        "save posts ObjectsDidChange (pending changes processed), then WillSave, then DidSave with the saved objects and DidSaveObjectIDs with permanent IDs"
    )
    func saveNotifications() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let old = context.make("Author", ["name": "Old"])
        let gone = context.make("Author", ["name": "Gone"])
        try context.save()
        let recorder = NotificationRecorder(Self.allNames, object: context)

        let new = context.make("Author", ["name": "New"])
        old.setValue("Older", forKey: "name")
        context.delete(gone)
        let goneID = gone.objectID
        try context.save()

        let names = recorder.notifications.map(\.name)
        #expect(
            names == [
                .NSManagedObjectContextObjectsDidChange, .NSManagedObjectContextWillSave,
                .NSManagedObjectContextDidSave, .NSManagedObjectContextDidSaveObjectIDs,
            ])
        let didSave = try #require(recorder.named(.NSManagedObjectContextDidSave).first)
        #expect(didSave.object as AnyObject === context)
        #expect(didSave.objects(NSInsertedObjectsKey) == [new])
        #expect(didSave.objects(NSUpdatedObjectsKey) == [old])
        #expect(didSave.objects(NSDeletedObjectsKey) == [gone])
        let ids = try #require(recorder.named(.NSManagedObjectContextDidSaveObjectIDs).first)
        let inserted = ids.objectIDs(NSInsertedObjectIDsKey)
        #expect(inserted == [new.objectID])
        #expect(inserted.allSatisfy { !$0.isTemporaryID })
        #expect(ids.objectIDs(NSUpdatedObjectIDsKey) == [old.objectID])
        #expect(ids.objectIDs(NSDeletedObjectIDsKey) == [goneID])
    }

    @Test("DidSave's inserted objects are every object the save inserted, however the inserts were spread over events")
    func didSaveInsertedAcrossEvents() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let recorder = NotificationRecorder([.NSManagedObjectContextDidSave], object: context)
        func savedInserts() throws -> Set<NSManagedObject> {
            try context.save()
            let note = try #require(recorder.named(.NSManagedObjectContextDidSave).last)
            return note.objects(NSInsertedObjectsKey)
        }

        // All in one event.
        let ann = context.make("Author", ["name": "Ann"])
        #expect(try savedInserts() == [ann])
        // An event reported some; more came after it.
        let bob = context.make("Author", ["name": "Bob"])
        context.processPendingChanges()
        let cid = context.make("Author", ["name": "Cid"])
        #expect(try savedInserts() == [bob, cid])
        // An event reported them all; one was deleted after it.
        let dan = context.make("Author", ["name": "Dan"])
        let eve = context.make("Author", ["name": "Eve"])
        context.processPendingChanges()
        context.delete(eve)
        #expect(try savedInserts() == [dan])
        // An event reported them all, then another event with nothing new, then a save.
        let fay = context.make("Author", ["name": "Fay"])
        context.processPendingChanges()
        context.processPendingChanges()
        #expect(try savedInserts() == [fay])
        #expect(recorder.named(.NSManagedObjectContextDidSave).count == 4)
    }

    @Test("a large save's DidSaveObjectIDs holds exactly the IDs its new objects have after the save, in a store and in a parent context")
    func largeSaveInsertedIDs() throws {
        let stack = try GraphStack()
        let context = stack.context()
        // More new objects than a save hashes on one thread (the set is then made on another).
        let count = 3000
        let recorder = NotificationRecorder([.NSManagedObjectContextDidSaveObjectIDs], object: context)
        let authors = (0..<count).map { context.make("Author", ["name": "A\($0)"]) }
        try context.save()
        let saved = try #require(recorder.named(.NSManagedObjectContextDidSaveObjectIDs).first).objectIDs(NSInsertedObjectIDsKey)
        #expect(saved.count == count)
        #expect(saved == Set(authors.map(\.objectID)))
        #expect(saved.allSatisfy { !$0.isTemporaryID })

        // A child's save keeps the temporary IDs: those are the ones reported.
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = context
        let childRecorder = NotificationRecorder([.NSManagedObjectContextDidSaveObjectIDs], object: child)
        try child.performAndWait {
            let books = (0..<count).map { child.make("Author", ["name": "B\($0)"]) }
            let temporary = Set(books.map(\.objectID))
            try child.save()
            let reported = try #require(childRecorder.named(.NSManagedObjectContextDidSaveObjectIDs).first).objectIDs(NSInsertedObjectIDsKey)
            #expect(reported == temporary)
            #expect(reported == Set(books.map(\.objectID)))
        }
    }

    @Test("DidSave names the saving context under NotificationKey.sourceContext; DidSaveObjectIDs has every ID set, invalidated too")
    func saveNotificationKeys() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let recorder = NotificationRecorder(Self.allNames, object: context)
        context.make("Author", ["name": "New"])
        try context.save()
        let didSave = try #require(recorder.named(.NSManagedObjectContextDidSave).first)
        let source = didSave.userInfo?[NSManagedObjectContext.NotificationKey.sourceContext.rawValue] as? NSManagedObjectContext
        #expect(source === context)
        #expect(didSave.userInfo?[NSUpdatedObjectsKey] as? Set<NSManagedObject> == [], "empty sets are present")
        let ids = try #require(recorder.named(.NSManagedObjectContextDidSaveObjectIDs).first)
        let keys = Set((ids.userInfo ?? [:]).keys.compactMap { $0 as? String })
        #expect(keys.isSuperset(of: [NSInsertedObjectIDsKey, NSUpdatedObjectIDsKey, NSDeletedObjectIDsKey, NSInvalidatedObjectIDsKey]))
        #expect(ids.userInfo?[NSInvalidatedObjectIDsKey] as? Set<NSManagedObjectID> == [])
        #expect(ids.userInfo?[NSManagedObjectContext.NotificationKey.sourceContext.rawValue] == nil, "only object IDs: safe to capture")
    }

    @Test("a save with nothing to write posts no save notifications")
    func emptySave() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let recorder = NotificationRecorder(Self.allNames, object: context)
        try context.save()
        #expect(recorder.notifications.isEmpty)
    }

    @Test("refreshing an object reports it under NSRefreshedObjectsKey; reset reports NSInvalidatedAllObjectsKey")
    func refreshedAndInvalidatedAll() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann"])
        try context.save()
        let recorder = NotificationRecorder([.NSManagedObjectContextObjectsDidChange], object: context)
        context.refresh(ann, mergeChanges: false)
        context.processPendingChanges()
        context.reset()
        let notes = recorder.notifications
        try #require(notes.count == 2)
        #expect(notes[0].objects(NSRefreshedObjectsKey) == [ann])
        #expect(notes[0].objects(NSUpdatedObjectsKey).isEmpty)
        #expect(
            notes[1].userInfo?[NSInvalidatedAllObjectsKey] as? [NSManagedObjectID] == [ann.objectID],
            "Core Data's value for NSInvalidatedAllObjectsKey is an array of object IDs")
    }

    @Test("the typed names and NotificationKey cases are the same names and keys")
    func typedNames() throws {
        #expect(NSManagedObjectContext.didChangeObjectsNotification == .NSManagedObjectContextObjectsDidChange)
        #expect(NSManagedObjectContext.willSaveObjectsNotification == .NSManagedObjectContextWillSave)
        #expect(NSManagedObjectContext.didSaveObjectsNotification == .NSManagedObjectContextDidSave)
        #expect(NSManagedObjectContext.didSaveObjectIDsNotification == .NSManagedObjectContextDidSaveObjectIDs)
        #expect(NSManagedObjectContext.didMergeChangesObjectIDsNotification == .NSManagedObjectContextDidMergeChangesObjectIDs)
        #expect(NSManagedObjectContext.NotificationKey.insertedObjects.rawValue == NSInsertedObjectsKey)
        #expect(NSManagedObjectContext.NotificationKey.updatedObjects.rawValue == NSUpdatedObjectsKey)
        #expect(NSManagedObjectContext.NotificationKey.deletedObjects.rawValue == NSDeletedObjectsKey)
        #expect(NSManagedObjectContext.NotificationKey.refreshedObjects.rawValue == NSRefreshedObjectsKey)
        #expect(NSManagedObjectContext.NotificationKey.invalidatedObjects.rawValue == NSInvalidatedObjectsKey)
        #expect(NSManagedObjectContext.NotificationKey.invalidatedAllObjects.rawValue == NSInvalidatedAllObjectsKey)
        #expect(NSManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue == NSInsertedObjectIDsKey)
        #expect(NSManagedObjectContext.NotificationKey.updatedObjectIDs.rawValue == NSUpdatedObjectIDsKey)
        #expect(NSManagedObjectContext.NotificationKey.deletedObjectIDs.rawValue == NSDeletedObjectIDsKey)
        #expect(NSManagedObjectContext.NotificationKey.queryGeneration.rawValue == NSManagedObjectContextQueryGenerationKey)

        let stack = try GraphStack()
        let context = stack.context()
        let recorder = NotificationRecorder([NSManagedObjectContext.didSaveObjectsNotification], object: context)
        let ann = context.make("Author", ["name": "Ann"])
        try context.save()
        let note = try #require(recorder.notifications.first)
        let key = NSManagedObjectContext.NotificationKey.insertedObjects.rawValue
        #expect(note.objects(key) == [ann])
    }
}
