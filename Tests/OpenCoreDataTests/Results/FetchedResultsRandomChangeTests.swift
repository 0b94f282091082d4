import OpenCoreData
import Testing

@Suite("NSFetchedResultsController: a mirror driven by the callbacks equals a fresh fetch after every random change", .tags(.fuzz))
struct FetchedResultsRandomChangeTests {
    struct Configuration: Sendable, CustomStringConvertible {
        let sectioned: Bool
        let predicate: String?
        let seed: UInt64
        var description: String { "\(sectioned ? "sections" : "no sections")\(predicate.map { ", \($0)" } ?? "")" }
    }

    static let configurations = [
        Configuration(sectioned: false, predicate: nil, seed: 1),
        Configuration(sectioned: true, predicate: nil, seed: 2),
        Configuration(sectioned: true, predicate: "rank < 20", seed: 3),
    ]

    @Test("1,000 random inserts, deletes, edits within and across sections, and saves", arguments: configurations)
    func randomChanges(_ configuration: Configuration) throws {
        var random = SeededGenerator(seed: configuration.seed)
        let stack = try ShelfModel.stack()
        let context = stack.context()
        let groups = ["a", "b", "c", "d", "e", "f"]
        var serial = 0
        var live: [NSManagedObject] = []
        func insert() {
            serial += 1
            live.append(
                context.item(
                    "n\(serial)", group: groups.randomElement(using: &random),
                    rank: Int.random(in: 0..<30, using: &random), serial: serial))
        }
        for _ in 0..<40 { insert() }
        try context.save()

        let predicate = configuration.predicate.map { NSPredicate(format: $0) }
        let request = ShelfModel.request(sectioned: configuration.sectioned, predicate: predicate)
        let sectionKey = configuration.sectioned ? "group" : nil
        let controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context,
            sectionNameKeyPath: sectionKey, cacheName: nil)
        let mirror = TableMirror()
        controller.delegate = mirror
        try controller.performFetch()
        mirror.reload(from: controller)

        for step in 0..<1_000 {
            let operations = Int.random(in: 0..<10, using: &random) == 0 ? Int.random(in: 2...4, using: &random) : 1
            var described: [String] = []
            for _ in 0..<operations {
                let choice = Int.random(in: 0..<100, using: &random)
                guard !live.isEmpty, choice >= 15 else {
                    insert()
                    described.append("insert")
                    continue
                }
                let index = Int.random(in: 0..<live.count, using: &random)
                let target = live[index]
                switch choice {
                case 15..<30:
                    context.delete(target)
                    live.remove(at: index)
                    described.append("delete")
                case 30..<50:
                    target.setValue(Int64(Int.random(in: 0..<30, using: &random)), forKey: "rank")
                    described.append("rank")
                case 50..<65:
                    target.setValue(groups.randomElement(using: &random), forKey: "group")
                    described.append("group")
                case 65..<80:
                    target.setValue("r\(step)", forKey: "name")
                    described.append("rename")
                case 80..<88:
                    target.setValue("note \(step)", forKey: "note")
                    described.append("note")
                default:
                    try context.save()
                    described.append("save")
                }
            }
            context.processPendingChanges()
            let expected = try freshSections(request, in: context, sectionKey: sectionKey)
            if let mismatch = mirror.mismatch(with: expected) {
                Issue.record("step \(step) (\(described.joined(separator: ", "))): \(mismatch)")
                return
            }
            let sections = controller.sections ?? []
            let matches =
                sections.count == expected.count
                && zip(sections, expected).allSatisfy { section, wanted in
                    section.name == wanted.name && (section.objects ?? []).count == wanted.objects.count
                        && zip(section.objects ?? [], wanted.objects).allSatisfy { ($0 as AnyObject) === $1 }
                }
            if !matches {
                Issue.record("step \(step) (\(described.joined(separator: ", "))): the controller's sections differ from a fresh fetch")
                return
            }
        }
        #expect(mirror.batches > 500)
    }
}
