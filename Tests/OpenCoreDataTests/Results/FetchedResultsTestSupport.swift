import OpenCoreData
import Testing

/// A model for fetched results controller tests: Item(name, group, rank, serial, note).
enum ShelfModel {
    static func make() -> NSManagedObjectModel {
        let item = ModelKit.entity("Item")
        item.managedObjectClassName = "NSManagedObject"
        item.properties = [
            ModelKit.attribute("name", .stringAttributeType),
            ModelKit.attribute("group", .stringAttributeType),
            ModelKit.attribute("rank", .integer64AttributeType),
            ModelKit.attribute("serial", .integer64AttributeType),
            ModelKit.attribute("note", .stringAttributeType),
        ]
        let model = NSManagedObjectModel()
        model.entities = [item]
        return model
    }

    /// A stack on an SQLite store in a temporary directory.
    static func stack(_ kind: TestStoreKind = .sqlite) throws -> GraphStack {
        try GraphStack(kind, model: make(), fileName: "Shelf.sqlite")
    }

    /// A request for items sorted by group, rank and serial (sections by group), or by rank and serial.
    static func request(sectioned: Bool, predicate: NSPredicate? = nil) -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
        request.predicate = predicate
        var sorts = [NSSortDescriptor(key: "rank", ascending: true), NSSortDescriptor(key: "serial", ascending: true)]
        if sectioned { sorts.insert(NSSortDescriptor(key: "group", ascending: true), at: 0) }
        request.sortDescriptors = sorts
        return request
    }
}

extension NSManagedObjectContext {
    /// Inserts an item.
    @discardableResult
    func item(_ name: String, group: String?, rank: Int, serial: Int) -> NSManagedObject {
        make("Item", ["name": name, "group": group, "rank": Int64(rank), "serial": Int64(serial)])
    }
}

/// The directory the tests' fetched results caches go to (one per test process).
enum FetchedResultsTestCaches {
    static let directory: URL = {
        let url = TestScratch.root.appendingPathComponent("frc-cache-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Points the controllers' caches at the test directory.
    static func use() {
        NSFetchedResultsController<NSFetchRequestResult>.cacheDirectory = directory
    }
}

/// A table view's model driven by a fetched results controller's delegate callbacks: sections of rows
/// (each row an object and the name shown for it), updated as a table view applies batch updates.
final class TableMirror: NSObject, NSFetchedResultsControllerDelegate {
    struct Row {
        let object: NSManagedObject
        var shown: String?
    }

    private(set) var sectionNames: [String] = []
    private(set) var rows: [[Row]] = []
    private(set) var batches = 0
    /// Every callback received, for tests that check the exact calls.
    private(set) var log: [String] = []
    /// Problems a table view would raise an exception for.
    private(set) var problems: [String] = []

    private var inBatch = false
    private var sectionDeletes: [Int] = []
    private var sectionInserts: [(Int, String)] = []
    private var rowDeletes: [(IndexPath, NSManagedObject)] = []
    private var rowInserts: [(IndexPath, NSManagedObject)] = []
    private var reloads: [(IndexPath, NSManagedObject)] = []

    /// Loads the controller's current results, as `reloadData()` does.
    func reload<T>(from controller: NSFetchedResultsController<T>) {
        let sections = controller.sections ?? []
        sectionNames = sections.map(\.name)
        rows = sections.map { section in
            (section.objects ?? []).compactMap { $0 as? NSManagedObject }.map { Row(object: $0, shown: Self.shown($0)) }
        }
    }

    static func shown(_ object: NSManagedObject) -> String? {
        object.value(forKey: "name") as? String
    }

    func controllerWillChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        if inBatch { problems.append("willChangeContent inside a batch") }
        inBatch = true
        log.append("will")
    }

    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange sectionInfo: NSFetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: NSFetchedResultsChangeType
    ) {
        if !inBatch { problems.append("section change outside a batch") }
        log.append("section \(type) \(sectionIndex) \(sectionInfo.name)")
        switch type {
        case .delete: sectionDeletes.append(sectionIndex)
        case .insert: sectionInserts.append((sectionIndex, sectionInfo.name))
        default: problems.append("section change of type \(type)")
        }
    }

    func controller(
        _ controller: NSFetchedResultsController<NSFetchRequestResult>, didChange anObject: Any,
        at indexPath: IndexPath?, for type: NSFetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        if !inBatch { problems.append("object change outside a batch") }
        guard let object = anObject as? NSManagedObject else {
            problems.append("changed object is \(Swift.type(of: anObject))")
            return
        }
        log.append("object \(type) \(indexPath.map { "\($0)" } ?? "-") \(newIndexPath.map { "\($0)" } ?? "-")")
        switch type {
        case .insert:
            guard let newIndexPath, indexPath == nil else { return problems.append("insert without new index path") }
            rowInserts.append((newIndexPath, object))
        case .delete:
            guard let indexPath, newIndexPath == nil else { return problems.append("delete without index path") }
            rowDeletes.append((indexPath, object))
        case .move:
            guard let indexPath, let newIndexPath else { return problems.append("move without both index paths") }
            rowDeletes.append((indexPath, object))
            rowInserts.append((newIndexPath, object))
        case .update:
            guard let indexPath else { return problems.append("update without index path") }
            reloads.append((indexPath, object))
        }
    }

