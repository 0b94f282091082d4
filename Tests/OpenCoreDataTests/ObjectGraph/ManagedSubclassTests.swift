import OpenCoreData
import Testing

/// A subclass written by hand exactly as the `@Managed` macro expands properties.
final class SampleRecord: NSManagedObject {
    var i16: Int16 {
        get { managedValue(forKey: "i16") }
        set { setManagedValue(newValue, forKey: "i16") }
    }
    var i32: Int32 {
        get { managedValue(forKey: "i32") }
        set { setManagedValue(newValue, forKey: "i32") }
    }
    var i64: Int64 {
        get { managedValue(forKey: "i64") }
        set { setManagedValue(newValue, forKey: "i64") }
    }
    var int: Int {
        get { managedValue(forKey: "i64") }
        set { setManagedValue(newValue, forKey: "i64") }
    }
    var double: Double {
        get { managedValue(forKey: "double") }
        set { setManagedValue(newValue, forKey: "double") }
    }
    var float: Float {
        get { managedValue(forKey: "float") }
        set { setManagedValue(newValue, forKey: "float") }
    }
    var flag: Bool {
        get { managedValue(forKey: "flag") }
        set { setManagedValue(newValue, forKey: "flag") }
    }
    var decimal: Decimal {
        get { managedValue(forKey: "decimal") }
        set { setManagedValue(newValue, forKey: "decimal") }
    }
    var date: Date {
        get { managedValue(forKey: "date") }
        set { setManagedValue(newValue, forKey: "date") }
    }
    var data: Data {
        get { managedValue(forKey: "data") }
        set { setManagedValue(newValue, forKey: "data") }
    }
    var string: String {
        get { managedValue(forKey: "string") }
        set { setManagedValue(newValue, forKey: "string") }
    }
    var uuid: UUID {
        get { managedValue(forKey: "uuid") }
        set { setManagedValue(newValue, forKey: "uuid") }
    }
    var url: URL {
        get { managedValue(forKey: "url") }
        set { setManagedValue(newValue, forKey: "url") }
    }

    var optI16: Int16? {
        get { managedValue(forKey: "i16") }
        set { setManagedValue(newValue, forKey: "i16") }
    }
    var optI32: Int32? {
        get { managedValue(forKey: "i32") }
        set { setManagedValue(newValue, forKey: "i32") }
    }
    var optInt: Int? {
        get { managedValue(forKey: "i64") }
        set { setManagedValue(newValue, forKey: "i64") }
    }
    var optDouble: Double? {
        get { managedValue(forKey: "double") }
        set { setManagedValue(newValue, forKey: "double") }
    }
    var optFloat: Float? {
        get { managedValue(forKey: "float") }
        set { setManagedValue(newValue, forKey: "float") }
    }
    var optFlag: Bool? {
        get { managedValue(forKey: "flag") }
        set { setManagedValue(newValue, forKey: "flag") }
    }
    var optDecimal: Decimal? {
        get { managedValue(forKey: "decimal") }
        set { setManagedValue(newValue, forKey: "decimal") }
    }
    var optDate: Date? {
        get { managedValue(forKey: "date") }
        set { setManagedValue(newValue, forKey: "date") }
    }
    var optData: Data? {
        get { managedValue(forKey: "data") }
        set { setManagedValue(newValue, forKey: "data") }
    }
    var optString: String? {
        get { managedValue(forKey: "string") }
        set { setManagedValue(newValue, forKey: "string") }
    }
    var optUUID: UUID? {
        get { managedValue(forKey: "uuid") }
        set { setManagedValue(newValue, forKey: "uuid") }
    }
    var optURL: URL? {
        get { managedValue(forKey: "url") }
        set { setManagedValue(newValue, forKey: "url") }
    }

