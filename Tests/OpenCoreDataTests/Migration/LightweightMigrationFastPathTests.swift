import Testing

@testable import OpenCoreDataCore

/// Lightweight migrations that only add, rename and drop columns, tables and indexes run in place
/// with `ALTER TABLE`; everything else copies the tables. Which path ran is read from the SQL debug
/// log; either way every row and value survives and the file equals a fresh store of the new model.
@Suite("Lightweight migration fast path")
struct LightweightMigrationFastPathTests {
    /// A V1 library store: 30 people (nickname "nick i", age i), 60 books (two per person, two tags each), 3 tags.
    func libraryStore(_ directory: TemporaryDirectory) throws -> URL {
        let url = directory.file("Library.sqlite")
        try MigrationKit.makeStore(MigrationKit.libraryV1(), at: url) { context in
            let tags = (0..<3).map { context.make("Tag", ["label": "tag \($0)"]) }
            for index in 0..<30 {
                let person = context.make("Person", ["name": "person \(index)", "nickname": "nick \(index)", "age": Int16(index)])
                for copy in 0..<2 {
                    let book = context.make("Book", ["title": "book \(index)-\(copy)", "price": Double(index), "owner": person])
                    book.setValue(Set([tags[index % 3], tags[(index + copy + 1) % 3]]), forKey: "tags")
                }
            }
        }
        return url
    }

    /// Opens the store with `model`, recording the SQL the migration runs.
    func openRecording(
        _ model: NSManagedObjectModel, at url: URL,
        options: [AnyHashable: Any] = MigrationKit.lightweight
    ) throws -> (NSManagedObjectContext, [String]) {
        let recorder = SQLDebugLogRecorder()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        coordinator.migrationSourceModels = [MigrationKit.libraryV1()]
        coordinator.sqlDebugLog = recorder.log(level: 1)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
        let statements = recorder.statements
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (context, statements)
    }

    /// Whether the statements copied the tables (old tables renamed aside and rows copied).
    func copiedTables(_ statements: [String]) -> Bool {
        statements.contains { $0.hasPrefix("INSERT INTO") && $0.contains("FROM \(SQLiteLightweightMigration.oldPrefix)") }
    }

    @Test("added, renamed and dropped attributes, a new entity and a new index run in place and keep every value")
    func inPlace() throws {
        let directory = TemporaryDirectory()
        let url = try libraryStore(directory)
        let v2 = MigrationKit.libraryV1()
        let person = try #require(v2.entitiesByName["Person"])
        let alias = ModelKit.attribute("alias", .stringAttributeType)
        alias.renamingIdentifier = "nickname"
        let rank = ModelKit.attribute("rank", .integer32AttributeType)
        rank.defaultValue = 5
        person.properties =
            person.properties.filter { !["nickname", "age"].contains($0.name) }
            + [alias, rank, ModelKit.attribute("email", .stringAttributeType)]
        let book = try #require(v2.entitiesByName["Book"])
        let title = try #require(book.attributesByName["title"])
        book.indexes = [NSFetchIndexDescription(name: "byTitle", elements: [NSFetchIndexElementDescription(property: title, collationType: .binary)])]
        let author = ModelKit.entity("Author", [ModelKit.attribute("name", .stringAttributeType)])
        author.managedObjectClassName = "NSManagedObject"
        v2.entities += [author]  // Author sorts first: every other entity gets a new number.

        let (context, statements) = try openRecording(v2, at: url)
        #expect(statements.contains { $0.contains("ADD COLUMN") }, "\(statements)")
        #expect(statements.contains { $0.contains("RENAME COLUMN") }, "\(statements)")
        #expect(statements.contains { $0.contains("DROP COLUMN") }, "\(statements)")
        #expect(!copiedTables(statements), "\(statements)")
        #expect(try MigrationKit.differences(url, v2) == [])

        let people = try context.all("Person", sortedBy: "name")
        #expect(people.count == 30)
        for person in people {
            let name = try #require(person.value(forKey: "name") as? String)
            let index = try #require(Int(name.dropFirst("person ".count)))
            #expect(person.value(forKey: "alias") as? String == "nick \(index)")
            #expect((person.value(forKey: "rank") as? NSNumber)?.intValue == 5)
            #expect(person.value(forKey: "email") == nil)
            let books = try #require(person.value(forKey: "books") as? Set<NSManagedObject>)
            #expect(MigrationKit.strings(Array(books), "title") == ["book \(index)-0", "book \(index)-1"])
            for book in books {
                #expect((book.value(forKey: "price") as? Double) == Double(index))
                let tags = try #require(book.value(forKey: "tags") as? Set<NSManagedObject>)
                #expect(tags.count == 2)
            }
        }
        let tag = try #require(try context.all("Tag", sortedBy: "label").first)
        #expect((tag.value(forKey: "books") as? Set<NSManagedObject>)?.isEmpty == false)
        // New objects get fresh keys; the store reopens without migrating.
        context.make("Person", ["name": "new", "alias": "n"])
        context.make("Author", ["name": "A"])
        try context.save()
        let reopened = try MigrationKit.open(v2, at: url, sources: [], options: nil)
        #expect(try reopened.all("Person").count == 31)
        #expect(try reopened.all("Book").count == 60)
        #expect(try reopened.all("Author").count == 1)
    }

