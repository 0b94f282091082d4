import OpenCoreData
import Testing

/// Random local edits, child-context saves, background saves merged by notification and automatically,
/// saves through another coordinator and batch requests merged from their object IDs, and
/// `refreshAllObjects()`: after every step, the table mirror built only from the controller's callbacks
/// (and, without sections, the ID list built only from the difference callback of a second controller)
/// equals a fresh fetch.
@Suite("NSFetchedResultsController: merges, child saves and batch requests keep a callback-driven mirror equal to a fresh fetch")
struct FetchedResultsControllerMergeTests {
    struct Configuration: Sendable, CustomStringConvertible {
        let sectioned: Bool
        let predicate: String?
        let seed: UInt64
        var description: String { "\(sectioned ? "sections" : "no sections")\(predicate.map { ", \($0)" } ?? ""), seed \(seed)" }
    }

    static let configurations = [
        Configuration(sectioned: false, predicate: nil, seed: 101),
        Configuration(sectioned: true, predicate: nil, seed: 102),
        Configuration(sectioned: true, predicate: "rank < 20", seed: 103),
        Configuration(sectioned: false, predicate: "rank < 20", seed: 104),
    ]

    static let steps = 500

    @Test(
        "500 random steps of local edits, child saves, merged background and remote saves, batch requests and refreshes",
        arguments: configurations)
    func randomMergedChanges(_ configuration: Configuration) throws {
        // OPENCOREDATA_FRC_SEED_BASE=N reruns the configurations with seeds N01…N04 (to hunt further).
        var configuration = configuration
        if let base = ProcessInfo.processInfo.environment["OPENCOREDATA_FRC_SEED_BASE"].flatMap(UInt64.init) {
            configuration = .init(sectioned: configuration.sectioned, predicate: configuration.predicate, seed: configuration.seed % 100 + base * 100)
        }
        let world = try World(configuration)
        for step in 0..<Self.steps {
            let described = try world.step(step)
            if let mismatch = try world.mismatch() {
                Issue.record("seed \(configuration.seed), step \(step) (\(described)): \(mismatch)")
                return
            }
        }
        #expect(world.mirror.batches > Self.steps / 2)
        if !configuration.sectioned { #expect(world.differences.calls > Self.steps / 2) }
        #expect(world.kindsRun.count == World.Kind.allCases.count, "every kind of step ran: \(world.kindsRun)")
    }
}

/// The cases the random run found, one by one.
@Suite("NSFetchedResultsController: objects a merge makes match, and sections made and emptied in one event")
struct FetchedResultsControllerMergeCaseTests {
    /// A stack with items saved by another context, and a controller on `rank < 20` in a fresh context.
    private final class Fixture {
        let stack: GraphStack
        let writer: NSManagedObjectContext
        let context: NSManagedObjectContext
        let request = ShelfModel.request(sectioned: false, predicate: NSPredicate(format: "rank < 20"))
        var controller: NSFetchedResultsController<NSManagedObject>!
        let mirror = TableMirror()

        init() throws {
            stack = try ShelfModel.stack()
            writer = stack.context()
            writer.item("low", group: "g", rank: 5, serial: 1)
            writer.item("high", group: "g", rank: 25, serial: 2)
            try writer.save()
            context = stack.context()
        }

        func startController() throws {
            controller = NSFetchedResultsController(
                fetchRequest: request, managedObjectContext: context,
                sectionNameKeyPath: nil, cacheName: nil)
            controller.delegate = mirror
            try controller.performFetch()
            mirror.reload(from: controller)
        }

        /// Lowers "high" below 20 in the writer and merges the save into the controller's context.
        func mergeLoweredHigh() throws {
            let high = try #require(try writer.all("Item", predicate: NSPredicate(format: "name == 'high'")).first)
            high.setValue(Int64(3), forKey: "rank")
            let recorder = NotificationRecorder([.NSManagedObjectContextDidSave], object: writer)
            try writer.save()
            context.mergeChanges(fromContextDidSave: try #require(recorder.notifications.first))
        }

        func shownNames() -> [String?] { mirror.rows.first?.map(\.shown) ?? [] }
    }

    @Test("an object the context never registered, which a merged save makes match the predicate, is inserted")
    func unregisteredObjectEnters() throws {
        let fixture = try Fixture()
        try fixture.startController()
        #expect(fixture.shownNames() == ["low"])
        try fixture.mergeLoweredHigh()
        #expect(fixture.shownNames() == ["high", "low"])
        #expect(fixture.mirror.log.contains("object insert - [0, 0]"))
        #expect(fixture.mirror.mismatch(with: try freshSections(fixture.request, in: fixture.context, sectionKey: nil)) == nil)
    }

