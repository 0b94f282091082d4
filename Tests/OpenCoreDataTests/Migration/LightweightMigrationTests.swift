import Testing

@testable import OpenCoreDataCore

/// Lightweight migration when a store is opened with a newer model and the options ask for automatic
/// migration with an inferred mapping: rows survive, values move with renames, and the file ends up
/// structurally equal to a store freshly created with the new model.
@Suite("Lightweight migration")
struct LightweightMigrationTests {
    /// A V1 store with two people, three books and two tags.
    func libraryStore(_ directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("Library.sqlite")
        try MigrationKit.makeStore(MigrationKit.libraryV1(), at: url) { context in
            let ada = context.make("Person", ["name": "Ada", "nickname": "ada", "age": Int16(36)])
            let bob = context.make("Person", ["name": "Bob", "age": Int16(40)])
            let swift = context.make("Tag", ["label": "swift"])
            let data = context.make("Tag", ["label": "data"])
            let b1 = context.make("Book", ["title": "Core Data", "price": 10.0, "owner": ada])
            let b2 = context.make("Book", ["title": "SQLite", "price": 20.0, "owner": ada])
            let b3 = context.make("Book", ["title": "Swift", "price": 30.0, "owner": bob])
            b1.setValue(Set([swift, data]), forKey: "tags")
            b2.setValue(Set([data]), forKey: "tags")
            b3.setValue(Set([swift]), forKey: "tags")
        }
        return url
    }

    @Test("attributes added, removed and renamed; optional to required with a default; a new entity")
    func attributeChanges() throws {
        let directory = TemporaryDirectory()
        let url = try libraryStore(directory)
        let v2 = MigrationKit.libraryV1()
        let person = try #require(v2.entitiesByName["Person"])
        let alias = ModelKit.attribute("alias", .stringAttributeType, optional: false)
        alias.renamingIdentifier = "nickname"
        alias.defaultValue = "none"
        let level = ModelKit.attribute("level", .integer64AttributeType, optional: false)
        level.defaultValue = 1
        person.properties =
            person.properties.filter { !["nickname", "age"].contains($0.name) }
            + [alias, level, ModelKit.attribute("email", .stringAttributeType)]
        let publisher = ModelKit.entity("Publisher", [ModelKit.attribute("name", .stringAttributeType)])
        publisher.managedObjectClassName = "NSManagedObject"
        v2.entities += [publisher]

        let context = try MigrationKit.open(v2, at: url, sources: [MigrationKit.libraryV1()])
        #expect(try MigrationKit.differences(url, v2) == [])
        let people = try context.all("Person", sortedBy: "name")
        #expect(people.map { $0.value(forKey: "name") as? String } == ["Ada", "Bob"])
        #expect(people.map { $0.value(forKey: "alias") as? String } == ["ada", "none"])
        #expect(people.map { ($0.value(forKey: "level") as? NSNumber)?.intValue } == [1, 1])
        #expect(people.allSatisfy { $0.value(forKey: "email") == nil })
        let ada = try #require(people.first)
        let books = try #require(ada.value(forKey: "books") as? Set<NSManagedObject>)
        #expect(MigrationKit.strings(Array(books), "title") == ["Core Data", "SQLite"])
        let coreData = try #require(try context.all("Book", sortedBy: "title").first)
        let tags = try #require(coreData.value(forKey: "tags") as? Set<NSManagedObject>)
        #expect(MigrationKit.strings(Array(tags), "label") == ["data", "swift"])
        #expect(try context.all("Publisher").isEmpty)
        // The migrated store takes new objects with fresh keys and reopens without migrating.
        context.make("Person", ["name": "Cy", "alias": "c", "level": Int64(2)])
        context.make("Publisher", ["name": "O'Reilly"])
        try context.save()
        let reopened = try MigrationKit.open(v2, at: url, sources: [], options: nil)
        #expect(try reopened.all("Person").count == 3)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(v2.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(metadata[NSStoreModelVersionChecksumKey] as? String == v2.versionChecksum)
    }

