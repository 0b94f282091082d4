import GRDB
import OpenCoreData
import Testing

@Suite("Transient attributes: kept in memory, never stored, reset on refresh")
struct TransientAttributeTests {
    @Test("a transient value lives in the object but is never written to the store", arguments: TestStoreKind.allCases)
    func neverStored(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind)
        let context = stack.context()
        let post = context.make("Post", ["title": "Hello", "draft": "scratch notes"])
        #expect(post.value(forKey: "draft") as? String == "scratch notes")
        try context.save()
        #expect(post.value(forKey: "draft") as? String == "scratch notes", "the saving context keeps the value")
        let reader = stack.context()
        let other = try #require(try reader.all("Post").first)
        #expect(other.value(forKey: "draft") == nil)
        #expect(other.value(forKey: "title") as? String == "Hello")
        #expect(post.committedValues(forKeys: nil)["draft"] == nil)
    }

    @Test("the SQLite table has no column for a transient attribute")
    func noColumn() throws {
        let stack = try GraphStack()
        let context = stack.context()
        context.make("Post", ["title": "Hello", "draft": "x"])
        try context.save()
        let columns = try StoreKit.rows(stack.storeURL, "SELECT name FROM pragma_table_info('ZPOST')")
            .map { ($0["name"] as String?) ?? "" }
        #expect(columns.contains { $0.contains("ZTITLE") })
        #expect(!columns.contains { $0.contains("ZDRAFT") })
    }

    @Test("refresh without merging resets a transient value; with merging keeps it", arguments: TestStoreKind.allCases)
    func refresh(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind)
        let context = stack.context()
        let post = context.make("Post", ["title": "Hello"])
        try context.save()
        post.setValue("kept", forKey: "draft")
        context.refresh(post, mergeChanges: true)
        #expect(post.value(forKey: "draft") as? String == "kept")
        context.refresh(post, mergeChanges: false)
        #expect(post.value(forKey: "draft") == nil)
        #expect(post.value(forKey: "title") as? String == "Hello")
    }

    @Test("a transient value can be used in memory predicates on registered objects")
    func inMemoryPredicate() throws {
        let stack = try GraphStack()
        let context = stack.context()
        let posts = [context.make("Post", ["title": "A", "draft": "yes"]), context.make("Post", ["title": "B"])]
        let filtered = posts.filtered(using: NSPredicate(format: "draft == 'yes'"))
        #expect(filtered.count == 1)
    }
}