    @Test("a fault the context holds, which a merged save makes match the predicate, is inserted")
    func faultEnters() throws {
        let fixture = try Fixture()
        let all = try fixture.context.all("Item")
        #expect(all.count == 2)
        fixture.context.refreshAllObjects()
        fixture.context.processPendingChanges()
        try fixture.startController()
        let high = try #require(all.first { $0.objectID != fixture.controller.fetchedObjects?.first?.objectID })
        #expect(high.isFault)
        try fixture.mergeLoweredHigh()
        #expect(fixture.shownNames() == ["high", "low"])
        #expect(fixture.mirror.mismatch(with: try freshSections(fixture.request, in: fixture.context, sectionKey: nil)) == nil)
    }

    @Test("a section made in the same event as a later section is emptied and filled again goes before it")
    func newSectionBeforeRefilledSection() throws {
        let stack = try ShelfModel.stack()
        let context = stack.context()
        context.item("x", group: "a", rank: 1, serial: 1)
        let z = context.item("z", group: "a", rank: 2, serial: 2)
        let y = context.item("y", group: "f", rank: 1, serial: 3)
        try context.save()
        let request = ShelfModel.request(sectioned: true)
        let controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context,
            sectionNameKeyPath: "group", cacheName: nil)
        let mirror = TableMirror()
        controller.delegate = mirror
        try controller.performFetch()
        mirror.reload(from: controller)
        z.setValue("d", forKey: "group")
        y.setValue(Int64(5), forKey: "rank")
        context.processPendingChanges()
        #expect(controller.sections?.map(\.name) == ["a", "d", "f"])
        #expect(mirror.mismatch(with: try freshSections(request, in: context, sectionKey: "group")) == nil)
        #expect(mirror.log.contains("section insert 1 d"))
        #expect(mirror.log.contains("object move [0, 1] [1, 0]"))
    }
}

/// The stack, the contexts and the two controllers one random run works with.
private final class World {
    enum Kind: String, CaseIterable {
        case local, localSave, child, mergedSave, automaticMerge, remoteSave, batchUpdate, batchDelete, refreshAll, resetAndFetch
    }

    let configuration: FetchedResultsControllerMergeTests.Configuration
    let stack: GraphStack
    /// The controllers' context (private queue; every use goes through `performAndWait`).
    let main: NSManagedObjectContext
    /// A context on the same coordinator, reset before each use.
    let background: NSManagedObjectContext
    /// A context on a second coordinator of the same store file.
    let remote: NSManagedObjectContext
    let request: NSFetchRequest<NSManagedObject>
    let sectionKey: String?
    let controller: NSFetchedResultsController<NSManagedObject>
    let mirror = TableMirror()
    let differenceController: NSFetchedResultsController<NSManagedObject>?
    let differences = IDListMirror()
    var random: SeededGenerator
    var serial = 0
    var kindsRun = Set<String>()
    let groups = ["a", "b", "c", "d", "e", "f"]

    init(_ configuration: FetchedResultsControllerMergeTests.Configuration) throws {
        self.configuration = configuration
        random = SeededGenerator(seed: configuration.seed)
        stack = try ShelfModel.stack()
        main = stack.context()
        main.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        background = stack.context()
        background.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        remote = stack.context(try stack.secondCoordinator())
        remote.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        let predicate = configuration.predicate.map { NSPredicate(format: $0) }
        request = ShelfModel.request(sectioned: configuration.sectioned, predicate: predicate)
        sectionKey = configuration.sectioned ? "group" : nil
        controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: main,
            sectionNameKeyPath: sectionKey, cacheName: nil)
        differenceController =
            configuration.sectioned
            ? nil
            : NSFetchedResultsController(fetchRequest: request, managedObjectContext: main, sectionNameKeyPath: nil, cacheName: nil)
        try main.performAndWait {
            for _ in 0..<40 { insertItem(in: main) }
            try main.save()
            controller.delegate = mirror
            try controller.performFetch()
            mirror.reload(from: controller)
            if let differenceController {
                differenceController.delegate = differences
                try differenceController.performFetch()
                differences.ids = (differenceController.fetchedObjects ?? []).map(\.objectID)
            }
        }
    }

    /// Inserts an item with random values. It gets its permanent ID at once, so that the object IDs
    /// the difference callback reports stay the IDs a fresh fetch returns after a save.
    @discardableResult
    func insertItem(in context: NSManagedObjectContext) -> NSManagedObject {
        serial += 1
        let item = context.item(
            "n\(serial)", group: groups.randomElement(using: &random),
            rank: Int.random(in: 0..<30, using: &random), serial: serial)
        try? context.obtainPermanentIDs(for: [item])
        return item
    }

