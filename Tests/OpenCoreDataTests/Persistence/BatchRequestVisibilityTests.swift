import OpenCoreData
import Testing

/// What other contexts see after batch requests, and what batch deletes delete, as in Apple's Core Data.
@Suite("Batch request visibility")
struct BatchRequestVisibilityTests {
    static func stack(posts count: Int) throws -> GraphStack {
        let stack = try GraphStack(.sqlite)
        let context = stack.context()
        for index in 1...count { context.make("Post", ["title": "p\(index)", "views": Int64(index)]) }
        try context.save()
        return stack
    }

    @Test("after a batch update a fresh context reads the new values; a held object keeps its old value until refreshed")
    func batchUpdate() throws {
        let stack = try Self.stack(posts: 3)
        let holder = stack.context()
        let held = try #require(try holder.all("Post", predicate: NSPredicate(format: "title == 'p1'")).first)
        #expect(held.value(forKey: "views") as? Int64 == 1)
        let updater = stack.context()
        let request = NSBatchUpdateRequest(entityName: "Post")
        request.propertiesToUpdate = ["views": NSNumber(value: 100)]
        request.predicate = NSPredicate(format: "views < 3")
        request.resultType = .updatedObjectsCountResultType
        let result = try #require(try updater.execute(request) as? NSBatchUpdateResult)
        #expect(result.result as? Int == 2)
        let fresh = stack.context()
        #expect(try fresh.all("Post", sortedBy: "title").map { $0.value(forKey: "views") as? Int64 } == [100, 100, 3])
        #expect(held.value(forKey: "views") as? Int64 == 1)
        holder.refresh(held, mergeChanges: false)
        #expect(held.value(forKey: "views") as? Int64 == 100)
    }

    @Test("a batch delete by fetch request deletes exactly the rows it selects")
    func deleteByFetchRequest() throws {
        let stack = try Self.stack(posts: 5)
        let context = stack.context()
        let fetch = NSFetchRequest<any NSFetchRequestResult>(entityName: "Post")
        fetch.predicate = NSPredicate(format: "views >= 4")
        let request = NSBatchDeleteRequest(fetchRequest: fetch)
        request.resultType = .resultTypeObjectIDs
        let result = try #require(try context.execute(request) as? NSBatchDeleteResult)
        #expect((result.result as? [NSManagedObjectID])?.count == 2)
        let reader = stack.context()
        let titles = try reader.all("Post", sortedBy: "title").map { $0.value(forKey: "title") as? String }
        #expect(titles == ["p1", "p2", "p3"])
    }

    @Test("a batch delete by object IDs deletes exactly those objects")
    func deleteByObjectIDs() throws {
        let stack = try Self.stack(posts: 4)
        let context = stack.context()
        let doomed = try context.all("Post", predicate: NSPredicate(format: "title IN %@", ["p2", "p4"])).map(\.objectID)
        let request = NSBatchDeleteRequest(objectIDs: doomed)
        request.resultType = .resultTypeCount
        let result = try #require(try context.execute(request) as? NSBatchDeleteResult)
        #expect(result.result as? Int == 2)
        let reader = stack.context()
        let titles = try reader.all("Post", sortedBy: "title").map { $0.value(forKey: "title") as? String }
        #expect(titles == ["p1", "p3"])
    }
}