    @Test("the second seed's Employee → Employee2 entity rename keeps every row")
    func entityRename() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Company.sqlite")
        let v1 = MigrationKit.model([
            ModelKit.entity(
                "Employee",
                [
                    ModelKit.attribute("name", .stringAttributeType), ModelKit.attribute("brithday", .dateAttributeType),
                    ModelKit.attribute("height", .doubleAttributeType),
                ])
        ])
        let born = Date(timeIntervalSinceReferenceDate: 1_000)
        try MigrationKit.makeStore(v1, at: url) { context in
            for index in 0..<5 { context.make("Employee", ["name": "e\(index)", "brithday": born, "height": 1.5 + Double(index) / 10]) }
        }
        let employee2 = ModelKit.entity(
            "Employee2",
            [
                ModelKit.attribute("name", .stringAttributeType), ModelKit.attribute("brithday", .dateAttributeType),
                ModelKit.attribute("height", .doubleAttributeType),
            ])
        employee2.renamingIdentifier = "Employee"
        let v2 = MigrationKit.model([employee2])
        let context = try MigrationKit.open(v2, at: url, sources: [v1])
        let employees = try context.all("Employee2", sortedBy: "name")
        #expect(employees.count == 5)
        #expect(employees.first?.value(forKey: "brithday") as? Date == born)
        #expect(try MigrationKit.differences(url, v2) == [])
        let emp = context.make("Employee2", ["name": "lxz", "brithday": Date(), "height": 1.9])
        try context.save()
        #expect(emp.objectID.isTemporaryID == false)
        #expect(try context.all("Employee2").count == 6)
    }

    @Test("to-one becomes to-many (many-to-many) and back; ordered and unordered swap")
    func relationshipShapes() throws {
        let directory = TemporaryDirectory()
        let url = try libraryStore(directory)
        // V2: Book.owner to-one → Book.owners to-many (renamed), Person.books becomes ordered.
        let v2 = MigrationKit.libraryV1()
        let book = try #require(v2.entitiesByName["Book"])
        let owner = try #require(book.relationshipsByName["owner"])
        owner.name = "owners"
        owner.renamingIdentifier = "owner"
        owner.maxCount = 0
        let books = try #require(v2.entitiesByName["Person"]?.relationshipsByName["books"])
        books.isOrdered = true
        let context = try MigrationKit.open(v2, at: url, sources: [MigrationKit.libraryV1()])
        #expect(try MigrationKit.differences(url, v2) == [])
        let titles = try context.all("Book", sortedBy: "title")
        let owners = titles.map { (($0.value(forKey: "owners") as? Set<NSManagedObject>) ?? []).map { $0.value(forKey: "name") as? String } }
        #expect(owners == [["Ada"], ["Ada"], ["Bob"]])
        let ada = try #require(try context.all("Person", sortedBy: "name").first)
        let ordered = try #require(ada.value(forKey: "books") as? NSOrderedSet)
        #expect(ordered.count == 2)

        // V3: back to V1's shape from V2.
        let v3 = MigrationKit.libraryV1()
        let back = try #require(v3.entitiesByName["Book"]?.relationshipsByName["owner"])
        back.renamingIdentifier = "owners"
        let again = try MigrationKit.open(v3, at: url, sources: [v2])
        #expect(try MigrationKit.differences(url, v3) == [])
        let result = try again.all("Book", sortedBy: "title").map {
            ($0.value(forKey: "owner") as? NSManagedObject)?.value(forKey: "name") as? String
        }
        #expect(result == ["Ada", "Ada", "Bob"])
    }

    @Test("two root entities moved under a new abstract parent keep their rows and relationships")
    func hierarchyChange() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Garage.sqlite")
        func v1() -> NSManagedObjectModel {
            let car = ModelKit.entity("Car", [ModelKit.attribute("name", .stringAttributeType)])
            let bike = ModelKit.entity("Bike", [ModelKit.attribute("name", .stringAttributeType)])
            let owner = ModelKit.entity("Owner", [ModelKit.attribute("name", .stringAttributeType)])
            MigrationKit.relate(owner, "cars", toMany: true, car, "owner", toMany: false)
            return MigrationKit.model([car, bike, owner])
        }
        try MigrationKit.makeStore(v1(), at: url) { context in
            let owner = context.make("Owner", ["name": "Olga"])
            for index in 0..<3 { context.make("Car", ["name": "car\(index)", "owner": owner]) }
            for index in 0..<4 { context.make("Bike", ["name": "bike\(index)"]) }
        }
        let vehicle = ModelKit.entity("Vehicle", [ModelKit.attribute("name", .stringAttributeType)])
        vehicle.isAbstract = true
        let car = ModelKit.entity("Car")
        let bike = ModelKit.entity("Bike")
        vehicle.subentities = [car, bike]
        let owner = ModelKit.entity("Owner", [ModelKit.attribute("name", .stringAttributeType)])
        MigrationKit.relate(owner, "cars", toMany: true, car, "owner", toMany: false)
        let v2 = MigrationKit.model([vehicle, car, bike, owner])
        let context = try MigrationKit.open(v2, at: url, sources: [v1()])
        #expect(try MigrationKit.differences(url, v2) == [])
        #expect(MigrationKit.strings(try context.all("Vehicle"), "name") == ["bike0", "bike1", "bike2", "bike3", "car0", "car1", "car2"])
        let olga = try #require(try context.all("Owner").first)
        let cars = try #require(olga.value(forKey: "cars") as? Set<NSManagedObject>)
        #expect(MigrationKit.strings(Array(cars), "name") == ["car0", "car1", "car2"])
        context.make("Bike", ["name": "bike4"])
        try context.save()
        #expect(try context.all("Vehicle").count == 8)
    }

    @Test("a new index and a new uniqueness constraint are built; duplicates refuse the migration and leave the file as it was")
    func indexesAndConstraints() throws {
        let directory = TemporaryDirectory()
        let url = try libraryStore(directory)
        let indexed = MigrationKit.libraryV1()
        let book = try #require(indexed.entitiesByName["Book"])
        let title = try #require(book.attributesByName["title"])
        book.indexes = [NSFetchIndexDescription(name: "byTitle", elements: [NSFetchIndexElementDescription(property: title, collationType: .binary)])]
        // An index alone leaves the version hashes as they were (no migration, as on Apple platforms);
        // a new attribute forces the migration that builds it.
        book.properties += [ModelKit.attribute("subtitle", .stringAttributeType)]
        _ = try MigrationKit.open(indexed, at: url, sources: [MigrationKit.libraryV1()])
        let indexDifferences = try MigrationKit.differences(url, indexed)
        #expect(indexDifferences == [], "\(indexDifferences)")

        let unique = MigrationKit.libraryV1()
        unique.entitiesByName["Book"]?.uniquenessConstraints = [["title"]]
        #expect(unique.versionChecksum != MigrationKit.libraryV1().versionChecksum)
        _ = try MigrationKit.open(unique, at: url, sources: [indexed])
        #expect(try MigrationKit.differences(url, unique) == [])

        let directory2 = TemporaryDirectory()
        let duplicated = directory2.file("Dup.sqlite")
        try MigrationKit.makeStore(MigrationKit.libraryV1(), at: duplicated) { context in
            context.make("Book", ["title": "same"])
            context.make("Book", ["title": "same"])
        }
        let before = StoreKit.files(duplicated)
        let error = try #require(throws: NSError.self) {
            _ = try MigrationKit.open(unique, at: duplicated, sources: [MigrationKit.libraryV1()])
        }
        #expect(error.code == NSMigrationConstraintViolationError)
        #expect(StoreKit.files(duplicated) == before)
    }

    @Test("a new required attribute without a default fails with 134110 naming it; the file is untouched")
    func requiredWithoutDefault() throws {
        let directory = TemporaryDirectory()
        let url = try libraryStore(directory)
        let v2 = MigrationKit.libraryV1()
        v2.entitiesByName["Book"]?.properties += [ModelKit.attribute("isbn", .stringAttributeType, optional: false)]
        let before = StoreKit.files(url)
        let error = try #require(throws: NSError.self) {
            _ = try MigrationKit.open(v2, at: url, sources: [MigrationKit.libraryV1()])
        }
        #expect(error.code == NSMigrationError)
        #expect(error.localizedDescription.contains("isbn"))
        #expect(error.localizedDescription.contains("Book"))
        #expect(StoreKit.files(url) == before)
        _ = try MigrationKit.open(MigrationKit.libraryV1(), at: url, sources: [], options: nil)
    }

    @Test("Apple's errors: no migration asked 134100, no source model 134130, inference off 134140, type change 134190")
    func errors() throws {
        let directory = TemporaryDirectory()
        let url = try libraryStore(directory)
        let v2 = MigrationKit.libraryV1()
        v2.entitiesByName["Tag"]?.properties += [ModelKit.attribute("color", .stringAttributeType)]
        let before = StoreKit.files(url)
        func code(_ sources: [NSManagedObjectModel], _ options: [AnyHashable: Any]?, _ model: NSManagedObjectModel? = nil) -> Int? {
            do {
                _ = try MigrationKit.open(model ?? v2, at: url, sources: sources, options: options)
                return nil
            } catch {
                return (error as NSError).code
            }
        }
        #expect(code([MigrationKit.libraryV1()], nil) == NSPersistentStoreIncompatibleVersionHashError)
        #expect(code([], MigrationKit.lightweight) == NSMigrationMissingSourceModelError)
        #expect(code([MigrationKit.libraryV1()], [NSMigratePersistentStoresAutomaticallyOption: true]) == NSMigrationMissingMappingModelError)
        let retyped = MigrationKit.libraryV1()
        retyped.entitiesByName["Book"]?.attributesByName["title"]?.attributeType = .integer64AttributeType
        #expect(code([MigrationKit.libraryV1()], MigrationKit.lightweight, retyped) == NSInferredMappingModelError)
        #expect(StoreKit.files(url) == before)
    }

    @Test("the description's defaults migrate: shouldMigrateStoreAutomatically and shouldInferMappingModelAutomatically are on")
    func descriptionDefaults() throws {
        let directory = TemporaryDirectory()
        let url = try libraryStore(directory)
        let description = NSPersistentStoreDescription(url: url)
        #expect(description.shouldMigrateStoreAutomatically)
        #expect(description.shouldInferMappingModelAutomatically)
        let v2 = MigrationKit.libraryV1()
        v2.entitiesByName["Tag"]?.properties += [ModelKit.attribute("color", .stringAttributeType)]
        let container = NSPersistentContainer(name: "Library", managedObjectModel: v2)
        container.persistentStoreCoordinator.migrationSourceModels = [MigrationKit.libraryV1()]
        container.persistentStoreDescriptions = [description]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        #expect(failure == nil)
        #expect(try MigrationKit.differences(url, v2) == [])
    }
}
