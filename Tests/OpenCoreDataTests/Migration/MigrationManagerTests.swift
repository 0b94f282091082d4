import OpenCoreData
import Testing

/// Library V1 (Person ->> Book <<->> Tag) migrated by hand to V2 (Writer ->> Book; tags dropped).
enum ManagerKit {
    static func libraryV2() -> NSManagedObjectModel {
        let writer = ModelKit.entity(
            "Writer",
            [
                ModelKit.attribute("fullName", .stringAttributeType, optional: false),
                ModelKit.attribute("age", .integer32AttributeType),
            ])
        let book = ModelKit.entity(
            "Book",
            [
                ModelKit.attribute("title", .stringAttributeType),
                ModelKit.attribute("price", .doubleAttributeType),
            ])
        MigrationKit.relate(writer, "books", toMany: true, book, "writer", toMany: false)
        return MigrationKit.model([writer, book])
    }

    static func attribute(_ name: String, _ expression: String) -> NSPropertyMapping {
        let mapping = NSPropertyMapping()
        mapping.name = name
        mapping.valueExpression = NSExpression(format: expression)
        return mapping
    }

    /// PersonToWriter, BookToBook, RemoveTag.
    static func mapping(personPolicy: String? = nil, bookPolicy: String? = nil) -> NSMappingModel {
        let people = NSEntityMapping()
        people.name = "PersonToWriter"
        people.mappingType = .customEntityMappingType
        people.sourceEntityName = "Person"
        people.destinationEntityName = "Writer"
        people.entityMigrationPolicyClassName = personPolicy
        people.attributeMappings = [attribute("fullName", "$source.name"), attribute("age", "$source.age")]
        people.relationshipMappings = [
            attribute("books", "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\" , \"BookToBook\", $source.books)")
        ]
        let books = NSEntityMapping()
        books.name = "BookToBook"
        books.mappingType = .transformEntityMappingType
        books.sourceEntityName = "Book"
        books.destinationEntityName = "Book"
        books.entityMigrationPolicyClassName = bookPolicy
        books.attributeMappings = [attribute("title", "$source.title"), attribute("price", "$source.price")]
        books.relationshipMappings = [
            attribute(
                "writer", "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\" , \"PersonToWriter\", $source.owner)")
        ]
        let tags = NSEntityMapping()
        tags.name = "RemoveTag"
        tags.mappingType = .removeEntityMappingType
        tags.sourceEntityName = "Tag"
        let model = NSMappingModel()
        model.entityMappings = [people, books, tags]
        return model
    }

    /// A V1 store with 3 people, 2 books each, and a tag on every book.
    static func makeSource(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("Library.sqlite")
        try MigrationKit.makeStore(MigrationKit.libraryV1(), at: url) { context in
            let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
            tag.setValue("classic", forKey: "label")
            for index in 1...3 {
                let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
                person.setValue("Person \(index)", forKey: "name")
                person.setValue(20 + index, forKey: "age")
                for volume in 1...2 {
                    let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: context)
                    book.setValue("Book \(index).\(volume)", forKey: "title")
                    book.setValue(Double(index * 10 + volume), forKey: "price")
                    book.setValue(person, forKey: "owner")
                    book.setValue(NSSet(object: tag), forKey: "tags")
                }
            }
        }
        return url
    }

    static func open(_ url: URL, _ model: NSManagedObjectModel) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    static func temporaryDirectory() throws -> URL {
        try TestScratch.directory("manager")
    }

    static func code(of error: any Error) -> Int { (error as NSError).code }
}

/// Records what the manager answers while it runs, into `manager.userInfo`.
final class AssociationProbePolicy: NSEntityMigrationPolicy {
    override func endInstanceCreation(forMapping mapping: NSEntityMapping, manager: NSMigrationManager) throws {
        let all = manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: nil)
        let sources = manager.sourceInstances(forEntityMappingName: mapping.name, destinationInstances: nil)
        let first = try #require(sources.first)
        let mine = manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [first])
        let back = manager.sourceInstances(forEntityMappingName: mapping.name, destinationInstances: mine)
        var info = manager.userInfo ?? [:]
        info["destinations"] = all.count
        info["sources"] = sources.count
        info["sameName"] = (mine.first?.value(forKey: "fullName") as? String) == (first.value(forKey: "name") as? String)
        info["roundTrip"] = back.first === first
        info["current"] = manager.currentEntityMapping.name
        info["inDestination"] = all.allSatisfy { $0.managedObjectContext === manager.destinationContext }
        info["inSource"] = sources.allSatisfy { $0.managedObjectContext === manager.sourceContext }
        manager.userInfo = info
    }
}