    var owner: SampleOwner? {
        get { managedValue(forKey: "owner") }
        set { setManagedValue(newValue, forKey: "owner") }
    }
    var items: Set<SampleItem> {
        get { managedValue(forKey: "items") }
        set { setManagedValue(newValue, forKey: "items") }
    }
    var itemSet: NSSet {
        get { managedValue(forKey: "items") }
        set { setManagedValue(newValue, forKey: "items") }
    }
    var optItemSet: NSSet? {
        get { managedValue(forKey: "items") }
        set { setManagedValue(newValue, forKey: "items") }
    }
    var pages: NSOrderedSet {
        get { managedValue(forKey: "pages") }
        set { setManagedValue(newValue, forKey: "pages") }
    }
    var optPages: NSOrderedSet? {
        get { managedValue(forKey: "pages") }
        set { setManagedValue(newValue, forKey: "pages") }
    }
}

final class SampleOwner: NSManagedObject {
    var name: String? {
        get { managedValue(forKey: "name") }
        set { setManagedValue(newValue, forKey: "name") }
    }
    var records: Set<SampleRecord> {
        get { managedValue(forKey: "records") }
        set { setManagedValue(newValue, forKey: "records") }
    }
}

final class SampleItem: NSManagedObject {
    var name: String? {
        get { managedValue(forKey: "name") }
        set { setManagedValue(newValue, forKey: "name") }
    }
}

final class SamplePage: NSManagedObject {
    var number: Int {
        get { managedValue(forKey: "number") }
        set { setManagedValue(newValue, forKey: "number") }
    }
}

extension SampleRecord {
    /// The fetch request Xcode's code generation writes for a subclass.
    @nonobjc public class func fetchRequest() -> NSFetchRequest<SampleRecord> {
        NSFetchRequest<SampleRecord>(entityName: "SampleRecord")
    }
}

enum SampleModel {
    static func make() -> NSManagedObjectModel {
        let record = ModelKit.entity("SampleRecord")
        let owner = ModelKit.entity("SampleOwner")
        let item = ModelKit.entity("SampleItem")
        let page = ModelKit.entity("SamplePage")
        record.managedObjectClassName = NSStringFromClass(SampleRecord.self)
        owner.managedObjectClassName = "SampleOwner"
        item.managedObjectClassName = String(reflecting: SampleItem.self)
        page.managedObjectClassName = NSStringFromClass(SamplePage.self)
        let recordOwner = ModelKit.relationship("owner", to: owner)
        let ownerRecords = ModelKit.relationship("records", to: record, toMany: true)
        ModelKit.pair(recordOwner, ownerRecords)
        let items = ModelKit.relationship("items", to: item, toMany: true)
        let itemRecord = ModelKit.relationship("record", to: record)
        ModelKit.pair(items, itemRecord)
        let pages = ModelKit.relationship("pages", to: page, toMany: true)
        pages.isOrdered = true
        let pageRecord = ModelKit.relationship("record", to: record)
        ModelKit.pair(pages, pageRecord)
        record.properties = [
            ModelKit.attribute("i16", .integer16AttributeType), ModelKit.attribute("i32", .integer32AttributeType),
            ModelKit.attribute("i64", .integer64AttributeType), ModelKit.attribute("double", .doubleAttributeType),
            ModelKit.attribute("float", .floatAttributeType), ModelKit.attribute("flag", .booleanAttributeType),
            ModelKit.attribute("decimal", .decimalAttributeType), ModelKit.attribute("date", .dateAttributeType),
            ModelKit.attribute("data", .binaryDataAttributeType), ModelKit.attribute("string", .stringAttributeType),
            ModelKit.attribute("uuid", .UUIDAttributeType), ModelKit.attribute("url", .URIAttributeType),
            recordOwner, items, pages,
        ]
        owner.properties = [ModelKit.attribute("name", .stringAttributeType), ownerRecords]
        item.properties = [ModelKit.attribute("name", .stringAttributeType), itemRecord]
        page.properties = [ModelKit.attribute("number", .integer64AttributeType), pageRecord]
        let model = NSManagedObjectModel()
        model.entities = [record, owner, item, page]
        return model
    }
}

