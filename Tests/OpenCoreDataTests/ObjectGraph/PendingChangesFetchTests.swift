import OpenCoreData
import Testing

@Suite("Fetching with pending changes")
struct PendingChangesFetchTests {
    private func seeded(_ kind: TestStoreKind) throws -> (GraphStack, NSManagedObjectContext) {
        let stack = try GraphStack(kind)
        let context = stack.context()
        for (title, views) in [("alpha", 10), ("beta", 20), ("gamma", 30)] {
            context.make("Post", ["title": title, "views": views])
        }
        try context.save()
        return (stack, context)
    }

    private func titles(_ objects: [NSManagedObject]) -> [String] {
        objects.compactMap { $0.value(forKey: "title") as? String }
    }

    @Test("unsaved inserts that match are included, sorted in", arguments: TestStoreKind.allCases)
    func inserts(kind: TestStoreKind) throws {
        let (stack, context) = try seeded(kind)
        defer { withExtendedLifetime(stack) {} }
        context.make("Post", ["title": "between", "views": 15])
        context.make("Post", ["title": "low", "views": 1])
        let request = NSFetchRequest<NSManagedObject>(entityName: "Post")
        request.predicate = NSPredicate(format: "views >= 10")
        request.sortDescriptors = [NSSortDescriptor(key: "views", ascending: true)]
        #expect(titles(try context.fetch(request)) == ["alpha", "between", "beta", "gamma"])
        request.includesPendingChanges = false
        #expect(titles(try context.fetch(request)) == ["alpha", "beta", "gamma"])
    }

    @Test("unsaved updates are re-evaluated and unsaved deletes left out", arguments: TestStoreKind.allCases)
    func updatesAndDeletes(kind: TestStoreKind) throws {
        let (stack, context) = try seeded(kind)
        defer { withExtendedLifetime(stack) {} }
        let all = try context.all("Post", sortedBy: "views")
        all[0].setValue(100, forKey: "views")
        all[1].setValue("BETA", forKey: "title")
        context.delete(all[2])
        let request = NSFetchRequest<NSManagedObject>(entityName: "Post")
        request.predicate = NSPredicate(format: "views < 50")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        #expect(titles(try context.fetch(request)) == ["BETA"])
        request.predicate = nil
        #expect(titles(try context.fetch(request)) == ["BETA", "alpha"])
        #expect(try context.count(for: request) == 2)
    }

    @Test("limit and offset apply after merging pending changes")
    func window() throws {
        let (stack, context) = try seeded(.sqlite)
        defer { withExtendedLifetime(stack) {} }
        context.make("Post", ["title": "first", "views": 0])
        let request = NSFetchRequest<NSManagedObject>(entityName: "Post")
        request.sortDescriptors = [NSSortDescriptor(key: "views", ascending: true)]
        request.fetchLimit = 2
        #expect(titles(try context.fetch(request)) == ["first", "alpha"])
        request.fetchOffset = 1
        #expect(titles(try context.fetch(request)) == ["alpha", "beta"])
        #expect(try context.count(for: request) == 2)
    }

    @Test("object-ID fetches include unsaved inserts")
    func objectIDs() throws {
        let (stack, context) = try seeded(.sqlite)
        defer { withExtendedLifetime(stack) {} }
        let new = context.make("Post", ["title": "new", "views": 5])
        let request = NSFetchRequest<NSManagedObjectID>(entityName: "Post")
        request.resultType = .managedObjectIDResultType
        let ids = try context.fetch(request)
        #expect(ids.count == 4)
        #expect(ids.contains(new.objectID))
    }
}
