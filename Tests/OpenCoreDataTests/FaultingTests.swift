import Testing
import OpenCoreData

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
}
