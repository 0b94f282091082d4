import OpenCoreData
import Testing

/// The first seed's N+1 example on the blog model: authors with their posts, posts with their tags.
enum PrefetchFixture {
    /// Saves `authors` authors with `postsEach` posts each; every post has two of three tags.
    static func fill(_ stack: GraphStack, authors: Int, postsEach: Int) throws {
        let context = stack.context()
        let tags = (0..<3).map { context.make("Tag", ["name": "tag\($0)"]) }
        for a in 0..<authors {
            let author = context.make("Author", ["name": String(format: "author%03d", a)])
            var posts: [NSManagedObject] = []
            for p in 0..<postsEach {
                let post = context.make("Post", ["title": "post\(a)-\(p)", "author": author])
                post.setValue(NSSet(array: [tags[p % 3], tags[(p + 1) % 3]]), forKey: "tags")
                posts.append(post)
            }
            author.setValue(NSSet(array: posts), forKey: "posts")
        }
        try context.save()
    }

    static func authors(_ context: NSManagedObjectContext, prefetching keyPaths: [String]?) throws -> [NSManagedObject] {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Author")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        request.relationshipKeyPathsForPrefetching = keyPaths
        return try context.fetch(request)
    }
}

@Suite("Relationship prefetching: relationshipKeyPathsForPrefetching")
struct PrefetchingTests {
    @Test("prefetched to-many relationships and their objects are loaded with the fetch", arguments: TestStoreKind.allCases)
    func toMany(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind)
        try PrefetchFixture.fill(stack, authors: 5, postsEach: 4)
        let context = stack.context()
        let authors = try PrefetchFixture.authors(context, prefetching: ["posts"])
        #expect(authors.count == 5)
        for author in authors {
            #expect(!author.isFault)
            #expect(!author.hasFault(forRelationshipNamed: "posts"))
            let posts = try #require(author.value(forKey: "posts") as? NSSet)
            #expect(posts.count == 4)
            #expect(posts.allObjects.allSatisfy { ($0 as? NSManagedObject)?.isFault == false })
        }
        let plainContext = stack.context()
        let plain = try PrefetchFixture.authors(plainContext, prefetching: nil)
        #expect(plain.allSatisfy { $0.hasFault(forRelationshipNamed: "posts") })
    }

    @Test(
        "a prefetched to-one relationship's objects are loaded; nested key paths continue from them",
        arguments: TestStoreKind.allCases)
    func toOneAndNested(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind)
        try PrefetchFixture.fill(stack, authors: 3, postsEach: 3)
        let context = stack.context()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Post")
        request.relationshipKeyPathsForPrefetching = ["author", "tags"]
        let posts = try context.fetch(request)
        #expect(posts.count == 9)
        for post in posts {
            let author = try #require(post.value(forKey: "author") as? NSManagedObject)
            #expect(!author.isFault)
            #expect(!post.hasFault(forRelationshipNamed: "tags"))
            #expect((post.value(forKey: "tags") as? NSSet)?.count == 2)
        }
        let nestedContext = stack.context()
        let nested = try PrefetchFixture.authors(nestedContext, prefetching: ["posts.tags"])
        for author in nested {
            for case let post as NSManagedObject in (author.value(forKey: "posts") as? NSSet)?.allObjects ?? [] {
                #expect(!post.isFault && !post.hasFault(forRelationshipNamed: "tags"))
                #expect((post.value(forKey: "tags") as? NSSet)?.allObjects.allSatisfy { ($0 as? NSManagedObject)?.isFault == false } == true)
            }
        }
    }

    @Test("prefetching reads the same relationships as loading them one by one", arguments: TestStoreKind.allCases)
    func sameContents(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind)
        try PrefetchFixture.fill(stack, authors: 4, postsEach: 2)
        func titles(_ authors: [NSManagedObject]) -> [[String]] {
            authors.map { author in
                ((author.value(forKey: "posts") as? NSSet)?.allObjects ?? [])
                    .compactMap { ($0 as? NSManagedObject)?.value(forKey: "title") as? String }.sorted()
            }
        }
        let first = stack.context(), second = stack.context()
        let prefetched = try PrefetchFixture.authors(first, prefetching: ["posts"])
        let lazy = try PrefetchFixture.authors(second, prefetching: nil)
        #expect(titles(prefetched) == titles(lazy))
    }

    @Test(
        "prefetching a many-to-many relationship fills the inverse of the objects it reaches with all their objects",
        arguments: TestStoreKind.allCases)
    func manyToManyInverse(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind)
        try PrefetchFixture.fill(stack, authors: 3, postsEach: 3)
        let context = stack.context()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Post")
        request.predicate = NSPredicate(format: "author.name == %@", "author000")
        request.relationshipKeyPathsForPrefetching = ["tags"]
        let posts = try context.fetch(request)
        #expect(posts.count == 3)
        let tags = Set(posts.flatMap { ($0.value(forKey: "tags") as? NSSet)?.allObjects.compactMap { $0 as? NSManagedObject } ?? [] })
        #expect(tags.count == 3)

        let reader = stack.context()
        for tag in tags {
            #expect(!tag.hasFault(forRelationshipNamed: "posts"), "the inverse of \(tag.string("name") ?? "?") is loaded")
            let loaded = Set(tag.objectIDs(forRelationshipNamed: "posts"))
            let stored = try #require(try reader.all("Tag", predicate: NSPredicate(format: "name == %@", tag.string("name") ?? "")).first)
            let expected = Set(((stored.value(forKey: "posts") as? NSSet)?.allObjects ?? []).compactMap { ($0 as? NSManagedObject)?.objectID })
            #expect(expected.count == 6, "two posts of each of the three authors")
            #expect(loaded == expected, "all posts of the tag, not only the fetched ones")
            #expect((tag.value(forKey: "posts") as? NSSet)?.count == 6)
        }
    }

    @Test("a many-to-many inverse already loaded in the context keeps its unsaved contents")
    func manyToManyInverseKeepsLoaded() throws {
        let stack = try GraphStack()
        try PrefetchFixture.fill(stack, authors: 1, postsEach: 3)
        let context = stack.context()
        let tag = try #require(try context.all("Tag", predicate: NSPredicate(format: "name == 'tag0'")).first)
        let extra = context.make("Post", ["title": "unsaved"])
        tag.mutableSetValue(forKey: "posts").add(extra)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Post")
        request.predicate = NSPredicate(format: "title == 'post0-0'")
        request.relationshipKeyPathsForPrefetching = ["tags"]
        _ = try context.fetch(request)
        let posts = try #require(tag.value(forKey: "posts") as? NSSet)
        #expect(posts.contains(extra))
        #expect(posts.count == 3)
    }

    @Test("a key path naming no relationship fails the fetch with an error naming it")
    func badKeyPath() throws {
        let stack = try GraphStack()
        try PrefetchFixture.fill(stack, authors: 1, postsEach: 1)
        let error = try #require(throws: NSError.self) {
            try PrefetchFixture.authors(stack.context(), prefetching: ["posts.nonsense"])
        }
        #expect(error.localizedDescription.contains("nonsense"))
    }
}