/// Cancels the migration at the second source instance.
final class CancellingPolicy: NSEntityMigrationPolicy {
    var seen = 0
    override func createDestinationInstances(
        forSource sInstance: NSManagedObject, in mapping: NSEntityMapping,
        manager: NSMigrationManager
    ) throws {
        seen += 1
        if seen == 2 { manager.cancelMigrationWithError(NSError(domain: "MigrationTests", code: 42)) }
        try super.createDestinationInstances(forSource: sInstance, in: mapping, manager: manager)
    }
}

/// Fails while relationships are created.
final class FailingPolicy: NSEntityMigrationPolicy {
    override func createRelationships(
        forDestination dInstance: NSManagedObject, in mapping: NSEntityMapping,
        manager: NSMigrationManager
    ) throws {
        throw NSError(domain: "MigrationTests", code: 7, userInfo: [NSLocalizedDescriptionKey: "no relationships today"])
    }
}

@Suite("NSMigrationManager: three passes from a source store to a new destination store")
struct MigrationManagerTests {
    @Test("every instance and relationship reaches the destination store; the source file is untouched")
    func migratesEverything() throws {
        let directory = try ManagerKit.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try ManagerKit.makeSource(in: directory)
        let before = try Data(contentsOf: source)
        let destination = directory.appendingPathComponent("Library2.sqlite")
        let manager = NSMigrationManager(sourceModel: MigrationKit.libraryV1(), destinationModel: ManagerKit.libraryV2())
        try manager.migrateStore(from: source, type: .sqlite, mapping: ManagerKit.mapping(), to: destination, type: .sqlite)
        #expect(try Data(contentsOf: source) == before)

        let context = try ManagerKit.open(destination, ManagerKit.libraryV2())
        let writers = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Writer"))
        #expect(MigrationKit.strings(writers, "fullName") == ["Person 1", "Person 2", "Person 3"])
        #expect(writers.allSatisfy { ($0.value(forKey: "books") as? NSSet)?.count == 2 })
        #expect(Set(writers.compactMap { ($0.value(forKey: "age") as? NSNumber)?.intValue }) == [21, 22, 23])
        let books = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book"))
        #expect(books.count == 6)
        for book in books {
            let title = try #require(book.value(forKey: "title") as? String)
            let writer = try #require(book.value(forKey: "writer") as? NSManagedObject)
            let index = title.dropFirst("Book ".count).prefix(1)
            #expect(writer.value(forKey: "fullName") as? String == "Person \(index)")
        }
        let sourceContext = try ManagerKit.open(source, MigrationKit.libraryV1())
        #expect(try sourceContext.count(for: NSFetchRequest<NSManagedObject>(entityName: "Tag")) == 1)
    }

    @Test("associate, destinationInstances and sourceInstances answer during the migration")
    func associations() throws {
        let directory = try ManagerKit.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try ManagerKit.makeSource(in: directory)
        NSEntityMigrationPolicy.register(AssociationProbePolicy.self, forClassName: "AssociationProbe")
        let manager = NSMigrationManager(sourceModel: MigrationKit.libraryV1(), destinationModel: ManagerKit.libraryV2())
        try manager.migrateStore(
            from: source, type: .sqlite, mapping: ManagerKit.mapping(personPolicy: "AssociationProbe"),
            to: directory.appendingPathComponent("Out.sqlite"), type: .sqlite)
        let info = try #require(manager.userInfo)
        #expect(info["destinations"] as? Int == 3)
        #expect(info["sources"] as? Int == 3)
        #expect(info["sameName"] as? Bool == true)
        #expect(info["roundTrip"] as? Bool == true)
        #expect(info["current"] as? String == "PersonToWriter")
        #expect(info["inDestination"] as? Bool == true)
        #expect(info["inSource"] as? Bool == true)
        #expect(manager.destinationInstances(forEntityMappingName: "BookToBook", sourceInstances: nil).count == 6)
    }

