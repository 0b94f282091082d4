import OpenCoreData
import Testing

/// A subclass that records its lifecycle hooks.
final class HookedAuthor: NSManagedObject {
    nonisolated(unsafe) static var events: [String] = []
    var log: [String] = []

    override func awakeFromInsert() {
        super.awakeFromInsert()
        log.append("awakeFromInsert")
        setPrimitiveValue("Unnamed", forKey: "name")
    }
    override func awakeFromFetch() {
        super.awakeFromFetch()
        log.append("awakeFromFetch")
    }
    override func willSave() {
        super.willSave()
        log.append("willSave")
    }
    override func didSave() {
        super.didSave()
        log.append("didSave")
    }
    override func prepareForDeletion() {
        super.prepareForDeletion()
        log.append("prepareForDeletion")
    }
    override func willTurnIntoFault() {
        super.willTurnIntoFault()
        log.append("willTurnIntoFault")
    }
    override func didTurnIntoFault() {
        super.didTurnIntoFault()
        log.append("didTurnIntoFault")
    }
}

@Suite("NSManagedObject")
struct ManagedObjectTests {
    @Test("insertNewObject and init(entity:insertInto:) insert into the context; nil context leaves it out")
    func creating() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let entity = try #require(stack.model.entitiesByName["Author"])
        let inserted = NSManagedObject(entity: entity, insertInto: context)
        #expect(inserted.isInserted)
        #expect(inserted.managedObjectContext === context)
        #expect(inserted.entity === entity)
        let loose = NSManagedObject(entity: entity, insertInto: nil)
        #expect(loose.managedObjectContext == nil)
        #expect(!loose.isInserted)
        context.insert(loose)
        #expect(loose.isInserted)
        #expect(context.insertedObjects.count == 2)
        let viaName = NSEntityDescription.insertNewObject(forEntityName: "Post", into: context)
        #expect(viaName.entity.name == "Post")
        #expect(type(of: viaName) == NSManagedObject.self)
    }

    @Test("default values are applied on insert")
    func defaults() throws {
        let stack = try GraphStack()
        let post = stack.context().make("Post")
        #expect(post.value(forKey: "views") as? Int == 0)
        #expect(post.value(forKey: "published") as? Bool == false)
        #expect(post.value(forKey: "title") == nil)
    }

    @Test("the class of an entity is its managedObjectClassName class; hooks run at each step")
    func hooks() throws {
        let model = BlogModel.make()
        model.entitiesByName["Author"]?.managedObjectClassName = NSStringFromClass(HookedAuthor.self)
        let stack = try GraphStack(model: model)
        let context = stack.context()
        let author = try #require(context.make("Author") as? HookedAuthor)
        #expect(author.log == ["awakeFromInsert"])
        #expect(author.value(forKey: "name") as? String == "Unnamed")
        try context.save()
        #expect(author.log == ["awakeFromInsert", "willSave", "didSave"])

        let other = stack.context()
        let fetched = try #require(try other.all("Author").first as? HookedAuthor)
        #expect(fetched.isFault)
        _ = fetched.value(forKey: "name")
        #expect(fetched.log == ["awakeFromFetch"])
        other.refresh(fetched, mergeChanges: false)
        #expect(fetched.isFault)
        #expect(fetched.log == ["awakeFromFetch", "willTurnIntoFault", "didTurnIntoFault"])
        other.delete(fetched)
        try other.save()
        #expect(fetched.log.suffix(3) == ["prepareForDeletion", "willSave", "didSave"])
    }

    @Test("changedValues, committedValues and hasPersistentChangedValues")
    func changes() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let post = context.make("Post", ["title": "One", "views": 1])
        #expect(post.changedValues()["title"] as? String == "One")
        #expect(post.committedValues(forKeys: ["title"])["title"] is NSNull)
        try context.save()
        #expect(post.changedValues().isEmpty)
        #expect(!post.hasPersistentChangedValues)
        post.setValue("Two", forKey: "title")
        post.setValue(nil, forKey: "body")
        #expect(post.hasPersistentChangedValues)
        #expect(post.changedValues().count == 1)
        #expect(post.changedValues()["title"] as? String == "Two")
        #expect(post.committedValues(forKeys: ["title", "views"])["title"] as? String == "One")
        #expect(post.committedValues(forKeys: nil)["views"] as? Int == 1)
        post.setValue("One", forKey: "title")
        #expect(!post.hasPersistentChangedValues)
        post.setValue("draft text", forKey: "draft")
        #expect(post.changedValues().isEmpty)
    }

    @Test("changedValuesForCurrentEvent holds old values until processPendingChanges")
    func currentEvent() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let post = context.make("Post", ["title": "One"])
        try context.save()
        post.setValue("Two", forKey: "title")
        #expect(post.changedValuesForCurrentEvent()["title"] as? String == "One")
        context.processPendingChanges()
        #expect(post.changedValuesForCurrentEvent().isEmpty)
        post.setValue("Three", forKey: "title")
        #expect(post.changedValuesForCurrentEvent()["title"] as? String == "Two")
    }

    @Test(
        "an object inserted in the current event reports the values it started the event with: its defaults, or nil for a value first set before it was inserted"
    )
    func currentEventOfNewObject() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let entity = try #require(context.persistentStoreCoordinator?.managedObjectModel.entitiesByName["Post"])
        let post = NSManagedObject(entity: entity, insertInto: nil)
        post.setValue("Draft", forKey: "title")
        context.insert(post)
        post.setValue("One", forKey: "title")
        post.setValue(7, forKey: "views")
        post.setValue(true, forKey: "published")
        let event = post.changedValuesForCurrentEvent()
        #expect(event["title"] is NSNull)
        #expect(event["views"] as? Int == 0)
        #expect(event["published"] as? Bool == false)
        post.setValue(0, forKey: "views")
        #expect(post.changedValuesForCurrentEvent()["views"] == nil)
        context.processPendingChanges()
        #expect(post.changedValuesForCurrentEvent().isEmpty)
        post.setValue(8, forKey: "views")
        #expect(post.changedValuesForCurrentEvent() as NSDictionary == ["views": 0] as NSDictionary)
        #expect(post.changedValues()["views"] as? Int == 8)
    }

    @Test("relationships: objectIDs(forRelationshipNamed:) and hasFault(forRelationshipNamed:)")
    func relationshipIDs() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann"])
        let one = context.make("Post", ["title": "1", "author": ann])
        let two = context.make("Post", ["title": "2", "author": ann])
        ann.setValue(NSSet(array: [one, two]), forKey: "posts")
        try context.save()

        let other = stack.context()
        let author = other.object(with: ann.objectID)
        #expect(author.isFault)
        #expect(author.hasFault(forRelationshipNamed: "posts"))
        #expect(Set(author.objectIDs(forRelationshipNamed: "posts")) == [one.objectID, two.objectID])
        #expect(author.isFault)
        _ = author.value(forKey: "name")
        #expect(author.hasFault(forRelationshipNamed: "posts"))
        #expect((author.value(forKey: "posts") as? NSSet)?.count == 2)
        #expect(!author.hasFault(forRelationshipNamed: "posts"))
        let post = other.object(with: one.objectID)
        #expect(post.objectIDs(forRelationshipNamed: "author") == [ann.objectID])
    }

    @Test("a managed object is a fetch request result and a predicate constant")
    func predicateConstant() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann"])
        let bob = context.make("Author", ["name": "Bob"])
        context.make("Post", ["title": "A", "author": ann])
        context.make("Post", ["title": "B", "author": bob])
        try context.save()
        let reader = stack.context()
        let posts = try reader.all("Post", predicate: NSPredicate(format: "author == %@", ann))
        #expect(posts.map { $0.value(forKey: "title") as? String } == ["A"])
        let inMemory = try context.all("Post").filter { NSPredicate(format: "author == %@", ann).evaluate(with: $0) }
        #expect(inMemory.count == 1)
    }

    @Test("NSEntityDescription.entity(forEntityName:in:) finds an entity through a context, as Apple's API does")
    func entityThroughContext() throws {
        let stack = try GraphStack()
        let context = stack.context()
        #expect(NSEntityDescription.entity(forEntityName: "Post", in: context)?.name == "Post")
        #expect(NSEntityDescription.entity(forEntityName: "Nope", in: context) == nil)
    }
}
