import OpenCoreData
import Testing

@Suite("NSFetchedResultsController: fetching, sections and the section index")
struct FetchedResultsControllerTests {
    /// A saved shelf: groups "apple" (2), "banana" (3), "cherry" (1).
    private func shelf() throws -> Shelf {
        let stack = try ShelfModel.stack()
        let context = stack.context()
        var serial = 0
        for (group, count) in [("banana", 3), ("apple", 2), ("cherry", 1)] {
            for index in 0..<count {
                serial += 1
                context.item("\(group)-\(index)", group: group, rank: 10 - index, serial: serial)
            }
        }
        try context.save()
        return Shelf(stack: stack, context: context)
    }

    /// A stack (whose directory lives as long as the value) and a context on it.
    struct Shelf {
        let stack: GraphStack
        let context: NSManagedObjectContext
    }

    @Test("performFetch groups the results into sections by the section key path, in sort order")
    func sections() throws {
        let shelf = try shelf()
        let context = shelf.context
        let controller = NSFetchedResultsController(
            fetchRequest: ShelfModel.request(sectioned: true),
            managedObjectContext: context, sectionNameKeyPath: "group", cacheName: nil)
        #expect(controller.sections == nil)
        #expect(controller.fetchedObjects == nil)
        try controller.performFetch()
        let sections = try #require(controller.sections)
        #expect(sections.map(\.name) == ["apple", "banana", "cherry"])
        #expect(sections.map(\.numberOfObjects) == [2, 3, 1])
        #expect(sections.map(\.indexTitle) == ["A", "B", "C"])
        let names = sections.map { ($0.objects ?? []).compactMap { ($0 as? NSManagedObject)?.value(forKey: "name") as? String } }
        #expect(names == [["apple-1", "apple-0"], ["banana-2", "banana-1", "banana-0"], ["cherry-0"]])
        let flat = try #require(controller.fetchedObjects).compactMap { $0.value(forKey: "name") as? String }
        #expect(flat == names.flatMap { $0 })
        #expect(controller.sectionNameKeyPath == "group")
        #expect(controller.managedObjectContext === context)
        #expect(controller.fetchRequest.entityName == "Item")
    }

    @Test("object(at:) and indexPath(forObject:) map index paths and objects both ways")
    func indexPaths() throws {
        let shelf = try shelf()
        let context = shelf.context
        let controller = NSFetchedResultsController(
            fetchRequest: ShelfModel.request(sectioned: true),
            managedObjectContext: context, sectionNameKeyPath: "group", cacheName: nil)
        try controller.performFetch()
        for (sectionIndex, section) in (controller.sections ?? []).enumerated() {
            for row in 0..<section.numberOfObjects {
                let path = IndexPath(row: row, section: sectionIndex)
                let object = controller.object(at: path)
                #expect(controller.indexPath(forObject: object) == path)
                #expect(object === (section.objects?[row] as? NSManagedObject))
            }
        }
        let banana = controller.object(at: IndexPath(item: 0, section: 1))
        #expect(banana.value(forKey: "name") as? String == "banana-2")
        let outsider = context.item("outsider", group: "zzz", rank: 0, serial: 99)
        #expect(controller.indexPath(forObject: outsider) == nil)
        let path = IndexPath(item: 4, section: 2)
        #expect(path.section == 2 && path.item == 4 && path.row == 4)
    }

