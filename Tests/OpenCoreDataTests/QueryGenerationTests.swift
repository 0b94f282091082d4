import Testing
import OpenCoreData

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
}