    @Test("migrationProgress is 1 when no migration is taking place; during one it starts at 0 and rises to 1, and the handler sees every change")
    func progress() throws {
        let directory = try ManagerKit.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try ManagerKit.makeSource(in: directory)
        let manager = NSMigrationManager(sourceModel: MigrationKit.libraryV1(), destinationModel: ManagerKit.libraryV2())
        #expect(manager.migrationProgress == 1)
        var seen: [Float] = []
        var readDuring: [Float] = []
        manager.migrationProgressHandler = { value in
            seen.append(value)
            readDuring.append(manager.migrationProgress)
        }
        try manager.migrateStore(
            from: source, type: .sqlite, mapping: ManagerKit.mapping(),
            to: directory.appendingPathComponent("Out.sqlite"), type: .sqlite)
        #expect(manager.migrationProgress == 1)
        #expect(seen.count >= 10)
        #expect(seen.first == 0)
        #expect(seen.last == 1)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 })
        #expect(readDuring == seen)
        manager.reset()
        #expect(manager.migrationProgress == 1)

        // A migration that fails part way is no longer taking place: the property reads 1 again, while
        // the handler's last report is the progress reached.
        seen = []
        manager.migrationProgressHandler = { value in
            seen.append(value)
            if value > 0.3 { manager.cancelMigrationWithError(NSError(domain: "ProgressTest", code: 1)) }
        }
        #expect(throws: NSError.self) {
            try manager.migrateStore(
                from: source, type: .sqlite, mapping: ManagerKit.mapping(),
                to: directory.appendingPathComponent("Cancelled.sqlite"), type: .sqlite)
        }
        #expect(seen.first == 0)
        #expect((seen.last ?? 1) < 1)
        #expect(manager.migrationProgress == 1)
    }

    @Test("cancelMigrationWithError fails the migration with that error and leaves no destination file")
    func cancel() throws {
        let directory = try ManagerKit.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try ManagerKit.makeSource(in: directory)
        NSEntityMigrationPolicy.register(CancellingPolicy.self)
        let destination = directory.appendingPathComponent("Out.sqlite")
        let manager = NSMigrationManager(sourceModel: MigrationKit.libraryV1(), destinationModel: ManagerKit.libraryV2())
        let error = #expect(throws: NSError.self) {
            try manager.migrateStore(
                from: source, type: .sqlite, mapping: ManagerKit.mapping(bookPolicy: "CancellingPolicy"),
                to: destination, type: .sqlite)
        }
        #expect(error?.domain == "MigrationTests")
        #expect(error?.code == 42)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test("the older migrateStore(from:sourceType:…) spelling migrates, and refuses a nil mapping with 134140")
    func olderSpelling() throws {
        let directory = try ManagerKit.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try ManagerKit.makeSource(in: directory)
        let destination = directory.appendingPathComponent("Out.sqlite")
        let manager = NSMigrationManager(sourceModel: MigrationKit.libraryV1(), destinationModel: ManagerKit.libraryV2())
        let missing = #expect(throws: NSError.self) {
            try manager.migrateStore(
                from: source, sourceType: NSSQLiteStoreType, options: nil, with: nil,
                toDestinationURL: destination, destinationType: NSSQLiteStoreType, destinationOptions: nil)
        }
        #expect(missing?.code == NSMigrationMissingMappingModelError)
        try manager.migrateStore(
            from: source, sourceType: NSSQLiteStoreType, options: nil, with: ManagerKit.mapping(),
            toDestinationURL: destination, destinationType: NSSQLiteStoreType, destinationOptions: nil)
        let context = try ManagerKit.open(destination, ManagerKit.libraryV2())
        #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Book")) == 6)
    }

    @Test("a missing source store or one of another model fails with 134150; an unwritable destination with 134160")
    func storeErrors() throws {
        let directory = try ManagerKit.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = NSMigrationManager(sourceModel: MigrationKit.libraryV1(), destinationModel: ManagerKit.libraryV2())
        let out = directory.appendingPathComponent("Out.sqlite")
        let missing = #expect(throws: NSError.self) {
            try manager.migrateStore(
                from: directory.appendingPathComponent("None.sqlite"), type: .sqlite,
                mapping: ManagerKit.mapping(), to: out, type: .sqlite)
        }
        #expect(missing?.code == NSMigrationManagerSourceStoreError)
        #expect(missing?.userInfo[NSUnderlyingErrorKey] != nil)

        let other = directory.appendingPathComponent("Other.sqlite")
        try MigrationKit.makeStore(ManagerKit.libraryV2(), at: other) { _ in }
        let wrongModel = #expect(throws: NSError.self) {
            try manager.migrateStore(from: other, type: .sqlite, mapping: ManagerKit.mapping(), to: out, type: .sqlite)
        }
        #expect(wrongModel?.code == NSMigrationManagerSourceStoreError)

        let source = try ManagerKit.makeSource(in: directory)
        let blocker = directory.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let unwritable = #expect(throws: NSError.self) {
            try manager.migrateStore(
                from: source, type: .sqlite, mapping: ManagerKit.mapping(),
                to: blocker.appendingPathComponent("Out.sqlite"), type: .sqlite)
        }
        #expect(unwritable?.code == NSMigrationManagerDestinationStoreError)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("a policy that throws fails with 134170 carrying its error; an unknown policy class with 134170")
    func policyErrors() throws {
        let directory = try ManagerKit.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try ManagerKit.makeSource(in: directory)
        NSEntityMigrationPolicy.register(FailingPolicy.self)
        let out = directory.appendingPathComponent("Out.sqlite")
        let manager = NSMigrationManager(sourceModel: MigrationKit.libraryV1(), destinationModel: ManagerKit.libraryV2())
        let failing = #expect(throws: NSError.self) {
            try manager.migrateStore(from: source, type: .sqlite, mapping: ManagerKit.mapping(bookPolicy: "FailingPolicy"), to: out, type: .sqlite)
        }
        #expect(failing?.code == NSEntityMigrationPolicyError)
        #expect((failing?.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == 7)
        #expect(failing?.localizedDescription.contains("BookToBook") == true)
        #expect(!FileManager.default.fileExists(atPath: out.path))

        let unknown = #expect(throws: NSError.self) {
            try manager.migrateStore(
                from: source, type: .sqlite, mapping: ManagerKit.mapping(bookPolicy: "MyApp.NoSuchPolicy"), to: out, type: .sqlite)
        }
        #expect(unknown?.code == NSEntityMigrationPolicyError)
        #expect(unknown?.localizedDescription.contains("MyApp.NoSuchPolicy") == true)

        // Names the runtime's type lookup would read memory for (a mapping file holds any text).
        for name in ["$", "$0"] {
            let unsafe = #expect(throws: NSError.self) {
                try manager.migrateStore(from: source, type: .sqlite, mapping: ManagerKit.mapping(bookPolicy: name), to: out, type: .sqlite)
            }
            #expect(unsafe?.code == NSEntityMigrationPolicyError)
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("a value that does not fit its attribute, or a mapping naming an unknown entity, fails with 134110")
    func mappingErrors() throws {
        let directory = try ManagerKit.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try ManagerKit.makeSource(in: directory)
        let out = directory.appendingPathComponent("Out.sqlite")
        let manager = NSMigrationManager(sourceModel: MigrationKit.libraryV1(), destinationModel: ManagerKit.libraryV2())
        let badValue = ManagerKit.mapping()
        badValue.entityMappingsByName["BookToBook"]?.attributeMappings = [ManagerKit.attribute("price", "$source.title")]
        let wrongType = #expect(throws: NSError.self) {
            try manager.migrateStore(from: source, type: .sqlite, mapping: badValue, to: out, type: .sqlite)
        }
        #expect(wrongType?.code == NSMigrationError)
        #expect(wrongType?.localizedDescription.contains("price") == true)

        let unknownEntity = ManagerKit.mapping()
        unknownEntity.entityMappingsByName["BookToBook"]?.destinationEntityName = "Volume"
        let unknown = #expect(throws: NSError.self) {
            try manager.migrateStore(from: source, type: .sqlite, mapping: unknownEntity, to: out, type: .sqlite)
        }
        #expect(unknown?.code == NSMigrationError)
        #expect(unknown?.localizedDescription.contains("Volume") == true)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("an inferred mapping model (copy, transform, add, remove) migrates through the manager with its relationships")
    func inferredMapping() throws {
        let directory = try ManagerKit.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = try ManagerKit.makeSource(in: directory)
        let person = ModelKit.entity(
            "Person",
            [
                ModelKit.attribute("name", .stringAttributeType, optional: false),
                ModelKit.attribute("nickname", .stringAttributeType),
                ModelKit.attribute("age", .integer16AttributeType),
                ModelKit.attribute("email", .stringAttributeType),
            ])
        let book = ModelKit.entity(
            "Book",
            [
                ModelKit.attribute("title", .stringAttributeType),
                ModelKit.attribute("price", .doubleAttributeType),
            ])
        let shelf = ModelKit.entity("Shelf", [ModelKit.attribute("label", .stringAttributeType)])
        MigrationKit.relate(person, "books", toMany: true, book, "owner", toMany: false)
        let v2 = MigrationKit.model([person, book, shelf])
        let v1 = MigrationKit.libraryV1()
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: v1, destinationModel: v2)
        let destination = directory.appendingPathComponent("Inferred.sqlite")
        try NSMigrationManager(sourceModel: v1, destinationModel: v2)
            .migrateStore(from: source, type: .sqlite, mapping: mapping, to: destination, type: .sqlite)
        let context = try ManagerKit.open(destination, v2)
        let people = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
        #expect(MigrationKit.strings(people, "name") == ["Person 1", "Person 2", "Person 3"])
        #expect(people.allSatisfy { ($0.value(forKey: "books") as? NSSet)?.count == 2 && $0.value(forKey: "email") == nil })
        let books = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book"))
        #expect(books.count == 6)
        #expect(books.allSatisfy { $0.value(forKey: "owner") is NSManagedObject })
        #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Shelf")) == 0)
    }
}
