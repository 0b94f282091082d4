import OpenCoreData
import Testing

@Suite("NSFetchedResultsController: tracking changes and reporting them to the delegate")
struct FetchedResultsChangeTrackingTests {
    /// A context with a saved shelf, a sectioned (or plain) controller on it, and a mirror as delegate.
    private final class Fixture {
        let stack: GraphStack
        let context: NSManagedObjectContext
        let request: NSFetchRequest<NSManagedObject>
        let controller: NSFetchedResultsController<NSManagedObject>
        let mirror = TableMirror()
        let sectionKey: String?

        init(sectioned: Bool, predicate: NSPredicate? = nil, items: [(String, String, Int)] = []) throws {
            stack = try ShelfModel.stack()
            context = stack.context()
            for (serial, item) in items.enumerated() {
                context.item(item.0, group: item.1, rank: item.2, serial: serial)
            }
            try context.save()
            sectionKey = sectioned ? "group" : nil
            request = ShelfModel.request(sectioned: sectioned, predicate: predicate)
            controller = NSFetchedResultsController(
                fetchRequest: request, managedObjectContext: context,
                sectionNameKeyPath: sectionKey, cacheName: nil)
            controller.delegate = mirror
            try controller.performFetch()
            mirror.reload(from: controller)
        }

        func named(_ name: String) -> NSManagedObject? {
            controller.fetchedObjects?.first { $0.value(forKey: "name") as? String == name }
        }

        /// Ends the event and checks the mirror and the controller against a fresh fetch.
        func check(_ comment: String = "", sourceLocation: SourceLocation = #_sourceLocation) throws {
            context.processPendingChanges()
            let expected = try freshSections(request, in: context, sectionKey: sectionKey)
            let mismatch = mirror.mismatch(with: expected)
            #expect(mismatch == nil, "\(comment): \(mismatch ?? "")", sourceLocation: sourceLocation)
            let sections = controller.sections ?? []
            #expect(sections.map(\.name) == expected.map(\.name), "\(comment)", sourceLocation: sourceLocation)
            let controllerObjects = sections.map { ($0.objects ?? []).map { $0 as AnyObject } }
            let same =
                controllerObjects.count == expected.count
                && zip(controllerObjects, expected).allSatisfy { pair in
                    pair.0.count == pair.1.objects.count && zip(pair.0, pair.1.objects).allSatisfy { $0 === $1 }
                }
            #expect(same, "controller results differ from a fresh fetch: \(comment)", sourceLocation: sourceLocation)
        }
    }

    @Test("inserting an object reports one insert at its new index path between willChange and didChange")
    func insert() throws {
        let fixture = try Fixture(sectioned: true, items: [("a1", "a", 1), ("a3", "a", 3)])
        fixture.context.item("a2", group: "a", rank: 2, serial: 10)
        try fixture.check()
        #expect(fixture.mirror.log == ["will", "object insert - [0, 1]", "did"])
    }

    @Test("editing a sort key reports a move; editing another attribute reports an update in place")
    func moveAndUpdate() throws {
        let fixture = try Fixture(sectioned: true, items: [("a1", "a", 1), ("a2", "a", 2), ("a3", "a", 3)])
        fixture.named("a1")?.setValue(Int64(5), forKey: "rank")
        try fixture.check()
        #expect(fixture.mirror.log == ["will", "object move [0, 0] [0, 2]", "did"])
        fixture.named("a2")?.setValue("a2 renamed", forKey: "name")
        try fixture.check()
        #expect(fixture.mirror.log.suffix(3) == ["will", "object update [0, 0] [0, 0]", "did"])
        fixture.named("a3")?.setValue("note", forKey: "note")
        try fixture.check()
        #expect(fixture.mirror.log.suffix(3) == ["will", "object update [0, 1] [0, 1]", "did"])
    }

    @Test("an edit that takes an object to a new section reports a move, a section insert and a section delete")
    func crossSections() throws {
        let fixture = try Fixture(sectioned: true, items: [("a1", "a", 1), ("b1", "b", 1), ("b2", "b", 2)])
        fixture.named("a1")?.setValue("c", forKey: "group")
        try fixture.check()
        #expect(fixture.mirror.log == ["will", "section delete 0 a", "section insert 1 c", "object move [0, 0] [1, 0]", "did"])
        fixture.named("b1")?.setValue("c", forKey: "group")
        try fixture.check()
        #expect(fixture.mirror.log.suffix(3) == ["will", "object move [0, 0] [1, 1]", "did"])
    }