    @Test("a removed entity and a renamed entity run in place")
    func entities() throws {
        let directory = TemporaryDirectory()
        let url = try libraryStore(directory)
        let v2 = MigrationKit.libraryV1()
        let book = try #require(v2.entitiesByName["Book"])
        book.properties = book.properties.filter { $0.name != "tags" }
        v2.entities = v2.entities.filter { $0.name != "Tag" }
        let person = try #require(v2.entitiesByName["Person"])
        person.name = "Reader"
        person.renamingIdentifier = "Person"

        let (context, statements) = try openRecording(v2, at: url)
        #expect(!copiedTables(statements), "\(statements)")
        #expect(statements.contains { $0.hasPrefix("DROP TABLE") }, "\(statements)")
        #expect(try MigrationKit.differences(url, v2) == [])
        let readers = try context.all("Reader", sortedBy: "name")
        #expect(readers.count == 30)
        #expect(readers.allSatisfy { ($0.value(forKey: "books") as? Set<NSManagedObject>)?.count == 2 })
    }

    @Test("a change of relationship storage or an attribute becoming required copies the tables")
    func copies() throws {
        let directory = TemporaryDirectory()
        let url = try libraryStore(directory)
        let v2 = MigrationKit.libraryV1()
        let person = try #require(v2.entitiesByName["Person"])
        let nickname = try #require(person.attributesByName["nickname"])
        nickname.isOptional = false
        nickname.defaultValue = "none"
        nickname.name = "alias"
        nickname.renamingIdentifier = "nickname"
        let (context, statements) = try openRecording(v2, at: url)
        #expect(copiedTables(statements), "\(statements)")
        #expect(!statements.contains { $0.contains("ADD COLUMN") })
        #expect(try MigrationKit.differences(url, v2) == [])
        #expect(try context.all("Person").count == 30)
        #expect(try context.all("Book").count == 60)

        let otherDirectory = TemporaryDirectory()
        let other = try libraryStore(otherDirectory)
        let v3 = MigrationKit.libraryV1()
        let owner = try #require(v3.entitiesByName["Book"]?.relationshipsByName["owner"])
        owner.maxCount = 0  // to-one → to-many: the owners move into a join table.
        let (moved, copyStatements) = try openRecording(v3, at: other)
        #expect(copiedTables(copyStatements))
        #expect(try MigrationKit.differences(other, v3) == [])
        let books = try moved.all("Book")
        #expect(books.count == 60)
        #expect(books.allSatisfy { ($0.value(forKey: "owner") as? Set<NSManagedObject>)?.count == 1 })
    }

    @Test("deferred migration in place: dropped columns and tables and new indexes wait for finishDeferredLightweightMigration")
    func deferred() throws {
        let directory = TemporaryDirectory()
        let url = try libraryStore(directory)
        let v2 = MigrationKit.libraryV1()
        let book = try #require(v2.entitiesByName["Book"])
        let title = try #require(book.attributesByName["title"])
        book.indexes = [NSFetchIndexDescription(name: "byTitle", elements: [NSFetchIndexElementDescription(property: title, collationType: .binary)])]
        book.properties = book.properties.filter { !["price", "tags"].contains($0.name) }
        v2.entities = v2.entities.filter { $0.name != "Tag" }
        var options = MigrationKit.lightweight
        options[NSPersistentStoreDeferredLightweightMigrationOptionKey] = true
        let (context, statements) = try openRecording(v2, at: url, options: options)
        #expect(!copiedTables(statements), "\(statements)")
        #expect(!statements.contains { $0.contains("DROP COLUMN") })
        let pending = try MigrationKit.differences(url, v2)
        #expect(pending.contains("unexpected column ZBOOK.ZPRICE"), "\(pending)")
        #expect(pending.contains("missing index Z_Book_byTitle"), "\(pending)")
        #expect(pending.contains { $0.hasPrefix("unexpected table \(SQLiteLightweightMigration.oldPrefix)") }, "\(pending)")
        #expect(try context.all("Book").count == 60)
        context.make("Book", ["title": "new"])
        try context.save()

        let coordinator = try #require(context.persistentStoreCoordinator)
        try coordinator.finishDeferredLightweightMigration()
        #expect(try MigrationKit.differences(url, v2) == [])
        #expect(try context.all("Book").count == 61)
        let reopened = try MigrationKit.open(v2, at: url, sources: [], options: nil)
        #expect(try reopened.all("Book").count == 61)
    }
}