    /// One random edit of an existing object (or an insert), described.
    func edit(in context: NSManagedObjectContext, objects: inout [NSManagedObject], tag: String) -> String {
        let choice = Int.random(in: 0..<100, using: &random)
        guard !objects.isEmpty, choice >= 15 else {
            objects.append(insertItem(in: context))
            return "insert"
        }
        let index = Int.random(in: 0..<objects.count, using: &random)
        let target = objects[index]
        switch choice {
        case 15..<30:
            context.delete(target)
            objects.remove(at: index)
            return "delete \(name(of: target))"
        case 30..<55:
            let rank = Int.random(in: 0..<30, using: &random)
            target.setValue(Int64(rank), forKey: "rank")
            return "rank \(name(of: target))=\(rank)"
        case 55..<75:
            let group = groups.randomElement(using: &random)
            target.setValue(group, forKey: "group")
            return "group \(name(of: target))=\(group ?? "nil")"
        case 75..<90:
            let newName = "\(tag)\(serial)-\(index)"
            target.setValue(newName, forKey: "name")
            return "rename \(name(of: target))"
        default:
            target.setValue("note \(index)", forKey: "note")
            return "note \(name(of: target))"
        }
    }

    func name(of object: NSManagedObject) -> String {
        object.isDeleted ? "deleted" : (object.value(forKey: "serial") as? Int64).map { "#\($0)" } ?? "?"
    }

    /// Every item as `context` sees it.
    func allItems(in context: NSManagedObjectContext) throws -> [NSManagedObject] {
        let all = NSFetchRequest<NSManagedObject>(entityName: "Item")
        all.sortDescriptors = [NSSortDescriptor(key: "serial", ascending: true)]
        return try context.fetch(all)
    }

    /// A few random edits in `context` (reset first, so it starts from the store), described.
    func edits(in context: NSManagedObjectContext, tag: String) throws -> String {
        context.reset()
        var objects = try allItems(in: context)
        let count = Int.random(in: 1...3, using: &random)
        return (0..<count).map { _ in edit(in: context, objects: &objects, tag: tag) }.joined(separator: ", ")
    }

