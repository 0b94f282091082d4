import OpenCoreData
import Testing

@Suite("NSManagedObjectContext")
struct ManagedObjectContextTests {
    @Test("insert, save and fetch round-trip through the store", arguments: TestStoreKind.allCases)
    func roundTrip(kind: TestStoreKind) throws {
        let stack = try GraphStack(kind)
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann", "age": 41])
        #expect(context.hasChanges)
        #expect(context.insertedObjects == [ann])
        #expect(ann.objectID.isTemporaryID)
        try context.save()
        #expect(!context.hasChanges)
        #expect(context.insertedObjects.isEmpty)
        #expect(!ann.objectID.isTemporaryID)
        #expect(context.registeredObject(for: ann.objectID) === ann)

        let other = stack.context()
        let fetched = try other.all("Author")
        #expect(fetched.count == 1)
        #expect(fetched.first?.value(forKey: "name") as? String == "Ann")
        #expect(fetched.first?.value(forKey: "age") as? Int == 41)
        #expect(fetched.first?.objectID == ann.objectID)
    }

    @Test("one object per ID in a context (uniquing)")
    func uniquing() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann"])
        try context.save()
        #expect(try context.all("Author").first === ann)
        #expect(context.object(with: ann.objectID) === ann)
        let other = stack.context()
        let first = try other.all("Author").first
        let second = try other.all("Author").first
        #expect(first != nil && first === second)
        #expect(other.object(with: ann.objectID) === first)
        #expect(other.registeredObjects.count == 1)
    }

    @Test("count(for:) applies predicate, limit and offset, and pending changes")
    func counting() throws {
        let stack = try GraphStack()
        let context = stack.context()
        for index in 0..<10 { context.make("Post", ["title": "post \(index)", "views": index]) }
        try context.save()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Post")
        #expect(try context.count(for: request) == 10)
        request.predicate = NSPredicate(format: "views >= 5")
        #expect(try context.count(for: request) == 5)
        request.fetchLimit = 3
        #expect(try context.count(for: request) == 3)
        request.fetchLimit = 0
        context.make("Post", ["title": "new", "views": 99])
        #expect(try context.count(for: request) == 6)
        request.includesPendingChanges = false
        #expect(try context.count(for: request) == 5)
    }

    @Test("fetch result types: objects, object IDs, counts, dictionaries, NSFetchRequestResult")
    func resultTypes() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let a = context.make("Author", ["name": "Ann", "age": 30])
        context.make("Author", ["name": "Bob", "age": 40])
        try context.save()

        let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Author")
        ids.resultType = .managedObjectIDResultType
        ids.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        #expect(try context.fetch(ids).first == a.objectID)

        let counts = NSFetchRequest<NSNumber>(entityName: "Author")
        counts.resultType = .countResultType
        #expect(try context.fetch(counts).first?.intValue == 2)

        let generic = NSFetchRequest<NSFetchRequestResult>(entityName: "Author")
        generic.predicate = NSPredicate(format: "name == %@", "Bob")
        let results = try context.fetch(generic)
        #expect((results.first as? NSManagedObject)?.value(forKey: "age") as? Int == 40)

        let dictionaries = NSFetchRequest<NSDictionary>(entityName: "Author")
        dictionaries.resultType = .dictionaryResultType
        dictionaries.propertiesToFetch = ["name"]
        dictionaries.sortDescriptors = [NSSortDescriptor(key: "name", ascending: false)]
        let rows = try context.fetch(dictionaries)
        #expect(rows.count == 2)
        #expect(rows.first?["name"] as? String == "Bob")
        #expect(rows.first?["age"] == nil)
    }

    @Test("existingObject(with:) reads the store, and throws 133000 for a deleted object")
    func existingObject() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann"])
        try context.save()
        let id = ann.objectID

        let other = stack.context()
        let found = try other.existingObject(with: id)
        #expect(!found.isFault)
        #expect(found.value(forKey: "name") as? String == "Ann")

        context.delete(ann)
        try context.save()
        let third = stack.context()
        #expect {
            try third.existingObject(with: id)
        } throws: { error in
            (error as NSError).code == NSManagedObjectReferentialIntegrityError && (error as NSError).domain == NSCocoaErrorDomain
        }
        let temporary = NSEntityDescription.insertNewObject(forEntityName: "Author", into: stack.context()).objectID
        #expect(throws: NSError.self) { try third.existingObject(with: temporary) }
    }

    @Test("delete removes the row; deleting an unsaved object just forgets it")
    func deleting() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann"])
        let bob = context.make("Author", ["name": "Bob"])
        try context.save()
        context.delete(ann)
        #expect(ann.isDeleted)
        #expect(context.deletedObjects == [ann])
        #expect(try context.all("Author") == [bob])
        try context.save()
        #expect(ann.managedObjectContext == nil)
        #expect(!ann.isDeleted)
        #expect(try stack.context().all("Author").count == 1)

        let temp = context.make("Author", ["name": "Temp"])
        context.delete(temp)
        context.processPendingChanges()
        #expect(context.insertedObjects.isEmpty)
        #expect(context.deletedObjects.isEmpty)
        #expect(!context.hasChanges)
        try context.save()
        #expect(try stack.context().all("Author").count == 1)
    }

    @Test("updatedObjects and hasChanges track changes; save clears them")
    func updates() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann"])
        try context.save()
        #expect(context.updatedObjects.isEmpty)
        ann.setValue("Anne", forKey: "name")
        #expect(context.updatedObjects == [ann])
        #expect(ann.isUpdated)
        #expect(context.hasChanges)
        try context.save()
        #expect(!ann.isUpdated)
        let other = stack.context()
        #expect(try other.all("Author").first?.value(forKey: "name") as? String == "Anne")
    }

    @Test("rollback discards inserts, deletes and changes")
    func rollback() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann"])
        let bob = context.make("Author", ["name": "Bob"])
        try context.save()
        ann.setValue("Changed", forKey: "name")
        context.delete(bob)
        let carl = context.make("Author", ["name": "Carl"])
        context.rollback()
        #expect(!context.hasChanges)
        #expect(ann.value(forKey: "name") as? String == "Ann")
        #expect(!bob.isDeleted)
        #expect(carl.managedObjectContext == nil)
        #expect(try context.all("Author", sortedBy: "name") == [ann, bob])
    }

    @Test("reset forgets every registered object")
    func reset() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann"])
        try context.save()
        context.make("Author", ["name": "Unsaved"])
        context.reset()
        #expect(context.registeredObjects.isEmpty)
        #expect(!context.hasChanges)
        #expect(ann.managedObjectContext == nil)
        let again = try context.all("Author")
        #expect(again.count == 1)
        #expect(again.first !== ann)
    }

    @Test("obtainPermanentIDs gives permanent IDs before saving, kept by the save")
    func permanentIDs() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann"])
        try context.obtainPermanentIDs(for: [ann])
        let id = ann.objectID
        #expect(!id.isTemporaryID)
        #expect(context.registeredObject(for: id) === ann)
        try context.save()
        #expect(ann.objectID == id)
        let other = stack.context()
        #expect(try other.existingObject(with: id).value(forKey: "name") as? String == "Ann")
    }

    @Test("context properties: name, transactionAuthor, userInfo, staleness, merge policy")
    func properties() {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        #expect(context.name == nil)
        context.name = "importer"
        context.transactionAuthor = "sync"
        context.userInfo["key"] = "value"
        #expect(context.name == "importer")
        #expect(context.transactionAuthor == "sync")
        #expect(context.userInfo["key"] as? String == "value")
        #expect(context.shouldDeleteInaccessibleFaults)
        #expect(context.stalenessInterval < 0)
        #expect((context.mergePolicy as? NSMergePolicy)?.mergeType == .errorMergePolicyType)
        #expect(context.concurrencyType == .privateQueueConcurrencyType)
    }

    @Test("a fetch for an entity the model lacks throws")
    func unknownEntity() throws {
        let stack = try GraphStack()
        #expect(throws: NSError.self) {
            try stack.context().fetch(NSFetchRequest<NSManagedObject>(entityName: "Nope"))
        }
    }
}
