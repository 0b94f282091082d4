import OpenCoreData
import Testing

/// Ordered to-many relationships keep their order in the store, as in Apple's Core Data.
@Suite("Ordered relationship order")
struct OrderedRelationshipOrderTests {
    /// List(name) items ->> Entry ordered ⟷ Entry(title) lists ->> List ordered (an ordered many-to-many).
    static func model() -> NSManagedObjectModel {
        let list = ModelKit.entity("List", [ModelKit.attribute("name", .stringAttributeType)])
        let entry = ModelKit.entity("Entry", [ModelKit.attribute("title", .stringAttributeType)])
        list.managedObjectClassName = "NSManagedObject"
        entry.managedObjectClassName = "NSManagedObject"
        let items = ModelKit.relationship("items", to: entry, toMany: true)
        items.isOrdered = true
        let lists = ModelKit.relationship("lists", to: list, toMany: true)
        lists.isOrdered = true
        ModelKit.pair(items, lists)
        list.properties += [items]
        entry.properties += [lists]
        let model = NSManagedObjectModel()
        model.entities = [list, entry]
        return model
    }

    @Test("mutableOrderedSetValue(forKey:) appends and inserts at an index; the order persists", arguments: TestStoreKind.allCases)
    func appendAndInsert(kind: TestStoreKind) throws {
        let stack = try GraphStack(kind)
        let context = stack.context()
        let book = context.make("Book", ["title": "b"])
        let chapters = book.mutableOrderedSetValue(forKey: "chapters")
        let one = context.make("Chapter", ["title": "one"])
        let three = context.make("Chapter", ["title": "three"])
        chapters.add(one)
        chapters.add(three)
        chapters.insert(context.make("Chapter", ["title": "two"]), at: 1)
        chapters.insert(context.make("Chapter", ["title": "zero"]), at: 0)
        try context.save()
        let reader = stack.context()
        let fetched = try #require(try reader.all("Book").first)
        #expect(fetched.related("chapters").map { $0.value(forKey: "title") as? String } == ["zero", "one", "two", "three"])
        #expect(three.value(forKey: "book") as? NSManagedObject === book)
    }

    @Test("an ordered many-to-many reads back in the order it was saved, on both sides")
    func manyToMany() throws {
        let stack = try GraphStack(.sqlite, model: Self.model())
        let context = stack.context()
        let first = context.make("List", ["name": "first"])
        let second = context.make("List", ["name": "second"])
        let entries = ["c", "a", "d", "b"].map { context.make("Entry", ["title": $0]) }
        first.mutableOrderedSetValue(forKey: "items").addObjects(from: entries)
        second.mutableOrderedSetValue(forKey: "items").addObjects(from: entries.reversed())
        try context.save()
        let reader = stack.context()
        let lists = try reader.all("List", sortedBy: "name")
        #expect(lists.map { $0.related("items").map { $0.value(forKey: "title") as? String } } == [["c", "a", "d", "b"], ["b", "d", "a", "c"]])
        let entry = try #require(try reader.all("Entry", predicate: NSPredicate(format: "title == 'a'")).first)
        #expect(entry.related("lists").map { $0.value(forKey: "name") as? String } == ["first", "second"])
    }
}