    func step(_ step: Int) throws -> String {
        let roll = Int.random(in: 0..<100, using: &random)
        let kind: Kind
        switch roll {
        case 0..<38: kind = .local
        case 38..<45: kind = .localSave
        case 45..<57: kind = .child
        case 57..<67: kind = .mergedSave
        case 67..<77: kind = .automaticMerge
        case 77..<84: kind = .remoteSave
        case 84..<91: kind = .batchUpdate
        case 91..<95: kind = .batchDelete
        case 95..<98: kind = .refreshAll
        default: kind = .resetAndFetch
        }
        kindsRun.insert(kind.rawValue)
        let detail: String
        switch kind {
        case .local:
            detail = try main.performAndWait {
                // Mostly the controller's own objects, so that objects outside the results stay
                // unregistered or faults, as in an app that only shows its list.
                var objects =
                    Int.random(in: 0..<5, using: &random) == 0
                    ? try allItems(in: main)
                    : (controller.fetchedObjects ?? [])
                let count = Int.random(in: 0..<8, using: &random) == 0 ? Int.random(in: 2...4, using: &random) : 1
                let described = (0..<count).map { _ in edit(in: main, objects: &objects, tag: "l") }
                main.processPendingChanges()
                return described.joined(separator: ", ")
            }
        case .localSave:
            try main.performAndWait { try main.save() }
            detail = ""
        case .child:
            let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            child.parent = main
            var objects = try allItems(in: child)
            let count = Int.random(in: 1...3, using: &random)
            detail = (0..<count).map { _ in edit(in: child, objects: &objects, tag: "c") }.joined(separator: ", ")
            try child.save()
        case .mergedSave:
            detail = try edits(in: background, tag: "b")
            let recorder = NotificationRecorder([.NSManagedObjectContextDidSave], object: background)
            try background.save()
            if let note = recorder.notifications.first {
                main.performAndWait { main.mergeChanges(fromContextDidSave: note) }
            }
        case .automaticMerge:
            main.performAndWait { main.automaticallyMergesChangesFromParent = true }
            detail = try edits(in: background, tag: "a")
            try background.save()
            // The merge was queued on the main context's serial queue; this waits for it.
            main.performAndWait { main.automaticallyMergesChangesFromParent = false }
        case .remoteSave:
            detail = try edits(in: remote, tag: "r")
            let inserted = remote.insertedObjects.map { $0.objectID.uriRepresentation() }
            let updated = remote.updatedObjects.map { $0.objectID.uriRepresentation() }
            let deleted = remote.deletedObjects.map { $0.objectID.uriRepresentation() }
            try remote.save()
            NSManagedObjectContext.mergeChanges(
                fromRemoteContextSave: [
                    NSInsertedObjectsKey: inserted, NSUpdatedObjectsKey: updated, NSDeletedObjectsKey: deleted,
                ], into: [main])
        case .batchUpdate:
            let low = Int.random(in: 0..<30, using: &random)
            let update = NSBatchUpdateRequest(entityName: "Item")
            update.predicate = NSPredicate(format: "rank >= %d AND rank <= %d", low, low + 2)
            update.resultType = .updatedObjectIDsResultType
            let newRank = Int.random(in: 0..<30, using: &random)
            if Bool.random(using: &random) {
                update.propertiesToUpdate = ["rank": NSExpression(forConstantValue: Int64(newRank))]
                detail = "rank \(low)...\(low + 2) → \(newRank)"
            } else {
                let group = groups.randomElement(using: &random) ?? "a"
                update.propertiesToUpdate = ["group": NSExpression(forConstantValue: group), "name": NSExpression(forConstantValue: "u\(step)")]
                detail = "group of rank \(low)...\(low + 2) → \(group)"
            }
            let result = try background.execute(update) as? NSBatchUpdateResult
            let ids = result?.result as? [NSManagedObjectID] ?? []
            NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSUpdatedObjectsKey: ids], into: [main])
        case .batchDelete:
            let rank = Int.random(in: 0..<30, using: &random)
            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Item")
            fetch.predicate = NSPredicate(format: "rank == %d", rank)
            let delete = NSBatchDeleteRequest(fetchRequest: fetch)
            delete.resultType = .resultTypeObjectIDs
            let result = try background.execute(delete) as? NSBatchDeleteResult
            let ids = result?.result as? [NSManagedObjectID] ?? []
            NSManagedObjectContext.mergeChanges(fromRemoteContextSave: [NSDeletedObjectsKey: ids], into: [main])
            detail = "rank == \(rank): \(ids.count) rows"
        case .refreshAll:
            main.performAndWait {
                main.refreshAllObjects()
                main.processPendingChanges()
            }
            detail = ""
        case .resetAndFetch:
            // After reset() a controller must fetch again (Apple documents nothing else); the objects
            // outside the results are then unknown to the context until a merge names them.
            try main.performAndWait {
                main.reset()
                try controller.performFetch()
                mirror.reload(from: controller)
                if let differenceController {
                    try differenceController.performFetch()
                    differences.ids = (differenceController.fetchedObjects ?? []).map(\.objectID)
                }
            }
            detail = ""
        }
        return detail.isEmpty ? kind.rawValue : "\(kind.rawValue): \(detail)"
    }

    /// How the mirrors differ from a fresh fetch, or `nil` when they agree.
    func mismatch() throws -> String? {
        try main.performAndWait {
            main.processPendingChanges()
            let expected = try freshSections(request, in: main, sectionKey: sectionKey)
            if let mismatch = mirror.mismatch(with: expected) { return "table mirror: \(mismatch)" }
            let sections = controller.sections ?? []
            let matches =
                sections.count == expected.count
                && zip(sections, expected).allSatisfy { section, wanted in
                    section.name == wanted.name && (section.objects ?? []).count == wanted.objects.count
                        && zip(section.objects ?? [], wanted.objects).allSatisfy { ($0 as AnyObject) === $1 }
                }
            if !matches { return "the controller's sections differ from a fresh fetch" }
            if differenceController != nil {
                if let problem = differences.problems.first { return "difference mirror: \(problem)" }
                let ids = expected.flatMap(\.objects).map(\.objectID)
                if differences.ids != ids {
                    return "difference mirror has \(differences.ids.count) IDs, a fresh fetch \(ids.count); they differ"
                }
            }
            return nil
        }
    }
}

/// A list of object IDs driven only by the difference-based callback.
private final class IDListMirror: NSObject, NSFetchedResultsControllerDelegate {
    var ids: [NSManagedObjectID] = []
    private(set) var calls = 0
    private(set) var problems: [String] = []

    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        didChangeContentWith diff: CollectionDifference<NSManagedObjectID>
    ) {
        calls += 1
        guard let applied = ids.applying(diff) else { return problems.append("the difference does not apply to the list") }
        ids = applied
    }

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        problems.append("controllerWillChangeContent called although the difference callback is implemented")
    }
}
