import OpenCoreData
import Testing

@Suite("Merging changes between contexts")
struct ContextMergingTests {
    /// Saves in `writer` and returns its did-save notification.
    private func saveCapturingNotification(_ writer: NSManagedObjectContext) throws -> Notification {
        let recorder = NotificationRecorder([.NSManagedObjectContextDidSave], object: writer)
        try writer.save()
        return try #require(recorder.notifications.first)
    }

    @Test("mergeChanges(fromContextDidSave:) refreshes updated objects, registers inserted ones and removes deleted ones")
    func mergeDidSave() throws {
        let stack = try GraphStack()
        let reader = stack.context()
        let writer = stack.context()
        reader.make("Author", ["name": "Ann"])
        reader.make("Author", ["name": "Cid"])
        try reader.save()
        let loaded = try reader.all("Author", sortedBy: "name")
        let ann = loaded[0], cid = loaded[1]

        let writerObjects = try writer.all("Author", sortedBy: "name")
        writerObjects[0].setValue("Anne", forKey: "name")
        writer.delete(writerObjects[1])
        let bob = writer.make("Author", ["name": "Bob"])
        let note = try saveCapturingNotification(writer)

        let recorder = NotificationRecorder(
            [.NSManagedObjectContextObjectsDidChange, .NSManagedObjectContextDidMergeChangesObjectIDs],
            object: reader)
        reader.mergeChanges(fromContextDidSave: note)
        #expect(ann.string("name") == "Anne")
        // Apple's Core Data: the deleted instance stays registered, is no fault, reads its old values.
        #expect(cid.isDeleted)
        #expect(cid.managedObjectContext === reader)
        #expect(reader.registeredObject(for: cid.objectID) === cid)
        #expect(!cid.isFault)
        #expect(cid.string("name") == "Cid")
        let merged = try #require(reader.registeredObject(for: bob.objectID))
        #expect(merged.string("name") == "Bob")
        #expect(try reader.all("Author", sortedBy: "name").compactMap { $0.string("name") } == ["Anne", "Bob"])

        let change = try #require(recorder.named(.NSManagedObjectContextObjectsDidChange).first)
        #expect(change.objects(NSRefreshedObjectsKey) == [ann])
        #expect(change.objects(NSDeletedObjectsKey) == [cid])
        #expect(change.objects(NSInsertedObjectsKey).map(\.objectID) == [bob.objectID])
        let ids = try #require(recorder.named(.NSManagedObjectContextDidMergeChangesObjectIDs).first)
        #expect(ids.objectIDs(NSRefreshedObjectIDsKey) == [ann.objectID])
        #expect(!reader.hasChanges)
    }

    @Test("unsaved changes survive a merge, and the context then saves without a conflict")
    func mergeKeepsLocalChanges() throws {
        let stack = try GraphStack()
        let reader = stack.context()
        let writer = stack.context()
        let ann = reader.make("Author", ["name": "Ann", "age": Int16(30)])
        try reader.save()
        ann.setValue(Int16(31), forKey: "age")

        let other = try writer.existingObject(with: ann.objectID)
        other.setValue("Anne", forKey: "name")
        reader.mergeChanges(fromContextDidSave: try saveCapturingNotification(writer))

        #expect(ann.string("name") == "Anne")
        #expect(ann.value(forKey: "age") as? Int16 == 31)
        try reader.save()
        let check = stack.context()
        let stored = try check.existingObject(with: ann.objectID)
        #expect(stored.string("name") == "Anne")
        #expect(stored.value(forKey: "age") as? Int16 == 31)
    }

    @Test("mergeChanges(fromRemoteContextSave:into:) takes URIs or IDs saved through another coordinator")
    func mergeRemote() throws {
        let stack = try GraphStack()
        let local = stack.context()
        let ann = local.make("Author", ["name": "Ann"])
        let bob = local.make("Author", ["name": "Bob"])
        try local.save()
        _ = bob.string("name")

        let remote = stack.context(try stack.secondCoordinator())
        let remoteAnn = try remote.existingObject(with: ann.objectID)
        remoteAnn.setValue("Anne", forKey: "name")
        remote.delete(try remote.existingObject(with: bob.objectID))
        let cid = remote.make("Author", ["name": "Cid"])
        try remote.save()

        NSManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [
                NSUpdatedObjectsKey: [ann.objectID.uriRepresentation()],
                NSDeletedObjectsKey: [bob.objectID],
                NSInsertedObjectsKey: [cid.objectID.uriRepresentation()],
            ], into: [local])
        #expect(ann.string("name") == "Anne")
        #expect(bob.isDeleted)
        #expect(local.registeredObject(for: cid.objectID)?.string("name") == "Cid")
    }

    @Test("a context connected to a coordinator and merging automatically follows the other contexts' saves")
    func automaticMergeBetweenSiblings() async throws {
        let stack = try GraphStack()
        let view = stack.context()
        view.automaticallyMergesChangesFromParent = true
        let ann = try view.performAndWait {
            let ann = view.make("Author", ["name": "Ann"])
            try view.save()
            return ann
        }
        let background = stack.context()
        try await background.perform {
            let other = try background.existingObject(with: ann.objectID)
            other.setValue("Anne", forKey: "name")
            try background.save()
        }
        let name = await view.perform(schedule: .enqueued) { ann.string("name") }
        #expect(name == "Anne")
    }

    @Test("refreshAllObjects turns unchanged objects into faults that read the latest saved values")
    func refreshAll() throws {
        let stack = try GraphStack()
        let reader = stack.context()
        let ann = reader.make("Author", ["name": "Ann"])
        try reader.save()
        let writer = stack.context()
        try writer.existingObject(with: ann.objectID).setValue("Anne", forKey: "name")
        try writer.save()
        #expect(ann.string("name") == "Ann")
        reader.refreshAllObjects()
        #expect(ann.isFault)
        #expect(ann.string("name") == "Anne")
    }
}
