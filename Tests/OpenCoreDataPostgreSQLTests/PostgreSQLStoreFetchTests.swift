import Foundation
import OpenCoreData
import OpenCoreDataPostgreSQL
import Testing

// Foundation declares these names too; the store speaks OpenCoreData's.
private typealias NSPredicate = OpenCoreData.NSPredicate
private typealias NSSortDescriptor = OpenCoreData.NSSortDescriptor

/// Fetches against the server: predicates compiled to SQL (and those finished in memory), sort
/// descriptors, limits and offsets, counts, subentities, object IDs and dictionaries.
@Suite("PostgreSQL store fetching", .enabled(if: PostgreSQLTestKit.enabled, PostgreSQLTestKit.reason))
struct PostgreSQLStoreFetchTests {
    /// The names of the people a predicate finds, sorted by name.
    private func names(_ coordinator: NSPersistentStoreCoordinator, _ format: String, _ arguments: [Any] = [], entity: String = "Person") throws
        -> [String]
    {
        let context = PostgreSQLTestKit.context(coordinator)
        return try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: entity)
            request.predicate = NSPredicate(format: format, argumentArray: arguments)
            return try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }.sorted()
        }
    }

    @Test("comparisons, nil, BETWEEN and IN")
    func comparisons() throws {
        let (_, coordinator) = try PostgreSQLTestKit.seeded()
        #expect(try names(coordinator, "age > 30") == ["Ann", "Cy", "Émile"])
        #expect(try names(coordinator, "age <= 31") == ["Ann", "Bo"])
        #expect(try names(coordinator, "age == nil") == ["Dee"])
        #expect(try names(coordinator, "age != 31") == ["Bo", "Cy", "Dee", "Émile"])
        #expect(try names(coordinator, "NOT (age > 30)") == ["Bo", "Dee"])
        #expect(try names(coordinator, "age BETWEEN {30, 40}") == ["Ann", "Émile"])
        #expect(try names(coordinator, "name IN %@", [["Bo", "Cy", "Zed"]]) == ["Bo", "Cy"])
        #expect(try names(coordinator, "score >= 4.5 OR name == 'Bo'") == ["Ann", "Bo", "Cy"])
        #expect(try names(coordinator, "joined > %@", [Date(timeIntervalSinceReferenceDate: 31_000)]) == ["Ann", "Cy", "Émile"])
        #expect(try names(coordinator, "TRUEPREDICATE").count == 5)
        #expect(try names(coordinator, "FALSEPREDICATE").isEmpty)
    }

    @Test("string operators with [c] and [cd]")
    func strings() throws {
        let (_, coordinator) = try PostgreSQLTestKit.seeded()
        #expect(try names(coordinator, "name BEGINSWITH 'A'") == ["Ann"])
        #expect(try names(coordinator, "name BEGINSWITH[c] 'a'") == ["Ann"])
        #expect(try names(coordinator, "name CONTAINS 'n'") == ["Ann"])
        #expect(try names(coordinator, "name CONTAINS[c] 'E'") == ["Dee", "Émile"])
        #expect(try names(coordinator, "name ENDSWITH 'e'") == ["Dee", "Émile"])
        #expect(try names(coordinator, "name LIKE 'C?'") == ["Cy"])
        #expect(try names(coordinator, "name LIKE[c] '*E'") == ["Dee", "Émile"])
        #expect(try names(coordinator, "name ==[c] 'ann'") == ["Ann"])
        // Diacritic-insensitive comparisons are finished in memory.
        #expect(try names(coordinator, "name BEGINSWITH[cd] 'e'") == ["Émile"])
        #expect(try names(coordinator, "name ==[cd] 'emile'") == ["Émile"])
        #expect(try names(coordinator, "name MATCHES 'B.'") == ["Bo"])
        // LIKE's wildcards in the text are literal for BEGINSWITH and CONTAINS.
        #expect(try names(coordinator, "name CONTAINS '%'").isEmpty)
        #expect(try names(coordinator, "name BEGINSWITH '_'").isEmpty)
    }

    @Test("relationships in predicates: to-one key paths, objects, to-many in memory")
    func relationships() throws {
        let (_, coordinator) = try PostgreSQLTestKit.seeded()
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
            request.predicate = NSPredicate(format: "owner.name == 'Bo'")
            let notes = try context.fetch(request)
            #expect(notes.compactMap { $0.value(forKey: "text") as? String }.sorted() == ["Bo note 1", "Bo note 2"])
            let bo = try #require(notes.first?.value(forKey: "owner") as? NSManagedObject)
            request.predicate = NSPredicate(format: "owner == %@ AND rank == 2", bo)
            #expect(try context.fetch(request).compactMap { $0.value(forKey: "text") as? String } == ["Bo note 2"])
            request.predicate = NSPredicate(format: "NOT (owner.age > 30)")
            #expect(try context.fetch(request).count == 4)
            request.predicate = NSPredicate(format: "ANY tags.label == 'urgent'")
            #expect(try context.fetch(request).count == 5)
            request.predicate = NSPredicate(format: "SELF == %@", bo.objectID)
            #expect(try context.fetch(request).isEmpty)
        }
        #expect(try names(coordinator, "notes.@count == 2").count == 5)
    }

    @Test("sort descriptors, limit, offset and count")
    func sortingAndWindows() throws {
        let (_, coordinator) = try PostgreSQLTestKit.seeded()
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.sortDescriptors = [NSSortDescriptor(key: "age", ascending: false)]
            #expect(try context.fetch(request).compactMap { $0.value(forKey: "name") as? String } == ["Cy", "Émile", "Ann", "Bo", "Dee"])
            request.fetchLimit = 2
            request.fetchOffset = 1
            #expect(try context.fetch(request).compactMap { $0.value(forKey: "name") as? String } == ["Émile", "Ann"])
            request.fetchLimit = 0
            request.fetchOffset = 0
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true, selector: "caseInsensitiveCompare:")]
            #expect(try context.fetch(request).compactMap { $0.value(forKey: "name") as? String } == ["Ann", "Bo", "Cy", "Dee", "Émile"])
            // Localized sorting is done in memory, and the window after it.
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: false, selector: "localizedStandardCompare:")]
            request.fetchLimit = 1
            #expect(try context.fetch(request).compactMap { $0.value(forKey: "name") as? String } == ["Émile"])
            request.fetchLimit = 0
            request.predicate = NSPredicate(format: "age > 25")
            #expect(try context.count(for: request) == 3)
            let ids = NSFetchRequest<NSManagedObjectID>(entityName: "Person")
            ids.resultType = .managedObjectIDResultType
            ids.predicate = NSPredicate(format: "name == 'Ann'")
            let annID = try #require(try context.fetch(ids).first)
            #expect(annID.uriRepresentation().absoluteString.hasPrefix("x-coredata://"))
            #expect(annID.entity.name == "Person")
        }
    }

    @Test("subentities: a fetch of the parent finds them, of the subentity only them")
    func subentities() throws {
        let (_, coordinator) = try PostgreSQLTestKit.seeded()
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            let employees = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Employee"))
            #expect(employees.count == 1)
            #expect(employees.first?.entity.name == "Employee")
            #expect(employees.first?.value(forKey: "salary") as? Int32 == 5000)
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.includesSubentities = false
            #expect(try context.fetch(request).count == 4)
        }
        #expect(try names(coordinator, "salary > 100", entity: "Employee") == ["Émile"])
    }

    @Test("values of every attribute type round-trip unchanged")
    func attributeValues() throws {
        let url = try PostgreSQLTestKit.newStoreURL()
        let writer = PostgreSQLTestKit.context(try PostgreSQLTestKit.open(url))
        let uuid = UUID()
        let photo = Data([0, 1, 2, 255, 254])
        let joined = Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_7)
        try writer.performAndWait { () throws -> Void in
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: writer)
            person.setValue("Zoë \"quoted\" 'name'", forKey: "name")
            person.setValue(Int64.max, forKey: "age")
            person.setValue(-0.1, forKey: "score")
            person.setValue(joined, forKey: "joined")
            person.setValue(true, forKey: "active")
            person.setValue(photo, forKey: "photo")
            person.setValue(uuid, forKey: "uuid")
            person.setValue(NSDecimalNumber(string: "12345678901234567890.123456789"), forKey: "balance")
            person.setValue(Int16(-7), forKey: "level")
            try writer.save()
        }
        let reader = PostgreSQLTestKit.context(try PostgreSQLTestKit.open(url))
        try reader.performAndWait { () throws -> Void in
            let person = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).first)
            #expect(person.value(forKey: "name") as? String == "Zoë \"quoted\" 'name'")
            #expect(person.value(forKey: "age") as? Int64 == Int64.max)
            #expect(person.value(forKey: "score") as? Double == -0.1)
            #expect(person.value(forKey: "joined") as? Date == joined)
            #expect(person.value(forKey: "active") as? Bool == true)
            #expect(person.value(forKey: "photo") as? Data == photo)
            #expect(person.value(forKey: "uuid") as? UUID == uuid)
            #expect((person.value(forKey: "balance") as? NSDecimalNumber)?.stringValue == "12345678901234567890.123456789")
            #expect(person.value(forKey: "level") as? Int16 == -7)
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = NSPredicate(format: "uuid == %@ AND photo == %@ AND active == YES", argumentArray: [uuid, photo])
            #expect(try reader.fetch(request).count == 1)
        }
    }

    @Test("dictionary results name the properties to fetch")
    func dictionaries() throws {
        let (_, coordinator) = try PostgreSQLTestKit.seeded()
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            let request = NSFetchRequest<NSDictionary>(entityName: "Person")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["name", "age"]
            request.predicate = NSPredicate(format: "age < 40")
            request.sortDescriptors = [NSSortDescriptor(key: "age", ascending: true)]
            let rows = try context.fetch(request)
            #expect(rows.count == 3)
            #expect(rows.first?["name"] as? String == "Bo")
            #expect(rows.first?["age"] as? Int64 == 22)
            #expect(rows.first?["score"] == nil)
        }
    }
}
