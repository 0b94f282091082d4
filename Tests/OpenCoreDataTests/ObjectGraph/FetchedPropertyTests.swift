import OpenCoreData
import Testing

/// The blog model with two fetched properties on Author: `goodPosts` (posts of the author rated at least
/// the property's userInfo minRating) and `namesakes` (other authors with the same name).
enum FetchedPropertyModel {
    static func make() throws -> NSManagedObjectModel {
        let model = BlogModel.make()
        let author = try #require(model.entitiesByName["Author"])
        let goodPosts = NSFetchedPropertyDescription()
        goodPosts.name = "goodPosts"
        goodPosts.userInfo = ["minRating": 4.0]
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Post")
        request.predicate = NSPredicate(format: "author == $FETCH_SOURCE AND rating >= $FETCHED_PROPERTY.userInfo.minRating")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        goodPosts.fetchRequest = request
        let namesakes = NSFetchedPropertyDescription()
        namesakes.name = "namesakes"
        let sameName = NSFetchRequest<NSFetchRequestResult>(entityName: "Author")
        sameName.predicate = NSPredicate(format: "name == $FETCH_SOURCE.name AND SELF != $FETCH_SOURCE")
        namesakes.fetchRequest = sameName
        author.properties += [goodPosts, namesakes]
        return model
    }

    static func fill(_ context: NSManagedObjectContext) throws {
        let ann = context.make("Author", ["name": "Ann"])
        let bob = context.make("Author", ["name": "Bob"])
        context.make("Author", ["name": "Ann"])
        for (title, rating, author) in [("a1", 4.5, ann), ("a2", 2.0, ann), ("a3", 4.0, ann), ("b1", 5.0, bob)] {
            context.make("Post", ["title": title, "rating": rating, "author": author])
        }
        try context.save()
    }
}

@Suite("Fetched properties: evaluated lazily with $FETCH_SOURCE and $FETCHED_PROPERTY")
struct FetchedPropertyTests {
    func titles(_ value: Any?) -> [String] {
        ((value as? [Any]) ?? []).compactMap { ($0 as? NSManagedObject)?.value(forKey: "title") as? String }
    }

    @Test("the fetched property returns what its request selects for the source object", arguments: TestStoreKind.allCases)
    func evaluates(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: try FetchedPropertyModel.make())
        try FetchedPropertyModel.fill(stack.context())
        let context = stack.context()
        let authors = try context.all("Author", predicate: NSPredicate(format: "name == 'Ann' AND posts.@count > 0"))
        let ann = try #require(authors.first)
        #expect(titles(ann.value(forKey: "goodPosts")) == ["a1", "a3"])
        let namesakes = try #require(ann.value(forKey: "namesakes") as? [NSManagedObject])
        #expect(namesakes.count == 1 && namesakes[0] !== ann && namesakes[0].value(forKey: "name") as? String == "Ann")
        let bob = try #require(try context.all("Author", predicate: NSPredicate(format: "name == 'Bob'")).first)
        #expect(titles(bob.value(forKey: "goodPosts")) == ["b1"])
        #expect((bob.value(forKey: "namesakes") as? [Any])?.isEmpty == true)
    }

    @Test("the result is kept until the object is refreshed", arguments: TestStoreKind.allCases)
    func lazyAndCached(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: try FetchedPropertyModel.make())
        try FetchedPropertyModel.fill(stack.context())
        let context = stack.context()
        let bob = try #require(try context.all("Author", predicate: NSPredicate(format: "name == 'Bob'")).first)
        #expect(titles(bob.value(forKey: "goodPosts")) == ["b1"])
        let writer = stack.context()
        let writerBob = try #require(try writer.all("Author", predicate: NSPredicate(format: "name == 'Bob'")).first)
        writer.make("Post", ["title": "b2", "rating": 4.2, "author": writerBob])
        try writer.save()
        #expect(titles(bob.value(forKey: "goodPosts")) == ["b1"], "not re-evaluated until refreshed")
        context.refresh(bob, mergeChanges: false)
        #expect(titles(bob.value(forKey: "goodPosts")) == ["b1", "b2"])
    }

    @Test("a fetched property is read-only and is never stored")
    func notStored() throws {
        let model = try FetchedPropertyModel.make()
        let property = try #require(model.entitiesByName["Author"]?.propertiesByName["goodPosts"])
        #expect(property.isReadOnly)
        let stack = try GraphStack(model: model)
        let context = stack.context()
        let author = context.make("Author", ["name": "New"])
        #expect((author.value(forKey: "goodPosts") as? [Any])?.isEmpty == true)
        #expect(author.changedValues()["goodPosts"] == nil)
        try context.save()
    }
}
