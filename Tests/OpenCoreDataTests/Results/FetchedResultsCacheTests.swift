import OpenCoreData
import Testing

@Suite("NSFetchedResultsController: the section cache kept across launches", .serialized)
struct FetchedResultsCacheTests {
    init() {
        FetchedResultsTestCaches.use()
    }

    private func cacheFile(_ name: String) -> URL {
        NSFetchedResultsController<NSFetchRequestResult>.cacheDirectory.appendingPathComponent("\(name).frccache")
    }

    /// A saved shelf in an SQLite store: groups a (2 items), b (1 item).
    private func shelf() throws -> GraphStack {
        let stack = try ShelfModel.stack()
        let context = stack.context()
        context.item("a1", group: "a", rank: 1, serial: 1)
        context.item("a2", group: "a", rank: 2, serial: 2)
        context.item("b1", group: "b", rank: 1, serial: 3)
        try context.save()
        return stack
    }

    /// A controller in a fresh context on a second coordinator: the next launch of the program.
    private func relaunch(
        _ stack: GraphStack, cacheName: String, request: NSFetchRequest<NSManagedObject> = ShelfModel.request(sectioned: true),
        sectionKey: String? = "group"
    ) throws -> NSFetchedResultsController<NSManagedObject> {
        let context = stack.context(try stack.secondCoordinator())
        let controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context,
            sectionNameKeyPath: sectionKey, cacheName: cacheName)
        try controller.performFetch()
        return controller
    }

    private func names(_ controller: NSFetchedResultsController<NSManagedObject>) -> [[String]] {
        (controller.sections ?? []).map { ($0.objects ?? []).compactMap { ($0 as? NSManagedObject)?.value(forKey: "name") as? String } }
    }

    @Test("a controller with a cache name writes its sections; the next launch reads them without loading any object")
    func reuse() throws {
        let name = "Shelf-\(UUID().uuidString)"
        let stack = try shelf()
        let first = try relaunch(stack, cacheName: name)
        #expect(FileManager.default.fileExists(atPath: cacheFile(name).path))
        #expect(first.fetchedObjects?.contains { $0.isFault } == false)

        let second = try relaunch(stack, cacheName: name)
        #expect(second.sections?.map(\.name) == ["a", "b"])
        #expect(second.sections?.map(\.numberOfObjects) == [2, 1])
        #expect(second.fetchedObjects?.allSatisfy { $0.isFault } == true)
        #expect(names(second) == [["a1", "a2"], ["b1"]])
        NSFetchedResultsController<NSFetchRequestResult>.deleteCache(withName: name)
    }

    @Test("a cache is not used, and is written again, when the request or the section key path changed")
    func requestChanged() throws {
        let name = "Shelf-\(UUID().uuidString)"
        let stack = try shelf()
        _ = try relaunch(stack, cacheName: name)
        let written = try Data(contentsOf: cacheFile(name))

        let filtered = ShelfModel.request(sectioned: true, predicate: NSPredicate(format: "rank == 1"))
        let second = try relaunch(stack, cacheName: name, request: filtered)
        #expect(names(second) == [["a1"], ["b1"]])
        #expect(second.fetchedObjects?.contains { $0.isFault } == false)
        #expect(try Data(contentsOf: cacheFile(name)) != written)

        let resorted = ShelfModel.request(sectioned: true, predicate: NSPredicate(format: "rank == 1"))
        resorted.sortDescriptors = [NSSortDescriptor(key: "group", ascending: false), NSSortDescriptor(key: "rank", ascending: true)]
        let third = try relaunch(stack, cacheName: name, request: resorted)
        #expect(names(third) == [["b1"], ["a1"]])

        let unsectioned = try relaunch(stack, cacheName: name, request: resorted, sectionKey: nil)
        #expect(names(unsectioned) == [["b1", "a1"]])
        #expect(unsectioned.fetchedObjects?.contains { $0.isFault } == false)
        NSFetchedResultsController<NSFetchRequestResult>.deleteCache(withName: name)
    }

    @Test("a cache is not used after the store was written to")
    func storeChanged() throws {
        let name = "Shelf-\(UUID().uuidString)"
        let stack = try shelf()
        _ = try relaunch(stack, cacheName: name)
        let writer = stack.context(try stack.secondCoordinator())
        writer.item("c1", group: "c", rank: 1, serial: 4)
        try writer.save()
        let next = try relaunch(stack, cacheName: name)
        #expect(names(next) == [["a1", "a2"], ["b1"], ["c1"]])
        NSFetchedResultsController<NSFetchRequestResult>.deleteCache(withName: name)
    }

    @Test("unsaved changes in the context are fetched, not read from the cache")
    func pendingChanges() throws {
        let name = "Shelf-\(UUID().uuidString)"
        let stack = try shelf()
        _ = try relaunch(stack, cacheName: name)
        let context = stack.context(try stack.secondCoordinator())
        context.item("a0", group: "a", rank: 0, serial: 9)
        let controller = NSFetchedResultsController(
            fetchRequest: ShelfModel.request(sectioned: true), managedObjectContext: context,
            sectionNameKeyPath: "group", cacheName: name)
        try controller.performFetch()
        #expect(names(controller) == [["a0", "a1", "a2"], ["b1"]])
        NSFetchedResultsController<NSFetchRequestResult>.deleteCache(withName: name)
    }

    @Test("deleteCache(withName:) removes one cache, and every cache for nil")
    func deleteCaches() throws {
        let stack = try shelf()
        let names = ["One-\(UUID().uuidString)", "Two/\(UUID().uuidString)"]
        for name in names { _ = try relaunch(stack, cacheName: name) }
        #expect(names.allSatisfy { FileManager.default.fileExists(atPath: cacheFile($0.replacingOccurrences(of: "/", with: "%2F")).path) })
        NSFetchedResultsController<NSFetchRequestResult>.deleteCache(withName: names[0])
        #expect(!FileManager.default.fileExists(atPath: cacheFile(names[0]).path))
        #expect(FileManager.default.fileExists(atPath: cacheFile(names[1].replacingOccurrences(of: "/", with: "%2F")).path))
        NSFetchedResultsController<NSFetchRequestResult>.deleteCache(withName: nil)
        let left = try FileManager.default.contentsOfDirectory(atPath: NSFetchedResultsController<NSFetchRequestResult>.cacheDirectory.path)
        #expect(left.filter { $0.hasSuffix(".frccache") }.isEmpty)
    }

    @Test("in-memory stores are never cached")
    func inMemory() throws {
        let name = "Memory-\(UUID().uuidString)"
        let stack = try ShelfModel.stack(.inMemory)
        let context = stack.context()
        context.item("a1", group: "a", rank: 1, serial: 1)
        try context.save()
        let controller = NSFetchedResultsController(
            fetchRequest: ShelfModel.request(sectioned: true), managedObjectContext: context,
            sectionNameKeyPath: "group", cacheName: name)
        try controller.performFetch()
        #expect(controller.sections?.count == 1)
        #expect(!FileManager.default.fileExists(atPath: cacheFile(name).path))
    }
}
