import Foundation
import OpenCoreData
import OpenCoreDataPostgreSQL
import Testing

// Foundation declares these names too; the store speaks OpenCoreData's.
private typealias NSPredicate = OpenCoreData.NSPredicate

/// Counts of to-many relationships in predicates, compiled to correlated `count(*)` subqueries:
/// `notes.@count` and `SUBQUERY(notes, $n, …).@count`, over a foreign key and over a join table.
@Suite("PostgreSQL store to-many counts in predicates", .enabled(if: PostgreSQLTestKit.enabled, PostgreSQLTestKit.reason))
struct PostgreSQLToManyCountTests {
    /// The sorted values of `key` of the objects a predicate finds, and whether the server alone
    /// selected them: its statement counts with a subquery and returns exactly those rows.
    private func found(_ format: String, entity: String, key: String) throws -> (values: [String], onServer: Bool) {
        let url = try PostgreSQLTestKit.newStoreURL()
        try PostgreSQLTestKit.seed(try PostgreSQLTestKit.open(url))
        let recorder = SQLDebugLogRecorder()
        PostgreSQLStore.register()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: PostgreSQLTestKit.model())
        coordinator.sqlDebugLog = recorder.log(level: 1)
        _ = try coordinator.addPersistentStore(type: .postgreSQL, at: url)
        let context = PostgreSQLTestKit.context(coordinator)
        return try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: entity)
            request.predicate = NSPredicate(format: format)
            let start = recorder.messages.count
            let objects = try context.fetch(request)
            let messages = recorder.messages.dropFirst(start)
            let compiled = messages.contains { $0.hasPrefix("CoreData: sql: SELECT") && $0.contains("(SELECT count(*) FROM") }
            let rows = messages.contains { $0.hasSuffix("for \(objects.count) rows.") }
            let values = objects.compactMap { $0.value(forKey: key) as? String }.sorted()
            return (values, compiled && rows)
        }
    }

    /// Expects the predicate to find the objects whose `key` values are `expected`, selected by the server.
    private func expect(
        _ format: String, entity: String = "Person", key: String = "name", _ expected: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try found(format, entity: entity, key: key)
        #expect(result.values == expected, "\(format)", sourceLocation: sourceLocation)
        #expect(result.onServer, "\(format) was finished in memory", sourceLocation: sourceLocation)
    }

    @Test("key.@count over a foreign key and a join table, compared with numbers")
    func counts() throws {
        let everyone = ["Ann", "Bo", "Cy", "Dee", "Émile"]
        let secondNotes = everyone.map { "\($0) note 2" }
        try expect("notes.@count == 2", everyone)
        try expect("notes.@count > 2", [])
        try expect("notes.@count BETWEEN {1, 3} AND age > 30", ["Ann", "Cy", "Émile"])
        // A literal list of BETWEEN, for a count and for an attribute alike.
        try expect("notes.@count BETWEEN {2, 2} AND age BETWEEN {30, 40}", ["Ann", "Émile"])
        try expect("notes.@count == 5", entity: "Tag", key: "label", ["urgent"])
        try expect("tags.@count == 0", entity: "Note", key: "text", secondNotes)
        try expect("NOT (tags.@count >= 1)", entity: "Note", key: "text", secondNotes)
    }

    @Test("SUBQUERY(…).@count with the variable's key paths, to-one steps and compound predicates inside")
    func subqueries() throws {
        let everyone = ["Ann", "Bo", "Cy", "Dee", "Émile"]
        try expect("SUBQUERY(notes, $n, $n.rank == 2).@count > 0", everyone)
        try expect("SUBQUERY(notes, $n, $n.text BEGINSWITH 'Bo' AND $n.rank == 1).@count == 1", ["Bo"])
        try expect("SUBQUERY(notes, $n, $n.owner.name == 'Cy').@count == 2", ["Cy"])
        try expect("SUBQUERY(tags, $t, $t.label == 'urgent').@count == 1", entity: "Note", key: "text", everyone.map { "\($0) note 1" })
        try expect("SUBQUERY(notes, $n, SUBQUERY($n.tags, $t, $t.label == 'urgent').@count > 0).@count == 1", everyone)
    }
}