    @Test("without a section key path there is exactly one unnamed section, even with no results")
    func singleSection() throws {
        let stack = try ShelfModel.stack()
        let context = stack.context()
        let controller = NSFetchedResultsController(
            fetchRequest: ShelfModel.request(sectioned: false),
            managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
        try controller.performFetch()
        #expect(controller.sections?.count == 1)
        #expect(controller.sections?.first?.numberOfObjects == 0)
        #expect(controller.sections?.first?.name == "")
        #expect(controller.sections?.first?.indexTitle == nil)
        #expect(controller.fetchedObjects?.isEmpty == true)
        #expect(controller.sectionIndexTitles.isEmpty)

        let sectioned = NSFetchedResultsController(
            fetchRequest: ShelfModel.request(sectioned: true),
            managedObjectContext: context, sectionNameKeyPath: "group", cacheName: nil)
        try sectioned.performFetch()
        #expect(sectioned.sections?.isEmpty == true)
    }

    @Test("objects with no value for the section key path go to the unnamed section")
    func unnamedSection() throws {
        let stack = try ShelfModel.stack()
        let context = stack.context()
        context.item("loose", group: nil, rank: 1, serial: 1)
        context.item("kept", group: "box", rank: 1, serial: 2)
        try context.save()
        let controller = NSFetchedResultsController(
            fetchRequest: ShelfModel.request(sectioned: true),
            managedObjectContext: context, sectionNameKeyPath: "group", cacheName: nil)
        try controller.performFetch()
        #expect(controller.sections?.map(\.name) == ["", "box"])
        #expect(controller.sections?.map(\.indexTitle) == [nil, "B"])
        #expect(controller.sectionIndexTitles == ["B"])
    }

    @Test("performFetch sees the context's unsaved inserts, edits and deletes")
    func pendingChanges() throws {
        let shelf = try shelf()
        let context = shelf.context
        let request = ShelfModel.request(sectioned: true)
        let cherry = try context.fetch(request).first { $0.value(forKey: "group") as? String == "cherry" }
        context.delete(try #require(cherry))
        context.item("date-0", group: "date", rank: 1, serial: 50)
        let controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context,
            sectionNameKeyPath: "group", cacheName: nil)
        try controller.performFetch()
        #expect(controller.sections?.map(\.name) == ["apple", "banana", "date"])
    }

    @Test("a request without sort descriptors makes performFetch throw a Cocoa error naming the entity")
    func requiresSortDescriptors() throws {
        let shelf = try shelf()
        let context = shelf.context
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        let controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context,
            sectionNameKeyPath: nil, cacheName: nil)
        let error = try #require(throws: NSError.self) { try controller.performFetch() }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.localizedDescription.contains("sort descriptors"))
        #expect(error.localizedDescription.contains("Item"))
        #expect(controller.sections == nil)
    }

    @Test("section index titles are the sections' capitalized first letters, each once, and lead back to the first such section")
    func sectionIndex() throws {
        let stack = try ShelfModel.stack()
        let context = stack.context()
        for (serial, group) in ["apple", "avocado", "banana", "éclair"].enumerated() {
            context.item(group, group: group, rank: 1, serial: serial)
        }
        try context.save()
        let controller = NSFetchedResultsController(
            fetchRequest: ShelfModel.request(sectioned: true),
            managedObjectContext: context, sectionNameKeyPath: "group", cacheName: nil)
        try controller.performFetch()
        #expect(controller.sectionIndexTitles == ["A", "B", "É"])
        #expect(controller.sectionIndexTitle(forSectionName: "cherry") == "C")
        #expect(controller.sectionIndexTitle(forSectionName: "") == nil)
        #expect(controller.section(forSectionIndexTitle: "A", at: 0) == 0)
        #expect(controller.section(forSectionIndexTitle: "B", at: 1) == 2)
        #expect(controller.section(forSectionIndexTitle: "É", at: 2) == 3)
    }

    @Test("a delegate's sectionIndexTitleForSectionName and a subclass's sectionIndexTitle(forSectionName:) title the sections")
    func customIndexTitles() throws {
        let shelf = try shelf()
        let context = shelf.context
        let controller = NSFetchedResultsController(
            fetchRequest: ShelfModel.request(sectioned: true),
            managedObjectContext: context, sectionNameKeyPath: "group", cacheName: nil)
        let delegate = TitlingDelegate()
        controller.delegate = delegate
        try controller.performFetch()
        #expect(controller.sections?.map(\.indexTitle) == ["sectionName apple", "sectionName banana", "sectionName cherry"])

        let subclassed = ReversedTitles(
            fetchRequest: ShelfModel.request(sectioned: true), managedObjectContext: context,
            sectionNameKeyPath: "group", cacheName: nil)
        try subclassed.performFetch()
        #expect(subclassed.sectionIndexTitles == ["e", "a", "y"])
        // A delegate that does not title sections leaves the subclass's titles in place.
        let plain = TableMirror()
        subclassed.delegate = plain
        try subclassed.performFetch()
        #expect(subclassed.sections?.map(\.indexTitle) == ["e", "a", "y"])
    }

