import OpenCoreData
import Testing

/// Fetch requests as Apple's Core Data executes them: the entity of `NSFetchRequest(entityName:)` is
/// resolved by the execution, and a sorted window (`fetchOffset`, `fetchLimit`) is exactly that window.
@Suite("Fetch request resolution and windows")
struct FetchWindowTests {
    @Test("NSFetchRequest(entityName:) has its entity resolved once a context has executed it", arguments: TestStoreKind.allCases)
    func entityResolved(kind: TestStoreKind) throws {
        let stack = try GraphStack(kind)
        let context = stack.context()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Post")
        #expect(request.entityName == "Post")
        _ = try context.fetch(request)
        #expect(request.entity === stack.model.entitiesByName["Post"])
        let counted = NSFetchRequest<NSManagedObject>(entityName: "Tag")
        _ = try context.count(for: counted)
        #expect(counted.entity?.name == "Tag")
    }

    @Test("a sorted fetch with fetchOffset and fetchLimit returns exactly that window of the sorted rows", arguments: TestStoreKind.allCases)
    func sortedWindow(kind: TestStoreKind) throws {
        let stack = try GraphStack(kind)
        let writer = stack.context()
        for index in [7, 2, 9, 4, 1, 8, 3, 6, 5, 0] {
            writer.make("Post", ["title": "p\(index)", "views": Int64(index)])
        }
        try writer.save()
        let context = stack.context()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Post")
        request.sortDescriptors = [NSSortDescriptor(key: "views", ascending: false)]
        request.fetchOffset = 3
        request.fetchLimit = 4
        #expect(!context.hasChanges)
        let titles = try context.fetch(request).map { $0.value(forKey: "title") as? String }
        #expect(titles == ["p6", "p5", "p4", "p3"])
        request.fetchOffset = 8
        #expect(try context.fetch(request).map { $0.value(forKey: "title") as? String } == ["p1", "p0"])
    }
}