/// Subclasses nested in another type, as apps that group their model classes declare them.
enum SampleShelving {
    final class Shelf: NSManagedObject {
        var label: String? {
            get { managedValue(forKey: "label") }
            set { setManagedValue(newValue, forKey: "label") }
        }
    }
}

/// A generic subclass: its name carries its arguments (`SampleBox<Swift.Int>`).
final class SampleBox<Content>: NSManagedObject {
    var label: String? {
        get { managedValue(forKey: "label") }
        set { setManagedValue(newValue, forKey: "label") }
    }
}

/// A model of one entity with one string attribute, `label`, whose objects are of the class `className`.
private func labelModel(_ entityName: String, className: String) -> NSManagedObjectModel {
    let entity = ModelKit.entity(entityName, [ModelKit.attribute("label", .stringAttributeType)])
    entity.managedObjectClassName = className
    let model = NSManagedObjectModel()
    model.entities = [entity]
    return model
}

@Suite("NSManagedObject subclasses")
struct ManagedSubclassTests {
    @Test("every scalar type round-trips through a SQLite store", arguments: TestStoreKind.allCases)
    func scalars(kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: SampleModel.make())
        let context = stack.context()
        let record = SampleRecord(context: context)
        #expect(record.i16 == 0 && record.optI16 == nil)
        #expect(record.flag == false && record.optFlag == nil)
        #expect(record.decimal == 0 && record.optString == nil && record.optDate == nil)
        let date = Date(timeIntervalSinceReferenceDate: 12345.5)
        let uuid = UUID()
        record.i16 = -12
        record.i32 = 123_456
        record.int = 9_000_000_000
        record.double = 2.5
        record.float = 1.25
        record.flag = true
        record.decimal = Decimal(string: "12.34") ?? 0
        record.date = date
        record.data = Data([1, 2, 3])
        record.string = "héllo"
        record.uuid = uuid
        record.url = URL(string: "https://example.com/a?b=c") ?? URL(fileURLWithPath: "/")
        try context.save()

        let reader = stack.context()
        let request: NSFetchRequest<SampleRecord> = SampleRecord.fetchRequest()
        let fetched = try #require(try reader.fetch(request).first)
        #expect(fetched !== record)
        #expect(fetched.i16 == -12 && fetched.optI16 == -12)
        #expect(fetched.i32 == 123_456 && fetched.optI32 == 123_456)
        #expect(fetched.i64 == 9_000_000_000 && fetched.optInt == 9_000_000_000)
        #expect(fetched.double == 2.5 && fetched.optDouble == 2.5)
        #expect(fetched.float == 1.25 && fetched.optFloat == 1.25)
        #expect(fetched.flag && fetched.optFlag == true)
        #expect(fetched.decimal == Decimal(string: "12.34") && fetched.optDecimal == Decimal(string: "12.34"))
        #expect(fetched.date == date && fetched.optDate == date)
        #expect(fetched.data == Data([1, 2, 3]) && fetched.optData == Data([1, 2, 3]))
        #expect(fetched.string == "héllo" && fetched.optString == "héllo")
        #expect(fetched.uuid == uuid && fetched.optUUID == uuid)
        #expect(fetched.url.absoluteString == "https://example.com/a?b=c" && fetched.optURL == fetched.url)

