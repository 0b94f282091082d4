import OpenCoreData
import Testing

@Suite("Query generations")
struct QueryGenerationTests {
    @Test("a context pinned to the current generation keeps reading it while another context writes; re-pinning moves it forward")
    func pinnedReads() throws {
        let stack = try GraphStack()
        let writer = stack.context()
        let ann = writer.make("Author", ["name": "Ann"])
        writer.make("Author", ["name": "Bob"])
        try writer.save()

        let reader = stack.context()
        #expect(reader.queryGenerationToken == nil)
        try reader.setQueryGenerationFrom(.current)
        let token = try #require(reader.queryGenerationToken)
        #expect(token != NSQueryGenerationToken.current)

        ann.setValue("Anne", forKey: "name")
        writer.make("Author", ["name": "Cid"])
        try writer.save()

        #expect(try reader.count(for: NSFetchRequest<NSManagedObject>(entityName: "Author")) == 2)
        #expect(try reader.all("Author", sortedBy: "name").compactMap { $0.string("name") } == ["Ann", "Bob"])
        #expect(reader.object(with: ann.objectID).string("name") == "Ann")

        try reader.setQueryGenerationFrom(.current)
        #expect(reader.queryGenerationToken != token)
        reader.refreshAllObjects()
        #expect(try reader.all("Author", sortedBy: "name").compactMap { $0.string("name") } == ["Anne", "Bob", "Cid"])
    }

    @Test("another context given a pinned context's token reads the same generation; nil unpins")
    func sharedToken() throws {
        let stack = try GraphStack()
        let writer = stack.context()
        writer.make("Author", ["name": "Ann"])
        try writer.save()
        let first = stack.context()
        try first.setQueryGenerationFrom(.current)
        writer.make("Author", ["name": "Bob"])
        try writer.save()

        let second = stack.context()
        try second.setQueryGenerationFrom(first.queryGenerationToken)
        #expect(second.queryGenerationToken == first.queryGenerationToken)
        #expect(try second.all("Author").count == 1)
        try second.setQueryGenerationFrom(nil)
        #expect(second.queryGenerationToken == nil)
        #expect(try second.all("Author").count == 2)
    }

    @Test("a pinned context moves to the newest generation when it saves")
    func advancesOnSave() throws {
        let stack = try GraphStack()
        let writer = stack.context()
        writer.make("Author", ["name": "Ann"])
        try writer.save()
        let pinned = stack.context()
        try pinned.setQueryGenerationFrom(.current)
        let token = pinned.queryGenerationToken
        writer.make("Author", ["name": "Bob"])
        try writer.save()
        #expect(try pinned.all("Author").count == 1)
        pinned.make("Author", ["name": "Cid"])
        try pinned.save()
        #expect(pinned.queryGenerationToken != token)
        #expect(try pinned.all("Author").count == 3)
    }

    @Test("a token of another store is refused with an error")
    func foreignToken() throws {
        let one = try GraphStack()
        let other = try GraphStack()
        let pinned = one.context()
        try pinned.setQueryGenerationFrom(.current)
        let stranger = other.context()
        #expect(throws: NSError.self) { try stranger.setQueryGenerationFrom(pinned.queryGenerationToken) }
    }

    /// A stack with Ann and Bob saved (Ann with one post tagged "swift"), a reader pinned to that
    /// generation, and then a writer's later changes: Ann renamed "Anne", a second post for Ann with a
    /// second tag on the first post, and Cid inserted.
    private func pinnedAfterChanges() throws -> (GraphStack, NSManagedObjectContext, ann: NSManagedObjectID, post: NSManagedObjectID) {
        let stack = try GraphStack()
        let writer = stack.context()
        let ann = writer.make("Author", ["name": "Ann"])
        writer.make("Author", ["name": "Bob"])
        let post = writer.make("Post", ["title": "First", "author": ann])
        let swift = writer.make("Tag", ["name": "swift"])
        post.mutableSetValue(forKey: "tags").add(swift)
        try writer.save()

        let reader = stack.context()
        try reader.setQueryGenerationFrom(.current)

        ann.setValue("Anne", forKey: "name")
        writer.make("Post", ["title": "Second", "author": ann])
        post.mutableSetValue(forKey: "tags").add(writer.make("Tag", ["name": "linux"]))
        writer.make("Author", ["name": "Cid"])
        try writer.save()
        return (stack, reader, ann.objectID, post.objectID)
    }

