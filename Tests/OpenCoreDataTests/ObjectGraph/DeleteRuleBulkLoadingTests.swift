import OpenCoreData
import Testing

/// Saving many deletions reads what their delete rules need in bulk: the deleted faults' rows, their
/// to-many relationships and the destinations' rows, a few statements for any number of objects.
@Suite("Delete rules load in bulk")
struct DeleteRuleBulkLoadingTests {
    /// The blog model with authors' posts cascading.
    func cascadingStack() throws -> GraphStack {
        let model = BlogModel.make()
        let posts = try #require(model.entitiesByName["Author"]?.relationshipsByName["posts"])
        posts.deleteRule = .cascadeDeleteRule
        return try GraphStack(model: model)
    }

    /// Deletes the first `doomed` of 20 authors with 5 posts each and saves; returns the statements the
    /// save ran, and checks what is left.
    func deleteAuthors(_ doomed: Int) throws -> [String] {
        let stack = try cascadingStack()
        try PrefetchFixture.fill(stack, authors: 20, postsEach: 5)
        let recorder = SQLDebugLogRecorder()
        let context = try stack.recordedContext(recorder)
        try context.performAndWait {
            let authors = try context.all("Author", sortedBy: "name").prefix(doomed)
            recorder.removeAll()
            for author in authors { context.delete(author) }
            try context.save()
        }
        let left = 20 - doomed
        let check = stack.context()
        try check.performAndWait { () throws -> Void in
            #expect(try check.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Author")) == left)
            let posts = try check.all("Post")
            #expect(posts.count == left * 5)
            #expect(posts.allSatisfy { ($0.value(forKey: "author") as? NSManagedObject) != nil })
            // Every post has two of the three tags; the deleted posts are gone from the tags.
            let total = try check.all("Tag").reduce(0) { $0 + ((($1.value(forKey: "posts") as? NSSet)?.count) ?? 0) }
            #expect(total == left * 5 * 2)
        }
        return recorder.statements
    }

    @Test("deleting authors cascades to their posts and nullifies the tags' posts, in as many statements for 4 authors as for 16")
    func cascadeInBulk() throws {
        let few = try deleteAuthors(4)
        let many = try deleteAuthors(16)
        func reads(_ statements: [String]) -> [String] { statements.filter { $0.hasPrefix("SELECT") } }
        func deletions(_ statements: [String]) -> [String] { statements.filter { $0.hasPrefix("DELETE") } }
        // The authors' posts, the posts' rows, their tags, the tags' rows and the tags' posts; the versions
        // of the authors, posts and tags; each tag's join rows (three tags).
        #expect(reads(many).count == reads(few).count, "\(reads(few).count) reads for 4 authors, \(reads(many).count) for 16: \(reads(many))")
        #expect(reads(many).count <= 12, "\(reads(many))")
        // The authors, the posts, each tag's links to them (three tags), the posts' join rows: a statement each.
        #expect(deletions(many).count == deletions(few).count, "\(deletions(many))")
        #expect(deletions(many).count <= 6, "\(deletions(many))")
    }

    @Test("deleting posts nullifies their authors' to-many relationship, loaded in bulk")
    func nullifyInBulk() throws {
        let stack = try GraphStack()
        try PrefetchFixture.fill(stack, authors: 4, postsEach: 3)
        let context = stack.context()
        try context.performAndWait {
            // Faults: the save loads their rows and their authors' posts in bulk.
            for post in try context.all("Post", predicate: NSPredicate(format: "title ENDSWITH %@", "-0")) {
                context.delete(post)
            }
            try context.save()
        }
        let check = stack.context()
        try check.performAndWait {
            for author in try check.all("Author") {
                let titles = Set(
                    ((author.value(forKey: "posts") as? NSSet)?.allObjects ?? []).compactMap {
                        ($0 as? NSManagedObject)?.value(forKey: "title") as? String
                    })
                #expect(titles.count == 2)
                #expect(!titles.contains { $0.hasSuffix("-0") })
            }
        }
    }

    @Test("a deny rule still refuses the save when loaded in bulk")
    func denyInBulk() throws {
        let model = BlogModel.make()
        let posts = try #require(model.entitiesByName["Author"]?.relationshipsByName["posts"])
        posts.deleteRule = .denyDeleteRule
        let stack = try GraphStack(model: model)
        try PrefetchFixture.fill(stack, authors: 3, postsEach: 2)
        let context = stack.context()
        try context.performAndWait {
            for author in try context.all("Author") { context.delete(author) }
            #expect(throws: NSError.self) { try context.save() }
        }
        let check = stack.context()
        let counts = try check.performAndWait {
            (
                try check.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Author")),
                try check.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Post"))
            )
        }
        #expect(counts.0 == 3 && counts.1 == 6)
    }
}
