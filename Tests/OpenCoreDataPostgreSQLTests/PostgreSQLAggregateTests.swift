import Foundation
import OpenCoreData
import OpenCoreDataPostgreSQL
import Testing

// Foundation declares these names too; the store speaks OpenCoreData's.
private typealias NSPredicate = OpenCoreData.NSPredicate
private typealias NSSortDescriptor = OpenCoreData.NSSortDescriptor

/// Dictionary results with aggregates (`count:`, `sum:`, `average:`, `min:`, `max:`), `propertiesToGroupBy`
/// and `havingPredicate`, computed by PostgreSQL: each request runs against a PostgreSQL store and a SQLite
/// store holding the same objects, and must give the same dictionaries, keys, values and value types.
@Suite("PostgreSQL store aggregates and groups", .enabled(if: PostgreSQLTestKit.enabled, PostgreSQLTestKit.reason))
struct PostgreSQLAggregateTests {
    /// Eleven people: level `i % 3`, age `i * 3 % 7` (none for i = 4), score `i / 4`, joined `i` days
    /// after 2001, names N0…N10 and Ëve; two notes each for the first six, and a note of no one.
    private static func seed(_ coordinator: NSPersistentStoreCoordinator) throws {
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            for i in 0..<11 {
                let person = NSEntityDescription.insertNewObject(forEntityName: i == 7 ? "Employee" : "Person", into: context)
                person.setValue(i == 9 ? "Ëve" : "N\(i)", forKey: "name")
                person.setValue(Int16(i % 3), forKey: "level")
                if i != 4 { person.setValue(Int64(i * 3 % 7), forKey: "age") }
                person.setValue(Double(i) / 4, forKey: "score")
                person.setValue(Date(timeIntervalSinceReferenceDate: Double(i) * 86_400), forKey: "joined")
                person.setValue(NSDecimalNumber(string: "\(i * 7 % 12).25"), forKey: "balance")
                for rank in 0..<(i < 6 ? 2 : 0) {
                    let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
                    note.setValue("note \(rank) of N\(i)", forKey: "text")
                    note.setValue(Int32(rank + i), forKey: "rank")
                    note.setValue(person, forKey: "owner")
                }
            }
            let orphan = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
            orphan.setValue("orphan", forKey: "text")
            orphan.setValue(Int32(99), forKey: "rank")
            try context.save()
        }
    }

    /// A PostgreSQL store and a SQLite store with the same objects.
    private static func stores() throws -> (postgres: NSPersistentStoreCoordinator, sqlite: NSPersistentStoreCoordinator, directory: URL) {
        let postgres = try PostgreSQLTestKit.open(try PostgreSQLTestKit.newStoreURL())
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-pg-aggregates-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let sqlite = NSPersistentStoreCoordinator(managedObjectModel: PostgreSQLTestKit.model())
        _ = try sqlite.addPersistentStore(type: .sqlite, at: directory.appendingPathComponent("same.sqlite"))
        try seed(postgres)
        try seed(sqlite)
        return (postgres, sqlite, directory)
    }

    private static func aggregate(_ name: String, _ function: String, _ keyPath: String?, _ type: NSAttributeType) -> NSExpressionDescription {
        let description = NSExpressionDescription()
        description.name = name
        let argument = keyPath.map { NSExpression(forKeyPath: $0) } ?? NSExpression.expressionForEvaluatedObject()
        description.expression = NSExpression(forFunction: function, arguments: [argument])
        description.expressionResultType = type
        return description
    }

    /// The dictionaries of a request, each value described with its type: an `NSNumber` as an integer,
    /// double or float (by its `objCType`) and its value, a date by its seconds, text as it is.
    private static func results(
        _ coordinator: NSPersistentStoreCoordinator, entity: String, _ configure: (NSFetchRequest<NSDictionary>) -> Void
    ) throws -> [[String: String]] {
        let context = PostgreSQLTestKit.context(coordinator)
        return try context.performAndWait {
            let request = NSFetchRequest<NSDictionary>(entityName: entity)
            request.resultType = .dictionaryResultType
            configure(request)
            return try context.fetch(request).map { dictionary in
                var described: [String: String] = [:]
                for (key, value) in dictionary {
                    described["\(key)"] = describe(value)
                }
                return described
            }
        }
    }

    private static func describe(_ value: Any) -> String {
        switch value {
        case let date as Date: return "date \(date.timeIntervalSinceReferenceDate)"
        case let text as String: return "text \(text)"
        case let decimal as NSDecimalNumber: return "decimal \(decimal)"
        case let number as NSNumber:
            let type = String(cString: number.objCType)
            let kind = type == "d" ? "double" : type == "f" ? "float" : "cCsSiIlLqQB".contains(type) ? "integer" : type
            return "\(kind) \(number.doubleValue)"
        default: return "\(type(of: value)) \(value)"
        }
    }

    /// Runs a request against both stores; expects the same, non-empty, results and returns them.
    @discardableResult
    private static func same(
        _ stores: (postgres: NSPersistentStoreCoordinator, sqlite: NSPersistentStoreCoordinator, directory: URL),
        entity: String = "Person", _ configure: (NSFetchRequest<NSDictionary>) -> Void, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [[String: String]] {
        let onServer = try results(stores.postgres, entity: entity, configure)
        let onFile = try results(stores.sqlite, entity: entity, configure)
        #expect(onServer == onFile, sourceLocation: sourceLocation)
        #expect(!onServer.isEmpty, sourceLocation: sourceLocation)
        return onServer
    }

    @Test("count:, sum:, average:, min: and max: over every row, as SQLite gives them; sum of Int64 is an integer, average a Double")
    func wholeResult() throws {
        let stores = try Self.stores()
        defer { try? FileManager.default.removeItem(at: stores.directory) }
        let rows = try Self.same(stores) { request in
            request.propertiesToFetch = [
                Self.aggregate("people", "count:", nil, .integer64AttributeType),
                Self.aggregate("ages", "count:", "age", .integer64AttributeType),
                Self.aggregate("total", "sum:", "age", .integer64AttributeType),
                Self.aggregate("mean", "average:", "age", .doubleAttributeType),
                Self.aggregate("youngest", "min:", "age", .integer64AttributeType),
                Self.aggregate("oldest", "max:", "age", .integer64AttributeType),
                Self.aggregate("scores", "sum:", "score", .doubleAttributeType),
                Self.aggregate("first", "min:", "joined", .dateAttributeType),
                Self.aggregate("last", "max:", "name", .stringAttributeType),
                Self.aggregate("meanAsInteger", "average:", "score", .integer64AttributeType),
                Self.aggregate("raw", "sum:", "score", .undefinedAttributeType),
            ]
        }
        #expect(rows.count == 1)
        // Ages 0 3 6 2 _ 1 4 0 3 6 2: ten of them, summing to 27.
        #expect(rows.first?["people"] == "integer 11.0")
        #expect(rows.first?["ages"] == "integer 10.0")
        #expect(rows.first?["total"] == "integer 27.0")
        #expect(rows.first?["mean"] == "double 2.7")
        #expect(rows.first?["oldest"] == "integer 6.0")
        #expect(rows.first?["last"] == "text Ëve")
        #expect(rows.first?["first"] == "date 0.0")
        #expect(rows.first?["meanAsInteger"] == "integer 1.0")
    }

    @Test("propertiesToGroupBy, with the groups' keys, a predicate, sorting on an aggregate, limits and havingPredicate")
    func groups() throws {
        let stores = try Self.stores()
        defer { try? FileManager.default.removeItem(at: stores.directory) }
        let byLevel = try Self.same(stores) { request in
            request.propertiesToFetch = [
                "level", Self.aggregate("people", "count:", "name", .integer64AttributeType),
                Self.aggregate("total", "sum:", "age", .integer64AttributeType),
                Self.aggregate("mean", "average:", "score", .doubleAttributeType),
                Self.aggregate("first", "min:", "name", .stringAttributeType),
            ]
            request.propertiesToGroupBy = ["level"]
        }
        #expect(byLevel.map { $0["people"] } == ["integer 4.0", "integer 4.0", "integer 3.0"])
        try Self.same(stores) { request in
            request.propertiesToFetch = ["level", Self.aggregate("total", "sum:", "age", .integer64AttributeType)]
            request.propertiesToGroupBy = ["level"]
            request.predicate = NSPredicate(format: "age > 1 AND name BEGINSWITH 'N'")
            request.sortDescriptors = [NSSortDescriptor(key: "total", ascending: false)]
        }
        let having = try Self.same(stores) { request in
            request.propertiesToFetch = ["level", Self.aggregate("people", "count:", "name", .integer64AttributeType)]
            request.propertiesToGroupBy = ["level"]
            request.havingPredicate = NSPredicate(format: "people > 3")
            request.sortDescriptors = [NSSortDescriptor(key: "level", ascending: false)]
        }
        #expect(having.count == 2)
        try Self.same(stores) { request in
            request.propertiesToFetch = ["level", "age", Self.aggregate("people", "count:", nil, .integer64AttributeType)]
            request.propertiesToGroupBy = ["level", "age"]
            request.sortDescriptors = [
                NSSortDescriptor(key: "people", ascending: false), NSSortDescriptor(key: "level", ascending: true),
                NSSortDescriptor(key: "age", ascending: true),
            ]
            request.fetchLimit = 3
            request.fetchOffset = 1
        }
        try Self.same(stores) { request in
            request.propertiesToFetch = ["level"]
            request.returnsDistinctResults = true
            request.sortDescriptors = [NSSortDescriptor(key: "level", ascending: true)]
        }
        try Self.same(stores) { request in
            request.propertiesToFetch = ["name", "age"]
            request.predicate = NSPredicate(format: "level == 1")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        }
    }

    @Test("key paths through to-one relationships: fetched, grouped by, aggregated; an object without the destination still counts")
    func keyPaths() throws {
        let stores = try Self.stores()
        defer { try? FileManager.default.removeItem(at: stores.directory) }
        let notes = try Self.same(stores, entity: "Note") { request in
            request.propertiesToFetch = ["text", "owner.name", "owner.level", "rank"]
            request.sortDescriptors = [NSSortDescriptor(key: "text", ascending: true)]
        }
        #expect(notes.count == 13)
        #expect(notes.last == ["text": "text orphan", "rank": "integer 99.0"])
        let byOwner = try Self.same(stores, entity: "Note") { request in
            request.propertiesToFetch = [
                "owner.name", Self.aggregate("notes", "count:", nil, .integer64AttributeType),
                Self.aggregate("ranks", "sum:", "rank", .integer64AttributeType),
                Self.aggregate("ages", "sum:", "owner.age", .integer64AttributeType),
            ]
            request.propertiesToGroupBy = ["owner.name"]
            request.sortDescriptors = [NSSortDescriptor(key: "owner.name", ascending: false)]
        }
        #expect(byOwner.count == 7)
        try Self.same(stores, entity: "Note") { request in
            request.propertiesToFetch = ["owner.level", Self.aggregate("mean", "average:", "owner.score", .doubleAttributeType)]
            request.propertiesToGroupBy = ["owner.level"]
            request.predicate = NSPredicate(format: "owner.age > 1")
        }
    }

    @Test("decimals: sorted and compared as numbers, summed and averaged")
    func decimals() throws {
        let stores = try Self.stores()
        defer { try? FileManager.default.removeItem(at: stores.directory) }
        let sorted = try Self.same(stores) { request in
            request.propertiesToFetch = ["name", "balance"]
            request.sortDescriptors = [NSSortDescriptor(key: "balance", ascending: true)]
        }
        #expect(sorted.last?["balance"] == "decimal 11.25")
        try Self.same(stores) { request in
            request.propertiesToFetch = [
                "level", Self.aggregate("mean", "average:", "balance", .doubleAttributeType),
                Self.aggregate("most", "max:", "balance", .decimalAttributeType),
            ]
            request.propertiesToGroupBy = ["level"]
            request.havingPredicate = NSPredicate(format: "most > 9")
            request.sortDescriptors = [NSSortDescriptor(key: "most", ascending: true)]
        }
    }

    @Test("to-many counts: posts.@count on each row, count:(notes) over a group")
    func toManyCounts() throws {
        let stores = try Self.stores()
        defer { try? FileManager.default.removeItem(at: stores.directory) }
        let perRow = NSExpressionDescription()
        perRow.name = "noteCount"
        perRow.expression = NSExpression(forKeyPath: "notes.@count")
        perRow.expressionResultType = .integer64AttributeType
        let rows = try Self.same(stores) { request in
            request.propertiesToFetch = ["name", perRow]
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        }
        #expect(rows.first == ["name": "text N0", "noteCount": "integer 2.0"])
        let groups = try Self.same(stores) { request in
            request.propertiesToFetch = ["level", Self.aggregate("notes", "count:", "notes", .integer64AttributeType)]
            request.propertiesToGroupBy = ["level"]
        }
        #expect(groups.map { $0["notes"] } == ["integer 4.0", "integer 4.0", "integer 4.0"])
    }

    @Test("aggregates of no rows: a count of 0 and a sum of 0, nothing else")
    func noRows() throws {
        let stores = try Self.stores()
        defer { try? FileManager.default.removeItem(at: stores.directory) }
        let rows = try Self.same(stores) { request in
            request.propertiesToFetch = [
                Self.aggregate("people", "count:", nil, .integer64AttributeType),
                Self.aggregate("total", "sum:", "age", .integer64AttributeType),
                Self.aggregate("mean", "average:", "age", .doubleAttributeType),
                Self.aggregate("oldest", "max:", "age", .integer64AttributeType),
            ]
            request.predicate = NSPredicate(format: "age > 100")
        }
        #expect(rows == [["people": "integer 0.0", "total": "integer 0.0"]])
    }

    @Test("a to-one relationship in a dictionary gives the destination's ID; a fetched property neither grouped nor aggregated is refused")
    func relationshipsAndErrors() throws {
        let stores = try Self.stores()
        defer { try? FileManager.default.removeItem(at: stores.directory) }
        let context = PostgreSQLTestKit.context(stores.postgres)
        try context.performAndWait { () throws -> Void in
            let request = NSFetchRequest<NSDictionary>(entityName: "Note")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["owner", Self.aggregate("notes", "count:", "text", .integer64AttributeType)]
            request.propertiesToGroupBy = ["owner"]
            let rows = try context.fetch(request)
            // Six owners with two notes each, and the group of the note of no one.
            #expect(rows.count == 7)
            #expect(rows.filter { $0["owner"] == nil }.map { ($0["notes"] as? NSNumber)?.intValue } == [1])
            for row in rows where row["owner"] != nil {
                let owner = try #require(row["owner"] as? NSManagedObjectID)
                #expect(context.object(with: owner).value(forKey: "name") as? String != nil)
                #expect((row["notes"] as? NSNumber)?.intValue == 2)
            }

            request.propertiesToFetch = ["text", Self.aggregate("notes", "count:", "text", .integer64AttributeType)]
            let ungrouped = #expect(throws: NSError.self) { try context.fetch(request) }
            #expect(ungrouped?.domain == NSCocoaErrorDomain)
            #expect(ungrouped?.code == NSPersistentStoreUnsupportedRequestTypeError)
            #expect(ungrouped?.localizedDescription.contains("neither an aggregate nor in propertiesToGroupBy") == true)
            request.propertiesToFetch = [Self.aggregate("total", "sum:", "text", .integer64AttributeType)]
            request.propertiesToGroupBy = nil
            let notNumber = #expect(throws: NSError.self) { try context.fetch(request) }
            #expect(notNumber?.code == NSPersistentStoreUnsupportedRequestTypeError)
        }
    }
}