    func controllerDidChangeContent(_ controller: NSFetchedResultsController<NSFetchRequestResult>) {
        if !inBatch { problems.append("didChangeContent without willChangeContent") }
        log.append("did")
        apply()
        inBatch = false
        batches += 1
    }

    /// Applies the batch as a table view does: reloads and deletions at old index paths, sections
    /// deleted then inserted, then insertions at new index paths in ascending order.
    private func apply() {
        defer {
            sectionDeletes = []
            sectionInserts = []
            rowDeletes = []
            rowInserts = []
            reloads = []
        }
        var reloaded: [NSManagedObject] = []
        for (path, object) in reloads {
            guard rows.indices.contains(path.section), rows[path.section].indices.contains(path.row),
                rows[path.section][path.row].object === object
            else {
                return problems.append("reload at \(path) does not name the object shown there")
            }
            reloaded.append(object)
        }
        let deletePaths = rowDeletes.map(\.0)
        if Set(deletePaths).count != deletePaths.count { return problems.append("a row is deleted twice") }
        for (path, object) in rowDeletes.sorted(by: { $0.0 > $1.0 }) {
            guard rows.indices.contains(path.section), rows[path.section].indices.contains(path.row),
                rows[path.section][path.row].object === object
            else {
                return problems.append("delete at \(path) does not name the object shown there")
            }
            rows[path.section].remove(at: path.row)
        }
        if Set(sectionDeletes).count != sectionDeletes.count { return problems.append("a section is deleted twice") }
        for index in sectionDeletes.sorted(by: >) {
            guard rows.indices.contains(index) else { return problems.append("deleted section \(index) does not exist") }
            if !rows[index].isEmpty { problems.append("deleted section \(index) still had rows not reported deleted") }
            rows.remove(at: index)
            sectionNames.remove(at: index)
        }
        for (index, name) in sectionInserts.sorted(by: { $0.0 < $1.0 }) {
            guard index <= rows.count else { return problems.append("inserted section \(index) is beyond the end") }
            rows.insert([], at: index)
            sectionNames.insert(name, at: index)
        }
        let insertPaths = rowInserts.map(\.0)
        if Set(insertPaths).count != insertPaths.count { return problems.append("a row is inserted twice") }
        for (path, object) in rowInserts.sorted(by: { $0.0 < $1.0 }) {
            guard rows.indices.contains(path.section), path.row <= rows[path.section].count else {
                return problems.append("insert at \(path) is beyond the end")
            }
            rows[path.section].insert(Row(object: object, shown: Self.shown(object)), at: path.row)
        }
        for object in reloaded {
            for section in rows.indices {
                for row in rows[section].indices where rows[section][row].object === object {
                    rows[section][row].shown = Self.shown(object)
                }
            }
        }
    }

    /// The difference between the mirror and the expected sections, or `nil` when they agree.
    func mismatch(with expected: [(name: String, objects: [NSManagedObject])]) -> String? {
        if let problem = problems.first { return problem }
        let names = expected.map(\.name)
        if names != sectionNames { return "section names \(sectionNames), expected \(names)" }
        for (index, section) in expected.enumerated() {
            let mirrored = rows[index]
            if mirrored.count != section.objects.count {
                return "section \(index) (\(section.name)) has \(mirrored.count) rows, expected \(section.objects.count)"
            }
            for (row, object) in section.objects.enumerated() {
                if mirrored[row].object !== object { return "row \(row) of section \(index) shows another object" }
                if mirrored[row].shown != Self.shown(object) {
                    return
                        "row \(row) of section \(index) shows \(mirrored[row].shown ?? "nil"), expected \(Self.shown(object) ?? "nil") (missing update)"
                }
            }
        }
        return nil
    }
}

/// The results a fresh fetch gives, grouped into sections by the key path (one unnamed section without).
func freshSections(
    _ request: NSFetchRequest<NSManagedObject>, in context: NSManagedObjectContext,
    sectionKey: String?
) throws -> [(name: String, objects: [NSManagedObject])] {
    let objects = try context.fetch(request)
    guard let sectionKey else { return [("", objects)] }
    var sections: [(name: String, objects: [NSManagedObject])] = []
    for object in objects {
        let name = object.value(forKey: sectionKey) as? String ?? ""
        if sections.last?.name == name {
            sections[sections.count - 1].objects.append(object)
        } else {
            sections.append((name, [object]))
        }
    }
    return sections
}

/// A small deterministic random number generator (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