    @Test("the seed's book list: a controller with a cache name feeds rows and cells")
    func seedBookList() throws {
        FetchedResultsTestCaches.use()
        let stack = try GraphStack()
        let context = stack.context()
        for title in ["Swift", "Core Data", "Algorithms"] { context.make("Book", ["title": title]) }
        try context.save()

        let list = BookListViewController(context: context)
        list.viewDidLoad()
        #expect(list.numberOfRows(inSection: 0) == 3)
        #expect(list.title(at: IndexPath(row: 0, section: 0)) == "Algorithms")
        #expect(list.title(at: IndexPath(row: 2, section: 0)) == "Swift")
    }

    @Test("dictionary results are fetched and sectioned, without change tracking")
    func dictionaryResults() throws {
        let shelf = try shelf()
        let context = shelf.context
        let request = NSFetchRequest<NSDictionary>(entityName: "Item")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = ["name", "group"]
        request.sortDescriptors = [NSSortDescriptor(key: "group", ascending: true), NSSortDescriptor(key: "name", ascending: true)]
        let controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context,
            sectionNameKeyPath: "group", cacheName: nil)
        try controller.performFetch()
        #expect(controller.sections?.map(\.name) == ["apple", "banana", "cherry"])
        let first = controller.object(at: IndexPath(item: 0, section: 0))
        #expect(first["name"] as? String == "apple-0")
        #expect(controller.indexPath(forObject: first) == IndexPath(item: 0, section: 0))
    }

    @Test("change types keep Apple's raw values")
    func changeTypes() {
        #expect(NSFetchedResultsChangeType.insert.rawValue == 1)
        #expect(NSFetchedResultsChangeType.delete.rawValue == 2)
        #expect(NSFetchedResultsChangeType.move.rawValue == 3)
        #expect(NSFetchedResultsChangeType.update.rawValue == 4)
    }
}

/// A delegate that titles sections, as the seed's `sectionIndexTitleForSectionName:` does.
private final class TitlingDelegate: NSObject, NSFetchedResultsControllerDelegate {
    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>,
        sectionIndexTitleForSectionName sectionName: String
    ) -> String? {
        "sectionName \(sectionName)"
    }
}

/// A controller subclass whose index titles are the last letters of the section names.
private final class ReversedTitles: NSFetchedResultsController<NSManagedObject> {
    override func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        sectionName.last.map(String.init)
    }
}

/// The seed's `BookListViewController`, without UIKit: the table view's data source methods as functions.
private final class BookListViewController: NSObject, NSFetchedResultsControllerDelegate {
    let context: NSManagedObjectContext
    var fetchedResultsController: NSFetchedResultsController<NSManagedObject>!
    var updates = 0

    init(context: NSManagedObjectContext) {
        self.context = context
    }

    func viewDidLoad() {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        fetchedResultsController = NSFetchedResultsController(
            fetchRequest: request,
            managedObjectContext: context,
            sectionNameKeyPath: nil,
            cacheName: "BookCache"
        )
        fetchedResultsController.delegate = self
        try? fetchedResultsController.performFetch()
    }

    func numberOfRows(inSection section: Int) -> Int {
        fetchedResultsController.sections?[section].numberOfObjects ?? 0
    }

    func title(at indexPath: IndexPath) -> String? {
        let book = fetchedResultsController.object(at: indexPath)
        return book.value(forKey: "title") as? String
    }

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {}

    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
        at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        updates += 1
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {}
}