    @Test("prefetching in a pinned context reads the pinned generation")
    func pinnedPrefetching() throws {
        let (stack, reader, _, _) = try pinnedAfterChanges()
        defer { withExtendedLifetime(stack) {} }  // the stack's folder holds the store file
        let request = NSFetchRequest<NSManagedObject>(entityName: "Author")
        request.predicate = NSPredicate(format: "name BEGINSWITH 'A'")
        request.relationshipKeyPathsForPrefetching = ["posts", "posts.tags"]
        let authors = try reader.fetch(request)
        #expect(authors.compactMap { $0.string("name") } == ["Ann"])
        let posts = try #require(authors.first?.value(forKey: "posts") as? NSSet)
        #expect(posts.count == 1, "the second post came later")
        let post = try #require(posts.anyObject() as? NSManagedObject)
        #expect((post.value(forKey: "tags") as? NSSet)?.count == 1, "the second tag came later")
    }

    @Test("dictionary and object ID fetches and counts in a pinned context read the pinned generation")
    func pinnedResultTypes() throws {
        let (stack, reader, _, _) = try pinnedAfterChanges()
        defer { withExtendedLifetime(stack) {} }  // the stack's folder holds the store file
        let request = NSFetchRequest<NSDictionary>(entityName: "Author")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["name"]
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let names = try reader.fetch(request).compactMap { $0["name"] as? String }
        #expect(names == ["Ann", "Bob"])
        let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Author")
        ids.resultType = .managedObjectIDResultType
        #expect(try reader.fetch(ids).count == 2)
        let count = NSFetchRequest<NSNumber>(entityName: "Author")
        count.resultType = .countResultType
        #expect(try reader.fetch(count).first?.intValue == 2)
    }

    @Test("batched faults (fetchBatchSize) and relationship faults in a pinned context read the pinned generation")
    func pinnedFaults() throws {
        let (stack, reader, annID, postID) = try pinnedAfterChanges()
        defer { withExtendedLifetime(stack) {} }  // the stack's folder holds the store file
        let request = NSFetchRequest<NSManagedObject>(entityName: "Author")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        request.fetchBatchSize = 2
        let authors = try reader.fetch(request)
        #expect(authors.count == 2)
        #expect(authors.allSatisfy { $0.isFault })
        #expect(authors[0].string("name") == "Ann")
        #expect(!authors[1].isFault, "the first fault filled its whole batch from the pinned generation")
        #expect(authors[1].string("name") == "Bob")
        let ann = reader.object(with: annID)
        #expect((ann.value(forKey: "posts") as? NSSet)?.count == 1)
        #expect((reader.object(with: postID).value(forKey: "tags") as? NSSet)?.count == 1)
    }

    @Test("reset moves a pinned context to the newest generation, and it stays pinned")
    func advancesOnReset() throws {
        let (stack, reader, _, _) = try pinnedAfterChanges()
        let before = reader.queryGenerationToken
        #expect(try reader.all("Author").count == 2)
        reader.reset()
        let after = try #require(reader.queryGenerationToken)
        #expect(after != before)
        #expect(try reader.all("Author", sortedBy: "name").compactMap { $0.string("name") } == ["Anne", "Bob", "Cid"])
        let writer = stack.context()
        writer.make("Author", ["name": "Dee"])
        try writer.save()
        #expect(try reader.all("Author").count == 3, "pinned to the generation reset moved it to")
    }

    @Test("a child of a pinned context reads its parent's generation and reports its token")
    func childOfPinned() throws {
        let (stack, reader, annID, _) = try pinnedAfterChanges()
        defer { withExtendedLifetime(stack) {} }  // the stack's folder holds the store file
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = reader
        #expect(child.queryGenerationToken == reader.queryGenerationToken)
        let names = try child.performAndWait { try child.all("Author", sortedBy: "name").compactMap { $0.string("name") } }
        #expect(names == ["Ann", "Bob"])
        let faulted = child.performAndWait { child.object(with: annID).string("name") }
        #expect(faulted == "Ann")
        #expect(throws: NSError.self) { try child.setQueryGenerationFrom(.current) }
    }

    @Test("an asynchronous fetch in a pinned context reads the pinned generation")
    func pinnedAsynchronousFetch() throws {
        let (stack, reader, _, _) = try pinnedAfterChanges()
        defer { withExtendedLifetime(stack) {} }  // the stack's folder holds the store file
        let request = NSFetchRequest<NSManagedObject>(entityName: "Author")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        request.fetchBatchSize = 1
        let outcome = AsyncFetchOutcome()
        let asyncRequest = NSAsynchronousFetchRequest(fetchRequest: request) { result in
            outcome.names = result.finalResult?.compactMap { $0.value(forKey: "name") as? String }
            outcome.done.signal()
        }
        _ = try reader.performAndWait { try reader.execute(asyncRequest) }
        #expect(AsynchronousFetchTests.wait(outcome))
        #expect(outcome.names == ["Ann", "Bob"])
    }
}