        fetched.optString = nil
        fetched.optI16 = nil
        try reader.save()
        let third = stack.context()
        let again = try #require(try third.fetch(request).first)
        #expect(again.optString == nil && again.string == "")
        #expect(again.optI16 == nil && again.i16 == 0)
    }

    @Test("relationships as Author?, Set<Book>, NSSet, NSSet?, NSOrderedSet, NSOrderedSet?", arguments: TestStoreKind.allCases)
    func relationships(kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: SampleModel.make())
        let context = stack.context()
        let record = SampleRecord(context: context)
        let owner = SampleOwner(context: context)
        owner.name = "Ann"
        record.owner = owner
        let a = SampleItem(context: context)
        a.name = "a"
        let b = SampleItem(context: context)
        b.name = "b"
        record.items = [a, b]
        let pages = (1...3).map { number -> SamplePage in
            let page = SamplePage(context: context)
            page.number = number
            return page
        }
        record.pages = NSOrderedSet(array: [pages[2], pages[0], pages[1]])
        #expect(record.itemSet.count == 2)
        #expect(record.optItemSet?.count == 2)
        #expect(record.optPages?.count == 3)
        try context.save()

        let reader = stack.context()
        let request: NSFetchRequest<SampleRecord> = SampleRecord.fetchRequest()
        let fetched = try #require(try reader.fetch(request).first)
        #expect(fetched.owner?.name == "Ann")
        #expect(Set(fetched.items.compactMap(\.name)) == ["a", "b"])
        #expect(fetched.itemSet.count == 2)
        #expect(fetched.pages.array.compactMap { ($0 as? SamplePage)?.number } == [3, 1, 2])

        fetched.owner = nil
        fetched.items = Set(fetched.items.filter { $0.name == "a" })
        fetched.pages = NSOrderedSet(array: fetched.pages.array.reversed())
        try reader.save()
        let third = stack.context()
        let again = try #require(try third.fetch(request).first)
        #expect(again.owner == nil)
        #expect(again.items.map(\.name) == ["a"])
        #expect(again.pages.array.compactMap { ($0 as? SamplePage)?.number } == [2, 1, 3])
    }

    @Test("entity(), fetchRequest() and the class chosen for fetched objects")
    func classLookup() throws {
        let stack = try GraphStack(model: SampleModel.make())
        let context = stack.context()
        #expect(SampleRecord.entity().name == "SampleRecord")
        #expect(SampleOwner.entity().name == "SampleOwner")
        let generic = SampleItem.fetchRequest()
        #expect(generic.entityName == "SampleItem")
        _ = SampleOwner(context: context)
        _ = NSEntityDescription.insertNewObject(forEntityName: "SampleItem", into: context)
        try context.save()
        let reader = stack.context()
        #expect(try reader.fetch(generic).first is SampleItem)
        #expect(try reader.fetch(NSFetchRequest<SampleOwner>(entityName: "SampleOwner")).count == 1)
    }

    @Test(
        "a subclass nested in another type is found by its qualified, bare and nested names",
        arguments: [String(reflecting: SampleShelving.Shelf.self), "Shelf", "SampleShelving.Shelf"])
    func nestedClass(className: String) throws {
        let stack = try GraphStack(model: labelModel("Shelf", className: className))
        let context = stack.context()
        let shelf = SampleShelving.Shelf(context: context)
        #expect(shelf.entity.name == "Shelf")
        shelf.label = "oak"
        try context.save()
        let reader = stack.context()
        let fetched = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Shelf"))
        let only = try #require(fetched.first as? SampleShelving.Shelf)
        #expect(fetched.count == 1)
        #expect(only.label == "oak")
    }

    @Test("a subclass declared in a function creates, saves and fetches its objects")
    func localClass() throws {
        final class Crate: NSManagedObject {
            var label: String? {
                get { managedValue(forKey: "label") }
                set { setManagedValue(newValue, forKey: "label") }
            }
        }
        let stack = try GraphStack(model: labelModel("Crate", className: String(reflecting: Crate.self)))
        let context = stack.context()
        Crate(context: context).label = "pine"
        try context.save()
        let reader = stack.context()
        let fetched = try reader.fetch(NSFetchRequest<Crate>(entityName: "Crate"))
        #expect(fetched.map(\.label) == ["pine"])
    }

    @Test("a generic subclass is found by its name with its arguments")
    func genericClass() throws {
        let stack = try GraphStack(model: labelModel("Box", className: "SampleBox<Swift.Int>"))
        let context = stack.context()
        let box = SampleBox<Int>(context: context)
        #expect(box.entity.name == "Box")
        box.label = "ash"
        try context.save()
        let reader = stack.context()
        let fetched = try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Box"))
        #expect((fetched.first as? SampleBox<Int>)?.label == "ash")
    }
}
