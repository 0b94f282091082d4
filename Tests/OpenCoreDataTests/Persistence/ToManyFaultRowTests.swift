import OpenCoreData
import Testing

/// A one-to-many relationship fault of a SQLite store reads its destinations' rows with their keys, so
/// that walking the destinations fires no fault of its own.
@Suite("To-many relationship faults read their destinations' rows")
struct ToManyFaultRowTests {
    @Test("walking every author's posts runs one statement per author, none per post")
    func walkRunsOneStatementPerOwner() throws {
        let stack = try GraphStack()
        try PrefetchFixture.fill(stack, authors: 6, postsEach: 4)
        let recorder = SQLDebugLogRecorder()
        let context = try stack.recordedContext(recorder)
        let titles = try context.performAndWait {
            let authors = try PrefetchFixture.authors(context, prefetching: nil)
            var titles: [String] = []
            for author in authors {
                for case let post as NSManagedObject in (author.value(forKey: "posts") as? NSSet)?.allObjects ?? [] {
                    titles.append(post.value(forKey: "title") as? String ?? "?")
                    #expect(post.value(forKey: "author") as? NSManagedObject === author)
                }
            }
            return titles
        }
        #expect(titles.count == 24)
        #expect(Set(titles) == Set((0..<6).flatMap { a in (0..<4).map { "post\(a)-\($0)" } }))
        let selects = recorder.statements.filter { $0.contains("SELECT") && !$0.contains("sqlite_master") }
        #expect(selects.count == 1 + 6, "\(selects)")
    }

    @Test("an ordered relationship's destinations come in order, each with its own values")
    func orderedDestinations() throws {
        let stack = try GraphStack()
        let bookID = try stack.context().performAndWait { () throws -> NSManagedObjectID in
            let context = stack.context()
            let book = context.make("Book", ["title": "Atlas"])
            let chapters = ["Nine", "Three", "One", "Seven"].map { context.make("Chapter", ["title": $0]) }
            book.setValue(NSOrderedSet(array: chapters), forKey: "chapters")
            try context.save()
            return book.objectID
        }
        let recorder = SQLDebugLogRecorder()
        let context = try stack.recordedContext(recorder)
        let titles = try context.performAndWait {
            let book = try context.existingObject(
                with: try #require(context.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: bookID.uriRepresentation())))
            let chapters = try #require(book.value(forKey: "chapters") as? NSOrderedSet)
            return chapters.array.map { ($0 as? NSManagedObject)?.value(forKey: "title") as? String ?? "?" }
        }
        #expect(titles == ["Nine", "Three", "One", "Seven"])
        // The book's row, then its chapters' rows: no statement per chapter.
        #expect(recorder.statements.filter { $0.contains("SELECT") && !$0.contains("sqlite_master") }.count == 2, "\(recorder.statements)")
    }

    @Test("a destination whose row the cache already holds keeps the cached row")
    func cachedRowStays() throws {
        let stack = try GraphStack()
        try PrefetchFixture.fill(stack, authors: 1, postsEach: 3)
        let context = stack.context()
        try context.performAndWait {
            // The first post is fetched (its row cached) and changed unsaved in this context.
            let first = try #require(try context.all("Post", sortedBy: "title").first)
            first.setValue("changed", forKey: "title")
            let author = try #require(first.value(forKey: "author") as? NSManagedObject)
            let posts = try #require(author.value(forKey: "posts") as? NSSet)
            #expect(posts.count == 3)
            #expect(posts.contains(first))
            #expect(first.value(forKey: "title") as? String == "changed")
            let titles = Set(posts.allObjects.compactMap { ($0 as? NSManagedObject)?.value(forKey: "title") as? String })
            #expect(titles == ["changed", "post0-1", "post0-2"])
        }
    }
}