@Suite("Relationship prefetching: a fixed number of SQL statements however many objects")
struct PrefetchingStatementCountTests {
    /// Reads every post title and tag name of the authors, as the seed's N+1 loop does.
    func touchEverything(_ authors: [NSManagedObject]) -> Int {
        var count = 0
        for author in authors {
            for case let post as NSManagedObject in (author.value(forKey: "posts") as? NSSet)?.allObjects ?? [] {
                if post.value(forKey: "title") is String { count += 1 }
                for case let tag as NSManagedObject in (post.value(forKey: "tags") as? NSSet)?.allObjects ?? [] {
                    _ = tag.value(forKey: "name")
                }
            }
        }
        return count
    }

    @Test("the seed's N+1 loop issues 5 statements with posts.tags prefetched, for 8 or 40 authors", arguments: [8, 40])
    func boundedStatements(_ authors: Int) throws {
        let stack = try GraphStack()
        try PrefetchFixture.fill(stack, authors: authors, postsEach: 3)
        let recorder = SQLDebugLogRecorder()
        let context = try stack.recordedContext(recorder)
        recorder.removeAll()
        let fetched = try PrefetchFixture.authors(context, prefetching: ["posts", "posts.tags"])
        #expect(touchEverything(fetched) == authors * 3)
        // Authors; the rows of all authors' posts (one-to-many: read whole); tags of all posts, their rows
        // and their posts.
        #expect(recorder.statements.count == 5, "\(recorder.statements)")
    }

    @Test("without prefetching the same loop issues a statement per relationship fault")
    func unboundedWithout() throws {
        let stack = try GraphStack()
        try PrefetchFixture.fill(stack, authors: 8, postsEach: 3)
        let recorder = SQLDebugLogRecorder()
        let context = try stack.recordedContext(recorder)
        recorder.removeAll()
        let fetched = try PrefetchFixture.authors(context, prefetching: nil)
        #expect(touchEverything(fetched) == 24)
        #expect(recorder.statements.count > 8 + 24)
    }

    @Test("walking back a prefetched many-to-many relationship runs no further statement")
    func manyToManyInverseStatements() throws {
        let stack = try GraphStack()
        try PrefetchFixture.fill(stack, authors: 6, postsEach: 3)
        let recorder = SQLDebugLogRecorder()
        let context = try stack.recordedContext(recorder)
        recorder.removeAll()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Post")
        request.relationshipKeyPathsForPrefetching = ["tags"]
        let posts = try context.fetch(request)
        var links = 0
        for post in posts {
            for case let tag as NSManagedObject in (post.value(forKey: "tags") as? NSSet)?.allObjects ?? [] {
                links += (tag.value(forKey: "posts") as? NSSet)?.count ?? 0
            }
        }
        #expect(links == 18 * 2 * 12)
        // Posts; tags of all posts, their rows, and the posts of all those tags.
        #expect(recorder.statements.count == 4, "\(recorder.statements)")
    }

    @Test("a prefetched to-one relationship costs one statement for all destinations")
    func toOne() throws {
        let stack = try GraphStack()
        try PrefetchFixture.fill(stack, authors: 10, postsEach: 2)
        let recorder = SQLDebugLogRecorder()
        let context = try stack.recordedContext(recorder)
        recorder.removeAll()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Post")
        request.relationshipKeyPathsForPrefetching = ["author"]
        let posts = try context.fetch(request)
        let names = Set(posts.compactMap { ($0.value(forKey: "author") as? NSManagedObject)?.value(forKey: "name") as? String })
        #expect(names.count == 10)
        #expect(recorder.statements.count == 2, "\(recorder.statements)")
    }
}
