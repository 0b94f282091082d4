import Testing

@testable import OpenCoreDataCore

/// Fetching from the SQLite store through compiled SQL: rows, IDs and counts, with predicates, sorts,
/// offsets, limits and subentities; the results agree with the in-memory store's.
@Suite("SQLite store fetching")
struct SQLiteStoreFetchTests {
    @Test("fetchRows, fetchObjectIDs and count agree with the in-memory store")
    func agreesWithMemory() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (sqlite, _) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: directory.appendingPathComponent("Blog.sqlite"))
        let memory = NSPersistentStoreCoordinator(managedObjectModel: StoreKit.blogModel())
        try memory.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
        for coordinator in [sqlite, memory] {
            let authors = try StoreKit.insert(
                coordinator, "Author",
                [
                    ["name": "Ann", "age": NSNumber(value: 40), "born": Date(timeIntervalSinceReferenceDate: 10)],
                    ["name": "bob", "age": NSNumber(value: 30)], ["name": "Émile", "age": NSNumber(value: 50)],
                ])
            try StoreKit.insert(coordinator, "Post", [["title": "hello", "author": authors[0]], ["title": "help", "author": authors[1]]])
            try StoreKit.insert(coordinator, "SpecialPost", [["title": "gold", "badge": "b", "author": authors[0]]])
        }
        let requests: [NSFetchRequest<NSManagedObject>] = [
            StoreKit.request("Author", sort: [NSSortDescriptor(key: "age", ascending: true)]),
            StoreKit.request("Author", "name BEGINSWITH[cd] %@", ["e"], sort: [NSSortDescriptor(key: "name", ascending: true)]),
            StoreKit.request("Author", "born == nil", sort: [NSSortDescriptor(key: "age", ascending: false)]),
            StoreKit.request("Post", "author.age >= 40", sort: [NSSortDescriptor(key: "title", ascending: true)]),
            StoreKit.request("Post", sort: [NSSortDescriptor(key: "title", ascending: false)]),
            StoreKit.request("Author", "ANY posts.title CONTAINS 'el'", sort: [NSSortDescriptor(key: "name", ascending: true)]),
        ]
        let window = StoreKit.request("Author", sort: [NSSortDescriptor(key: "age", ascending: true)])
        window.fetchOffset = 1
        window.fetchLimit = 1
        let noSubentities = StoreKit.request("Post", sort: [NSSortDescriptor(key: "title", ascending: true)])
        noSubentities.includesSubentities = false
        for request in requests + [window, noSubentities] {
            let expected = try memory.fetchRows(request)
            let rows = try sqlite.fetchRows(request)
            let describe = { (rows: [StoreRow]) in rows.map { "\($0.objectID.entity.name ?? "")/\($0.objectID.primaryKey ?? 0)/\($0.version)" } }
            #expect(describe(rows) == describe(expected), "\(request.predicate?.predicateFormat ?? "all") \(request.entityName ?? "")")
            #expect(try sqlite.fetchObjectIDs(request).map(\.primaryKey) == expected.map(\.objectID.primaryKey))
            #expect(try sqlite.count(request) == expected.count)
        }
        let posts = try sqlite.fetchRows(StoreKit.request("Post", "title == 'gold'"))
        #expect(posts.first?.objectID.entity.name == "SpecialPost")
        #expect(posts.first?.values["badge"] as? String == "b")
        #expect((posts.first?.values["author"] as? NSManagedObjectID)?.primaryKey == 1)
        // Fetched rows refresh the row cache.
        #expect(sqlite._rowCache.row(for: try #require(posts.first?.objectID))?.values["title"] as? String == "gold")
    }

    @Test("a predicate SQL cannot run fails the fetch with an error naming it")
    func unsupported() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (coordinator, _) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: directory.appendingPathComponent("Blog.sqlite"))
        let request = StoreKit.request("Author")
        request.predicate = NSPredicate { _, _ in true }
        let error = try #require(throws: NSError.self) { try coordinator.fetchRows(request) }
        #expect(error.code == NSPersistentStoreUnsupportedRequestTypeError)
        let unknown = NSFetchRequest<NSManagedObject>(entityName: "Nope")
        let missing = try #require(throws: NSError.self) { try coordinator.fetchRows(unknown) }
        #expect(missing.localizedDescription.contains("Nope"))
    }

    @Test("many tasks read in parallel while saves go on, through one coordinator")
    func parallelReads() async throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (coordinator, _) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: directory.appendingPathComponent("Blog.sqlite"))
        try StoreKit.insert(coordinator, "Tag", (0..<50).map { ["label": "tag \($0)"] })
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for reader in 0..<8 {
                group.addTask {
                    if reader == 0 {
                        try StoreKit.insert(coordinator, "Tag", [["label": "late"]])
                        return -1
                    }
                    var seen = 0
                    for _ in 0..<10 {
                        seen = try coordinator.count(StoreKit.request("Tag", "label BEGINSWITH 'tag'"))
                    }
                    return seen
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts.filter { $0 >= 0 }.allSatisfy { $0 == 50 })
        #expect(counts.count == 8)
        #expect(try coordinator.count(StoreKit.request("Tag")) == 51)
    }

    @Test("an object of another store as a predicate constant matches nothing, whatever its primary key")
    func otherStoreConstant() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = StoreKit.blogModel()
        let (first, _) = try StoreKit.sqliteCoordinator(model, at: directory.appendingPathComponent("A.sqlite"))
        let (second, _) = try StoreKit.sqliteCoordinator(model, at: directory.appendingPathComponent("B.sqlite"))
        let own = try #require(StoreKit.insert(first, "Author", [["name": "Ann"]]).first)
        let foreign = try #require(StoreKit.insert(second, "Author", [["name": "Zed"]]).first)
        #expect(own.primaryKey == foreign.primaryKey)
        try StoreKit.insert(first, "Post", [["title": "p", "author": own]])
        #expect(try first.count(StoreKit.request("Post", "author == %@", [own])) == 1)
        #expect(try first.count(StoreKit.request("Post", "author == %@", [foreign])) == 0)
    }
}
