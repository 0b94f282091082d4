import OpenCoreData
import Testing

@Suite("Saving")
struct SaveTests {
    @Test("a missing mandatory value fails the save with 1570 and keeps the changes")
    func missingMandatory() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let author = context.make("Author")
        #expect {
            try context.save()
        } throws: { error in
            let error = error as NSError
            return error.domain == NSCocoaErrorDomain && error.code == NSValidationMissingMandatoryPropertyError
                && error.userInfo[NSValidationKeyErrorKey] as? String == "name"
                && (error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject) === author
        }
        #expect(author.isInserted)
        #expect(context.hasChanges)
        author.setValue("Ann", forKey: "name")
        try context.save()
        #expect(!context.hasChanges)
    }

    @Test("several validation errors come together as 1560 with NSDetailedErrorsKey")
    func multipleErrors() throws {
        let stack = try GraphStack()
        let context = stack.context()
        context.make("Author")
        context.make("Post")
        #expect {
            try context.save()
        } throws: { error in
            let error = error as NSError
            let details = error.userInfo[NSDetailedErrorsKey] as? [NSError]
            return error.code == NSValidationMultipleErrorsError && details?.count == 2
                && details?.allSatisfy { $0.code == NSValidationMissingMandatoryPropertyError } == true
        }
        #expect(try stack.context().count(for: NSFetchRequest<NSManagedObject>(entityName: "Author")) == 0)
    }

    @Test("a default value of the wrong type fails validation with 1550")
    func wrongTypedDefault() throws {
        let model = BlogModel.make()
        model.entitiesByName["Tag"]?.attributesByName["name"]?.defaultValue = Date()
        let stack = try GraphStack(model: model)
        let context = stack.context()
        context.make("Tag")
        #expect {
            try context.save()
        } throws: { error in
            (error as NSError).code == NSManagedObjectValidationError && (error as NSError).userInfo[NSValidationKeyErrorKey] as? String == "name"
        }
    }

    @Test("a relationship to an object outside the context fails the save")
    func danglingReference() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let entity = try #require(stack.model.entitiesByName["Author"])
        let loose = NSManagedObject(entity: entity, insertInto: nil)
        context.make("Post", ["title": "P", "author": loose])
        #expect(throws: NSError.self) { try context.save() }
    }

    @Test("deny delete rule: deleting a non-empty relationship fails with 1600")
    func denyDelete() throws {
        let model = BlogModel.make()
        model.entitiesByName["Author"]?.relationshipsByName["posts"]?.deleteRule = .denyDeleteRule
        let stack = try GraphStack(model: model)
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann"])
        let post = context.make("Post", ["title": "P", "author": ann])
        ann.setValue(NSSet(array: [post]), forKey: "posts")
        try context.save()
        context.delete(ann)
        #expect {
            try context.save()
        } throws: { error in
            (error as NSError).code == NSValidationRelationshipDeniedDeleteError
        }
        #expect(ann.isDeleted)
    }

    @Test("a row changed by another coordinator fails the save with 133020 and NSMergeConflicts")
    func conflicts() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann", "age": 1])
        let bob = context.make("Author", ["name": "Bob", "age": 1])
        try context.save()

        let other = stack.context(try stack.secondCoordinator())
        let otherAnn = try other.existingObject(with: ann.objectID)
        otherAnn.setValue(2, forKey: "age")
        let otherBob = try other.existingObject(with: bob.objectID)
        other.delete(otherBob)
        try other.save()

        ann.setValue("Anne", forKey: "name")
        bob.setValue("Robert", forKey: "name")
        var caught: NSError?
        do {
            try context.save()
        } catch {
            caught = error as NSError
        }
        let error = try #require(caught)
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSManagedObjectMergeError)
        let list = try #require(error.userInfo["conflictList"] as? [NSMergeConflict])
        #expect(list.count == 2)
        let annConflict = try #require(list.first { $0.sourceObject === ann })
        #expect(annConflict.oldVersionNumber == 1)
        #expect(annConflict.newVersionNumber == 2)
        // Another coordinator wrote the row: a cache-versus-store conflict. objectSnapshot is what the
        // context read, cachedSnapshot what this coordinator holds, persistedSnapshot the store's row.
        #expect((annConflict.persistedSnapshot?["age"] as? NSNumber)?.intValue == 2)
        #expect((annConflict.cachedSnapshot?["age"] as? NSNumber)?.intValue == 1)
        #expect(annConflict.objectSnapshot?["name"] as? String == "Ann")
        let bobConflict = try #require(list.first { $0.sourceObject === bob })
        #expect(bobConflict.persistedSnapshot == nil)
        #expect(bobConflict.newVersionNumber == 0)
        #expect(ann.hasChanges && context.hasChanges)

        let check = stack.context(try stack.secondCoordinator())
        #expect(try check.existingObject(with: ann.objectID).value(forKey: "name") as? String == "Ann")
    }

    @Test("after a save, objects carry permanent IDs and the saved values are the committed ones")
    func afterSave() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann"])
        let post = context.make("Post", ["title": "P", "author": ann])
        try context.save()
        #expect(!ann.objectID.isTemporaryID && !post.objectID.isTemporaryID)
        #expect(post.committedValues(forKeys: ["author"])["author"] as? NSManagedObject === ann)
        #expect(context.registeredObject(for: post.objectID) === post)
        post.setValue("Q", forKey: "title")
        try context.save()
        post.setValue("R", forKey: "title")
        try context.save()
        let reader = stack.context()
        #expect(try reader.existingObject(with: post.objectID).value(forKey: "title") as? String == "R")
    }
}

