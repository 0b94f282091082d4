import Testing
import OpenCoreData

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

    @Test("a prefetched to-one relationship's objects are loaded; nested key paths continue from them",
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
    /// A context on a new coordinator of the stack's store whose SQL statements `recorder` captures.
    func recordedContext(_ stack: GraphStack, _ recorder: SQLDebugLogRecorder) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: stack.model)
        coordinator.sqlDebugLog = recorder.log(level: 1)
        try coordinator.addPersistentStore(type: .sqlite, at: stack.storeURL)
        return stack.context(coordinator)
    }

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
        let context = try recordedContext(stack, recorder)
        recorder.removeAll()
        let fetched = try PrefetchFixture.authors(context, prefetching: ["posts", "posts.tags"])
        #expect(touchEverything(fetched) == authors * 3)
        // Authors; posts of all authors and their rows; tags of all posts and their rows.
        #expect(recorder.statements.count == 5, "\(recorder.statements)")
    }

    @Test("without prefetching the same loop issues a statement per relationship fault")
    func unboundedWithout() throws {
        let stack = try GraphStack()
        try PrefetchFixture.fill(stack, authors: 8, postsEach: 3)
        let recorder = SQLDebugLogRecorder()
        let context = try recordedContext(stack, recorder)
        recorder.removeAll()
        let fetched = try PrefetchFixture.authors(context, prefetching: nil)
        #expect(touchEverything(fetched) == 24)
        #expect(recorder.statements.count > 8 + 24)
    }

    @Test("a prefetched to-one relationship costs one statement for all destinations")
    func toOne() throws {
        let stack = try GraphStack()
        try PrefetchFixture.fill(stack, authors: 10, postsEach: 2)
        let recorder = SQLDebugLogRecorder()
        let context = try recordedContext(stack, recorder)
        recorder.removeAll()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Post")
        request.relationshipKeyPathsForPrefetching = ["author"]
        let posts = try context.fetch(request)
        let names = Set(posts.compactMap { ($0.value(forKey: "author") as? NSManagedObject)?.value(forKey: "name") as? String })
        #expect(names.count == 10)
        #expect(recorder.statements.count == 2, "\(recorder.statements)")
    }
}
