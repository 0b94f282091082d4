import OpenCoreData
import Testing

/// The first seed's heavyweight-migration policy, as written there: prices rise by 10 %.
class BookToBookV2MigrationPolicy: NSEntityMigrationPolicy {
    override func createDestinationInstances(
        forSource sInstance: NSManagedObject,
        in mapping: NSEntityMapping,
        manager: NSMigrationManager
    ) throws {
        let sourceBook = sInstance
        let destinationBook = NSEntityDescription.insertNewObject(
            forEntityName: "Book",
            into: manager.destinationContext
        )

        destinationBook.setValue(sourceBook.value(forKey: "title"), forKey: "title")
        let price = sourceBook.value(forKey: "price") as? Double ?? 0.0
        destinationBook.setValue(price * 1.1, forKey: "price")

        manager.associate(sourceInstance: sInstance, withDestinationInstance: destinationBook, for: mapping)
    }
}

/// Writes the name of each step it is called for into the manager's userInfo.
final class RecordingPolicy: NSEntityMigrationPolicy {
    private func record(_ step: String, _ manager: NSMigrationManager) {
        var info = manager.userInfo ?? [:]
        info["steps"] = ((info["steps"] as? [String]) ?? []) + [step]
        manager.userInfo = info
    }
    override func begin(_ mapping: NSEntityMapping, with manager: NSMigrationManager) throws {
        record("begin", manager)
        try super.begin(mapping, with: manager)
    }
    override func createDestinationInstances(
        forSource sInstance: NSManagedObject, in mapping: NSEntityMapping,
        manager: NSMigrationManager
    ) throws {
        record("create", manager)
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
    }
    override func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        record("endInstanceCreation", manager)
    }
    override func createRelationships(
        forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping,
        manager: NSMigrationManager
    ) throws {
        record("relate", manager)
        try super.createRelationships(forDestination: dInstance, in: mapping, manager: manager)
    }
    override func endRelationshipCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        record("endRelationshipCreation", manager)
    }
    override func performCustomValidation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        record("validate", manager)
    }
    override func end(_ mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        record("end", manager)
    }
}

/// Provides the functions that `FUNCTION($entityPolicy, …)` value expressions call.
final class TaxPolicy: NSEntityMigrationPolicy {
    override func performFunction(_ selector: String, with arguments: [Any?]) throws -> Any? {
        switch selector {
        case "priceWithTax:":
            return ((arguments.first as? NSNumber)?.doubleValue ?? 0) * 1.1
        case "shout:":
            return (arguments.first as? String)?.uppercased()
        default:
            return try super.performFunction(selector, with: arguments)
        }
    }
}

enum PolicyKit {
    /// Book(title, price), the same in both versions but for a new `summary` attribute in V2.
    static func books(_ version: Int) -> NSManagedObjectModel {
        var properties = [ModelKit.attribute("title", .stringAttributeType), ModelKit.attribute("price", .doubleAttributeType)]
        if version == 2 { properties.append(ModelKit.attribute("summary", .stringAttributeType)) }
        return MigrationKit.model([ModelKit.entity("Book", properties)])
    }

    static func bookStore(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("Books.sqlite")
        try MigrationKit.makeStore(books(1), at: url) { context in
            for (title, price) in [("Swift", 10.0), ("Core Data", 20.0), ("SQLite", 30.0)] {
                let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
                book.setValue(title, forKey: "title")
                book.setValue(price, forKey: "price")
            }
        }
        return url
    }

    static func bookMapping(policy: String?, attributes: [NSPropertyMapping]? = nil) -> NSMappingModel {
        let mapping = NSEntityMapping()
        mapping.name = "BookToBook"
        mapping.mappingType = .customEntityMappingType
        mapping.sourceEntityName = "Book"
        mapping.destinationEntityName = "Book"
        mapping.entityMigrationPolicyClassName = policy
        mapping.attributeMappings = attributes ?? [ManagerKit.attribute("title", "$source.title"), ManagerKit.attribute("price", "$source.price")]
        let model = NSMappingModel()
        model.entityMappings = [mapping]
        return model
    }