/// A note whose `willSave()` stamps it and inserts an audit entry the first time it is saved.
final class AuditedNote: NSManagedObject {
    override func willSave() {
        super.willSave()
        guard isInserted, let context = managedObjectContext, value(forKey: "audited") as? Bool != true else { return }
        setValue(true, forKey: "audited")
        let entry = NSEntityDescription.insertNewObject(forEntityName: "AuditEntry", into: context)
        entry.setValue(value(forKey: "text"), forKey: "text")
    }
}

extension SaveTests {
    @Test("objects willSave inserts and values it sets are written by the same save, and its notification names them")
    func willSaveInsertsAndSets() throws {
        let note = ModelKit.entity(
            "Note",
            [
                ModelKit.attribute("text", .stringAttributeType),
                ModelKit.attribute("audited", .booleanAttributeType),
            ])
        note.managedObjectClassName = String(reflecting: AuditedNote.self)
        let model = NSManagedObjectModel()
        model.entities = [note, ModelKit.entity("AuditEntry", [ModelKit.attribute("text", .stringAttributeType)])]
        let stack = try GraphStack(model: model, fileName: "Audit.sqlite")
        let context = stack.context()
        let recorder = NotificationRecorder([.NSManagedObjectContextDidSave], object: context)
        let notes = (0..<3).map { index in
            let object = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            object.setValue("n\(index)", forKey: "text")
            return object
        }
        try context.save()
        #expect(!context.hasChanges)
        let saved = try #require(recorder.named(.NSManagedObjectContextDidSave).first).objects(NSInsertedObjectsKey)
        #expect(saved.count == 6)
        #expect(saved.isSuperset(of: notes))
        #expect(
            saved.filter { $0.entity.name == "AuditEntry" }.compactMap { $0.value(forKey: "text") as? String }.sorted()
                == ["n0", "n1", "n2"])

        let reader = stack.context(try stack.secondCoordinator())
        let entries = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "AuditEntry"))
        #expect(entries.compactMap { $0.value(forKey: "text") as? String }.sorted() == ["n0", "n1", "n2"])
        let stored = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note"))
        #expect(stored.count == 3 && stored.allSatisfy { $0.value(forKey: "audited") as? Bool == true })
    }
}
