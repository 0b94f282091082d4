import Testing

@testable import OpenCoreDataCore

@Suite("NSManagedObject Key-Value Coding")
struct ManagedObjectKVCTests {
    @Test("value(forKey:) returns canonical values; setValue accepts Swift values")
    func canonicalValues() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let post = context.make("Post")
        post.setValue(7, forKey: "views")
        post.setValue(2.5 as Float, forKey: "rating")
        post.setValue(true, forKey: "published")
        post.setValue("Title", forKey: "title")
        #expect(post.value(forKey: "views") is NSNumber)
        #expect((post.value(forKey: "views") as? NSNumber)?.int64Value == 7)
        #expect(post.value(forKey: "rating") as? Double == 2.5)
        #expect((post.value(forKey: "published") as? NSNumber)?.boolValue == true)
        #expect(post.value(forKey: "title") as? String == "Title")
        post.setValue(nil, forKey: "title")
        #expect(post.value(forKey: "title") == nil)
    }

    @Test("primitive accessors and change notifications")
    func primitives() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let post = context.make("Post", ["title": "A"])
        try context.save()
        post.willChangeValue(forKey: "title")
        post.setPrimitiveValue("B", forKey: "title")
        post.didChangeValue(forKey: "title")
        #expect(post.primitiveValue(forKey: "title") as? String == "B")
        #expect(post.isUpdated)
        post.willAccessValue(forKey: "title")
        #expect(post.primitiveValue(forKey: "title") as? String == "B")
        post.didAccessValue(forKey: "title")
    }

    @Test("value(forKeyPath:) follows to-one relationships and collection operators")
    func keyPaths() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let ann = context.make("Author", ["name": "Ann"])
        let one = context.make("Post", ["title": "1", "views": 10, "author": ann])
        let two = context.make("Post", ["title": "2", "views": 30, "author": ann])
        ann.setValue(NSSet(array: [one, two]), forKey: "posts")
        #expect(one.value(forKeyPath: "author.name") as? String == "Ann")
        #expect((ann.value(forKeyPath: "posts.@count") as? NSNumber)?.intValue == 2)
        #expect((ann.value(forKeyPath: "posts.@sum.views") as? NSNumber)?.intValue == 40)
        #expect(ann.value(forKey: "objectID") as? NSManagedObjectID == ann.objectID)
    }

    @Test("mutableSetValue(forKey:) writes through, and the change is saved")
    func mutableSet() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let post = context.make("Post", ["title": "P"])
        let swift = context.make("Tag", ["name": "swift"])
        let linux = context.make("Tag", ["name": "linux"])
        let tags = post.mutableSetValue(forKey: "tags")
        tags.add(swift)
        tags.add(linux)
        tags.add(swift)
        #expect(tags.count == 2)
        #expect((post.value(forKey: "tags") as? NSSet)?.count == 2)
        tags.remove(linux)
        #expect(tags.contains(swift) && !tags.contains(linux))
        try context.save()

        let reader = stack.context()
        let fetched = try #require(try reader.all("Post").first)
        let names = (fetched.value(forKey: "tags") as? NSSet)?.allObjects.compactMap { ($0 as? NSManagedObject)?.value(forKey: "name") as? String }
        #expect(names == ["swift"])
        fetched.mutableSetValue(forKey: "tags").removeAllObjects()
        #expect(fetched.isUpdated)
        try reader.save()
        let third = stack.context()
        #expect((try third.all("Post").first?.value(forKey: "tags") as? NSSet)?.count == 0)
    }

    @Test("mutableOrderedSetValue(forKey:) keeps order and writes through")
    func mutableOrderedSet() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let book = context.make("Book", ["title": "B"])
        let chapters = (1...3).map { context.make("Chapter", ["title": "c\($0)"]) }
        let ordered = book.mutableOrderedSetValue(forKey: "chapters")
        ordered.add(chapters[0])
        ordered.add(chapters[2])
        ordered.insert(chapters[1], at: 1)
        #expect((book.value(forKey: "chapters") as? NSOrderedSet)?.array.count == 3)
        try context.save()
        let reader = stack.context()
        let fetched = try #require(try reader.all("Book").first)
        let titles = (fetched.value(forKey: "chapters") as? NSOrderedSet)?.array.compactMap {
            ($0 as? NSManagedObject)?.value(forKey: "title") as? String
        }
        #expect(titles == ["c1", "c2", "c3"])
        fetched.mutableOrderedSetValue(forKey: "chapters").removeObject(at: 0)
        try reader.save()
        let third = stack.context()
        let after = (try third.all("Book").first?.value(forKey: "chapters") as? NSOrderedSet)?.array.compactMap {
            ($0 as? NSManagedObject)?.value(forKey: "title") as? String
        }
        #expect(after == ["c2", "c3"])
    }

    @Test("every key the fetch and migration checks accept besides properties is one Key-Value Coding answers for any object")
    func builtInKeys() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let post = context.make("Post", ["title": "A"])
        #expect(ManagedObjectBuiltInKeys.names.contains("objectID"))
        for key in ManagedObjectBuiltInKeys.names.sorted() {
            #expect(post.value(forKey: key) != nil, "\(key)")
        }
        #expect(post.value(forKey: "objectID") as? NSManagedObjectID == post.objectID)
        #expect((post.value(forKey: "inserted") as? Bool) == true)
        #expect((post.value(forKey: "fault") as? Bool) == false)
    }

    @Test("an unknown key traps naming the entity and the key", .tags(.exitTest))
    func unknownKeyTraps() async {
        await #expect(processExitsWith: .failure) {
            let stack = try GraphStack(.inMemory)
            let post = stack.context().make("Post")
            _ = post.value(forKey: "nope")
        }
    }

    @Test("a value of the wrong type traps naming entity, key and value", .tags(.exitTest))
    func wrongTypeTraps() async {
        await #expect(processExitsWith: .failure) {
            let stack = try GraphStack(.inMemory)
            let post = stack.context().make("Post")
            post.setValue(42, forKey: "title")
        }
    }
}