    /// The books of a V2 store, by title, as dictionaries (the context that read them is gone).
    static func fetchBooks(_ url: URL) throws -> [NSDictionary] {
        let context = try ManagerKit.open(url, books(2))
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        return try context.fetch(request).map { book in
            let values = NSMutableDictionary()
            for key in ["title", "price", "summary"] { values[key] = book.value(forKey: key) }
            return values
        }
    }

    static func strings(_ books: [NSDictionary], _ key: String) -> [String] {
        books.map { ($0[key] as? String) ?? "nil" }.sorted()
    }
}

@Suite("NSEntityMigrationPolicy: custom policies, value expressions and filter predicates")
struct EntityMigrationPolicyTests {
    @Test("the seed's BookToBookV2MigrationPolicy, found by its module-qualified name, raises prices by 10 %")
    func seedPolicy() throws {
        let directory = try ManagerKit.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try PolicyKit.bookStore(in: directory)
        let destination = directory.appendingPathComponent("Books2.sqlite")
        let manager = NSMigrationManager(sourceModel: PolicyKit.books(1), destinationModel: PolicyKit.books(2))
        try manager.migrateStore(
            from: source, type: .sqlite,
            mapping: PolicyKit.bookMapping(policy: "OpenCoreDataTests.BookToBookV2MigrationPolicy"),
            to: destination, type: .sqlite)
        let books = try PolicyKit.fetchBooks(destination)
        #expect(PolicyKit.strings(books, "title") == ["Core Data", "SQLite", "Swift"])
        let prices = books.compactMap { ($0["price"] as? NSNumber)?.doubleValue }
        #expect(prices.count == 3)
        for (price, expected) in zip(prices, [22.0, 33.0, 11.0]) { #expect(abs(price - expected) < 1e-9) }
    }

    @Test("the overridden steps are called in Apple's order: begin, create…, end creation, relate…, end relating, validate, end")
    func stepOrder() throws {
        let directory = try ManagerKit.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try PolicyKit.bookStore(in: directory)
        NSEntityMigrationPolicy.register(RecordingPolicy.self, forClassName: "$(PRODUCT_MODULE_NAME).RecordingPolicy")
        let manager = NSMigrationManager(sourceModel: PolicyKit.books(1), destinationModel: PolicyKit.books(2))
        try manager.migrateStore(
            from: source, type: .sqlite, mapping: PolicyKit.bookMapping(policy: "$(PRODUCT_MODULE_NAME).RecordingPolicy"),
            to: directory.appendingPathComponent("Out.sqlite"), type: .sqlite)
        let steps = try #require(manager.userInfo?["steps"] as? [String])
        #expect(
            steps == [
                "begin", "create", "create", "create", "endInstanceCreation",
                "relate", "relate", "relate", "endRelationshipCreation", "validate", "end",
            ])
        #expect(try PolicyKit.fetchBooks(directory.appendingPathComponent("Out.sqlite")).count == 3)
    }

    @Test("a filter predicate $source.height < 100 in the source expression migrates only the matching instances")
    func filterPredicate() throws {
        let directory = try ManagerKit.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let v1 = MigrationKit.model([
            ModelKit.entity(
                "Employee",
                [
                    ModelKit.attribute("name", .stringAttributeType), ModelKit.attribute("height", .doubleAttributeType),
                ])
        ])
        let v2 = MigrationKit.model([
            ModelKit.entity(
                "Employee2",
                [
                    ModelKit.attribute("name", .stringAttributeType), ModelKit.attribute("height", .doubleAttributeType),
                ])
        ])
        let source = directory.appendingPathComponent("Staff.sqlite")
        try MigrationKit.makeStore(v1, at: source) { context in
            for (name, height) in [("ann", 95.0), ("bob", 180.0), ("cy", 99.9), ("di", 100.0)] {
                let employee = NSEntityDescription.insertNewObject(forEntityName: "Employee", into: context)
                employee.setValue(name, forKey: "name")
                employee.setValue(height, forKey: "height")
            }
        }
        let mapping = NSEntityMapping()
        mapping.name = "EmployeeToEmployee2"
        mapping.mappingType = .transformEntityMappingType
        mapping.sourceEntityName = "Employee"
        mapping.destinationEntityName = "Employee2"
        mapping.sourceExpression = NSExpression(
            format:
                "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\" , \"Employee\", \"$source.height < 100\"), $manager.sourceContext, NO)"
        )
        mapping.attributeMappings = [ManagerKit.attribute("name", "$source.name"), ManagerKit.attribute("height", "$source.height")]
        let model = NSMappingModel()
        model.entityMappings = [mapping]
        let destination = directory.appendingPathComponent("Staff2.sqlite")
        try NSMigrationManager(sourceModel: v1, destinationModel: v2)
            .migrateStore(from: source, type: .sqlite, mapping: model, to: destination, type: .sqlite)
        let context = try ManagerKit.open(destination, v2)
        let migrated = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Employee2"))
        #expect(MigrationKit.strings(migrated, "name") == ["ann", "cy"])
    }

