import OpenCoreData
import Testing

@Suite("Faults")
struct FaultingTests {
    @Test("fetched objects are faults that fire on first access", arguments: TestStoreKind.allCases)
    func faultsFire(kind: TestStoreKind) throws {
        let stack = try GraphStack(kind)
        let context = stack.context()
        context.make("Author", ["name": "Ann", "age": 3])
        try context.save()
        let reader = stack.context()
        let author = try #require(try reader.all("Author").first)
        #expect(author.isFault)
        #expect(author.value(forKey: "name") as? String == "Ann")
        #expect(!author.isFault)
    }

    @Test("returnsObjectsAsFaults = false returns loaded objects")
    func notFaults() throws {
        let stack = try GraphStack()
        let context = stack.context()
        context.make("Author", ["name": "Ann"])
        try context.save()
        let reader = stack.context()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Author")
        request.returnsObjectsAsFaults = false
        let author = try #require(try reader.fetch(request).first)
        #expect(!author.isFault)
    }

    @Test("includesPropertyValues = false returns faults read from the store on access")
    func withoutPropertyValues() throws {
        let stack = try GraphStack()
        let context = stack.context()
        context.make("Author", ["name": "Ann"])
        try context.save()
        let reader = stack.context()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Author")
        request.includesPropertyValues = false
        let author = try #require(try reader.fetch(request).first)
        #expect(author.isFault)
        #expect(author.value(forKey: "name") as? String == "Ann")
    }

    @Test("refresh(mergeChanges: false) turns an object back into a fault and drops changes")
    func refreshToFault() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann"])
        try context.save()
        ann.setValue("Changed", forKey: "name")
        context.refresh(ann, mergeChanges: false)
        #expect(ann.isFault)
        #expect(!ann.hasChanges)
        #expect(ann.value(forKey: "name") as? String == "Ann")
    }

    @Test("refresh(mergeChanges: true) keeps changes on top of the store's values")
    func refreshMerging() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann", "age": 1])
        try context.save()
        let writer = stack.context()
        let other = try writer.existingObject(with: ann.objectID)
        other.setValue(2, forKey: "age")
        try writer.save()
        ann.setValue("Anne", forKey: "name")
        context.refresh(ann, mergeChanges: true)
        #expect(ann.value(forKey: "name") as? String == "Anne")
        #expect(ann.value(forKey: "age") as? Int == 2)
        #expect(ann.hasChanges)
        context.refreshAllObjects()
        #expect(ann.value(forKey: "name") as? String == "Anne")
    }

    @Test("to-many relationships fault separately and load together")
    func toManyFaults() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann"])
        let posts = (1...3).map { context.make("Post", ["title": "p\($0)", "author": ann]) }
        ann.setValue(NSSet(array: posts), forKey: "posts")
        try context.save()
        let reader = stack.context()
        let author = try reader.existingObject(with: ann.objectID)
        #expect(author.hasFault(forRelationshipNamed: "posts"))
        let loaded = try #require(author.value(forKey: "posts") as? NSSet)
        #expect(loaded.count == 3)
        #expect(loaded.allObjects.allSatisfy { ($0 as? NSManagedObject)?.isFault == true })
    }

    @Test("a fault whose row is gone reads as deleted when shouldDeleteInaccessibleFaults")
    func inaccessibleFault() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann"])
        try context.save()
        let reader = stack.context()
        let fault = reader.object(with: ann.objectID)
        context.delete(ann)
        try context.save()
        #expect(fault.isFault)
        #expect(fault.value(forKey: "name") == nil)
        #expect(fault.isDeleted)
    }

    @Test("stalenessInterval 0 fulfills faults from the store, not the row cache")
    func staleness() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann"])
        try context.save()
        let otherCoordinator = try stack.secondCoordinator()
        let reader = stack.context(otherCoordinator)
        let cached = try reader.existingObject(with: ann.objectID)
        ann.setValue("Anne", forKey: "name")
        try context.save()
        reader.refresh(cached, mergeChanges: false)
        #expect(cached.value(forKey: "name") as? String == "Ann")
        reader.refresh(cached, mergeChanges: false)
        reader.stalenessInterval = 0
        #expect(cached.value(forKey: "name") as? String == "Anne")
    }

    @Test("a fetched fault fires with what another context saved after the fetch", arguments: TestStoreKind.allCases)
    func fetchedFaultSeesLaterSave(kind: TestStoreKind) throws {
        let stack = try GraphStack(kind)
        let writer = stack.context()
        let ann = writer.make("Author", ["name": "Ann", "age": 3])
        let bob = writer.make("Author", ["name": "Bob", "age": 4])
        try writer.save()
        let reader = stack.context()
        let faults = try reader.all("Author")
        #expect(faults.allSatisfy { $0.isFault })
        ann.setValue("Anne", forKey: "name")
        writer.delete(bob)
        try writer.save()
        let annFault = try #require(faults.first { $0.objectID == ann.objectID })
        let bobFault = try #require(faults.first { $0.objectID == bob.objectID })
        #expect(annFault.value(forKey: "name") as? String == "Anne")
        #expect(annFault.value(forKey: "age") as? Int == 3)
        #expect(bobFault.value(forKey: "name") == nil)
        #expect(bobFault.isDeleted)
    }

    @Test("a fault from an earlier fetch fires with the row a later fetch read")
    func fetchedFaultSeesLaterFetch() throws {
        let stack = try GraphStack()
        let writer = stack.context()
        let ann = writer.make("Author", ["name": "Ann"])
        try writer.save()
        let reader = stack.context()
        let fault = try #require(try reader.all("Author").first)
        // Another coordinator changes the row: this coordinator's cache learns of it only from a fetch.
        let other = stack.context(try stack.secondCoordinator())
        try other.existingObject(with: ann.objectID).setValue("Anne", forKey: "name")
        try other.save()
        #expect(fault.isFault)
        let again = try #require(try reader.all("Author").first)
        #expect(again === fault)
        #expect(fault.value(forKey: "name") as? String == "Anne")
    }

    @Test("a fetched fault turned back into a fault by refresh reads the store's values again")
    func refreshedFetchedFault() throws {
        let stack = try GraphStack()
        let writer = stack.context()
        writer.make("Author", ["name": "Ann"])
        try writer.save()
        let reader = stack.context()
        let fault = try #require(try reader.all("Author").first)
        reader.refresh(fault, mergeChanges: false)
        #expect(fault.isFault)
        #expect(fault.value(forKey: "name") as? String == "Ann")
        fault.setValue("Anne", forKey: "name")
        #expect(fault.changedValues()["name"] as? String == "Anne")
        #expect(fault.committedValues(forKeys: ["name"])["name"] as? String == "Ann")
    }
}