    @Test("deleting the last object of a section reports the object's delete and the section's delete")
    func deleteLast() throws {
        let fixture = try Fixture(sectioned: true, items: [("a1", "a", 1), ("b1", "b", 1)])
        fixture.context.delete(try #require(fixture.named("a1")))
        try fixture.check()
        #expect(fixture.mirror.log == ["will", "section delete 0 a", "object delete [0, 0] -", "did"])
        try fixture.context.save()
        try fixture.check()
        #expect(fixture.mirror.batches == 1)
    }

    @Test("an edit that makes an object match or stop matching the predicate inserts or deletes it")
    func predicateMembership() throws {
        let fixture = try Fixture(
            sectioned: false, predicate: NSPredicate(format: "rank < 10"),
            items: [("x", "a", 1), ("y", "a", 2), ("z", "a", 20)])
        fixture.named("x")?.setValue(Int64(50), forKey: "rank")
        try fixture.check()
        #expect(fixture.mirror.log == ["will", "object delete [0, 0] -", "did"])
        let z = try #require(
            try fixture.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item"))
                .first { $0.value(forKey: "name") as? String == "z" })
        z.setValue(Int64(0), forKey: "rank")
        try fixture.check()
        #expect(fixture.mirror.log.suffix(3) == ["will", "object insert - [0, 0]", "did"])
    }

    @Test("changes that do not touch the results call no delegate method")
    func unrelatedChanges() throws {
        let fixture = try Fixture(sectioned: false, predicate: NSPredicate(format: "rank < 10"), items: [("x", "a", 1)])
        fixture.context.item("big", group: "a", rank: 99, serial: 7)
        try fixture.check()
        try fixture.context.save()
        try fixture.check()
        #expect(fixture.mirror.log.isEmpty)
    }

    @Test("without a delegate the controller keeps the results of its fetch")
    func noDelegateNoTracking() throws {
        let fixture = try Fixture(sectioned: false, items: [("x", "a", 1)])
        fixture.controller.delegate = nil
        fixture.context.item("y", group: "a", rank: 2, serial: 5)
        fixture.context.processPendingChanges()
        #expect(fixture.controller.fetchedObjects?.count == 1)
        try fixture.controller.performFetch()
        #expect(fixture.controller.fetchedObjects?.count == 2)
    }

    @Test("a delegate implementing the difference callback gets only it, and it turns the old IDs into the new ones")
    func differenceCallback() throws {
        let fixture = try Fixture(sectioned: false, items: [("a", "g", 1), ("b", "g", 2), ("c", "g", 3), ("d", "g", 4)])
        let differ = DifferenceDelegate()
        fixture.controller.delegate = differ
        var ids = fixture.controller.fetchedObjects?.map(\.objectID) ?? []
        fixture.named("a")?.setValue(Int64(10), forKey: "rank")
        fixture.context.delete(try #require(fixture.named("c")))
        fixture.context.item("e", group: "g", rank: 0, serial: 9)
        fixture.context.processPendingChanges()
        let difference = try #require(differ.differences.first)
        #expect(differ.differences.count == 1)
        ids = try #require(ids.applying(difference))
        #expect(ids == fixture.controller.fetchedObjects?.map(\.objectID))
        #expect(difference.removals.count == 2 && difference.insertions.count == 2)
        #expect(differ.others.isEmpty)
    }

    @Test("with sections the difference callback is not used")
    func differenceOnlyWithoutSections() throws {
        let fixture = try Fixture(sectioned: true, items: [("a", "g", 1)])
        let differ = DifferenceDelegate()
        fixture.controller.delegate = differ
        fixture.context.item("b", group: "g", rank: 2, serial: 9)
        fixture.context.processPendingChanges()
        #expect(differ.differences.isEmpty)
        #expect(differ.others == ["will", "insert", "did"])
    }

    @Test("a fetch limit is honored as objects enter and leave the window")
    func fetchLimit() throws {
        let fixture = try Fixture(sectioned: false, items: (1...6).map { ("i\($0)", "g", $0) })
        fixture.request.fetchLimit = 3
        try fixture.controller.performFetch()
        fixture.mirror.reload(from: fixture.controller)
        fixture.context.delete(try #require(fixture.named("i2")))
        try fixture.check("delete inside the window")
        fixture.context.item("i0", group: "g", rank: 0, serial: 20)
        try fixture.check("insert at the front")
        #expect(fixture.controller.fetchedObjects?.count == 3)
    }
}

/// A delegate that implements only the difference-based callback (and records any other call).
private final class DifferenceDelegate: NSObject, NSFetchedResultsControllerDelegate {
    var differences: [CollectionDifference<NSManagedObjectID>] = []
    var others: [String] = []

    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        didChangeContentWith diff: CollectionDifference<NSManagedObjectID>
    ) {
        if controller.sectionNameKeyPath != nil { others.append("difference with sections") }
        differences.append(diff)
    }

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        others.append("will")
    }

    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
        at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        others.append("\(type)")
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        others.append("did")
    }
}