    @Test("FUNCTION($entityPolicy, …) value expressions call the policy's functions")
    func policyFunctions() throws {
        let directory = try ManagerKit.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try PolicyKit.bookStore(in: directory)
        NSEntityMigrationPolicy.register(TaxPolicy.self)
        let attributes = [
            ManagerKit.attribute("title", "$source.title"),
            ManagerKit.attribute("price", "FUNCTION($entityPolicy, \"priceWithTax:\" , $source.price)"),
            ManagerKit.attribute("summary", "FUNCTION($entityPolicy, \"shout:\" , $source.title)"),
        ]
        let destination = directory.appendingPathComponent("Out.sqlite")
        try NSMigrationManager(sourceModel: PolicyKit.books(1), destinationModel: PolicyKit.books(2))
            .migrateStore(
                from: source, type: .sqlite, mapping: PolicyKit.bookMapping(policy: "TaxPolicy", attributes: attributes),
                to: destination, type: .sqlite)
        let books = try PolicyKit.fetchBooks(destination)
        #expect(PolicyKit.strings(books, "summary") == ["CORE DATA", "SQLITE", "SWIFT"])
        let swift = try #require(books.first { $0["title"] as? String == "Swift" })
        #expect(abs(((swift["price"] as? NSNumber)?.doubleValue ?? 0) - 11.0) < 1e-9)
    }

    @Test("a function the policy does not implement fails the migration with 134170 naming it")
    func unknownFunction() throws {
        let directory = try ManagerKit.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try PolicyKit.bookStore(in: directory)
        let attributes = [ManagerKit.attribute("summary", "FUNCTION($entityPolicy, \"summarize:\" , $source.title)")]
        let destination = directory.appendingPathComponent("Out.sqlite")
        let error = #expect(throws: NSError.self) {
            try NSMigrationManager(sourceModel: PolicyKit.books(1), destinationModel: PolicyKit.books(2))
                .migrateStore(
                    from: source, type: .sqlite, mapping: PolicyKit.bookMapping(policy: nil, attributes: attributes),
                    to: destination, type: .sqlite)
        }
        #expect(error?.code == NSEntityMigrationPolicyError)
        #expect(error?.localizedDescription.contains("summarize:") == true)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test("the variables a value expression sees are Apple's: $manager, $source, $entityMapping, $propertyMapping, $entityPolicy")
    func variables() throws {
        #expect(NSMigrationManagerKey == "manager")
        #expect(NSMigrationSourceObjectKey == "source")
        #expect(NSMigrationDestinationObjectKey == "destination")
        #expect(NSMigrationEntityMappingKey == "entityMapping")
        #expect(NSMigrationPropertyMappingKey == "propertyMapping")
        #expect(NSMigrationEntityPolicyKey == "entityPolicy")
        let directory = try ManagerKit.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try PolicyKit.bookStore(in: directory)
        let attributes = [
            ManagerKit.attribute("title", "$source.title"),
            ManagerKit.attribute("summary", "FUNCTION($entityMapping.name, \"stringByAppendingString:\" , $propertyMapping.name)"),
        ]
        let destination = directory.appendingPathComponent("Out.sqlite")
        try NSMigrationManager(sourceModel: PolicyKit.books(1), destinationModel: PolicyKit.books(2))
            .migrateStore(
                from: source, type: .sqlite, mapping: PolicyKit.bookMapping(policy: nil, attributes: attributes),
                to: destination, type: .sqlite)
        #expect(
            PolicyKit.strings(try PolicyKit.fetchBooks(destination), "summary") == ["BookToBooksummary", "BookToBooksummary", "BookToBooksummary"])
    }
}
