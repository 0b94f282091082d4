import Testing

@testable import OpenCoreDataCore

@Suite("SQLite fetch compiler: requests the store cannot run fail with an error naming them")
struct SQLiteUnsupportedPredicateTests {
    func compileError(
        _ predicate: NSPredicate?, entity: String = "Post",
        sort: [NSSortDescriptor] = []
    ) throws -> NSError {
        let fixture = try #require(SQLiteFetchFixture.shared)
        let compiler = SQLiteFetchCompiler(schema: fixture.schema, model: fixture.model)
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.predicate = predicate
        request.sortDescriptors = sort
        do {
            _ = try compiler.compile(request, selection: .rows)
        } catch let error as NSError {
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSPersistentStoreUnsupportedRequestTypeError)
            return error
        }
        Issue.record("compiling \(predicate?.predicateFormat ?? "the request") should have failed")
        return NSError(domain: "none", code: 0)
    }

    @Test("a block predicate fails the fetch and the error names it")
    func blockPredicate() throws {
        let error = try compileError(NSPredicate { _, _ in true })
        #expect(error.localizedDescription.contains("block"))
    }

    @Test("a block predicate inside a compound predicate fails the fetch")
    func nestedBlock() throws {
        let predicate = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSPredicate(format: "likes > 1"), NSPredicate { _, _ in false },
        ])
        let error = try compileError(predicate)
        #expect(error.userInfo["NSUnsupportedPredicate"] as? String == predicate.predicateFormat)
    }

    @Test(
        "custom selector comparisons, block expressions and functions with no SQL form are refused",
        arguments: [
            "FUNCTION(title, 'reversedString') == 'x'", "random() > 0.5", "median:(likes) > 1",
            "title == ANYKEY", "TERNARY(likes > 2, title, likes) == 'x'", "likes == $LIMIT",
            "tags.name == 'swift'", "posts.@sum.title > 1", "author.posts.title CONTAINS 'x' AND tags.@distinctUnionOfObjects.name == 'x'",
        ])
    func noSQLForm(_ format: String) throws {
        let predicate = NSPredicate(format: format)
        let error = try compileError(predicate)
        #expect(error.localizedDescription.contains(predicate.predicateFormat))
    }

    @Test("a custom selector comparison is refused")
    func customSelector() throws {
        let predicate = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "title"),
            rightExpression: NSExpression(forConstantValue: "x"),
            customSelector: "isEqualToString:")
        _ = try compileError(predicate)
    }

    @Test(
        "key paths that name no stored property are refused with the key named",
        arguments: [
            ("Post", "nothing == 1", "nothing"), ("Person", "mood == 'happy'", "mood"), ("Person", "level > 1", "level"),
            ("Post", "title.size > 1", "title"), ("Post", "author.nothing == 1", "nothing"),
        ])
    func unknownKeys(_ entity: String, _ format: String, _ key: String) throws {
        let error = try compileError(NSPredicate(format: format), entity: entity)
        #expect(error.localizedDescription.contains(key))
    }

    @Test("sorts SQL cannot run are refused: comparator blocks, relationships, to-many key paths, unknown keys")
    func sorts() throws {
        _ = try compileError(nil, sort: [NSSortDescriptor(key: "title", ascending: true, comparator: { _, _ in .orderedSame })])
        _ = try compileError(nil, sort: [NSSortDescriptor(key: "author", ascending: true)])
        _ = try compileError(nil, sort: [NSSortDescriptor(key: "tags.name", ascending: true)])
        let error = try compileError(nil, sort: [NSSortDescriptor(key: "missing", ascending: true)])
        #expect(error.localizedDescription.contains("missing"))
    }

    @Test("a request without an entity, or for an entity the model lacks, is refused")
    func missingEntity() throws {
        let fixture = try #require(SQLiteFetchFixture.shared)
        let compiler = SQLiteFetchCompiler(schema: fixture.schema, model: fixture.model)
        #expect(throws: NSError.self) { try compiler.compile(NSFetchRequest<NSManagedObject>(), selection: .rows) }
        let error = try compileError(nil, entity: "Unicorn")
        #expect(error.localizedDescription.contains("Unicorn"))
    }
}
