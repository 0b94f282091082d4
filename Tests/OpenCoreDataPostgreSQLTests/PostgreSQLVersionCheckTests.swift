import Foundation
import OpenCoreData
import OpenCoreDataPostgreSQL
import Testing

/// Core Data's optimistic-locking check before a save, over the PostgreSQL store: versions read a table at a
/// time, however many objects the save changes, and conflicts still found.
@Suite("PostgreSQL store version check", .enabled(if: PostgreSQLTestKit.enabled, PostgreSQLTestKit.reason))
struct PostgreSQLVersionCheckTests {
    /// The statements of a save that changes the age of `count` people and deletes their notes.
    private func saveStatements(changing count: Int) throws -> [String] {
        let url = try PostgreSQLTestKit.newStoreURL()
        let writer = try PostgreSQLTestKit.open(url)
        let seeding = PostgreSQLTestKit.context(writer)
        try seeding.performAndWait { () throws -> Void in
            for index in 0..<count {
                let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: seeding)
                person.setValue("P\(index)", forKey: "name")
                let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: seeding)
                note.setValue("N\(index)", forKey: "text")
            }
            try seeding.save()
        }
        let recorder = SQLDebugLogRecorder()
        PostgreSQLStore.register()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: PostgreSQLTestKit.model())
        coordinator.sqlDebugLog = recorder.log(level: 1)
        _ = try coordinator.addPersistentStore(type: .postgreSQL, at: url)
        let context = PostgreSQLTestKit.context(coordinator)
        let before = try context.performAndWait { () throws -> Int in
            let people = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
            let notes = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Note"))
            #expect(people.count == count && notes.count == count)
            for person in people { person.setValue(Int64(7), forKey: "age") }
            for note in notes { context.delete(note) }
            return recorder.messages.count
        }
        try context.performAndWait { try context.save() }
        let schema = PostgreSQLTestKit.schema(of: url)
        #expect(try PostgreSQLTestKit.psql("SELECT count(*) FROM \"\(schema)\".\"ZPERSON\" WHERE \"ZAGE\" = 7") == "\(count)")
        #expect(try PostgreSQLTestKit.psql("SELECT count(*) FROM \"\(schema)\".\"ZNOTE\"") == "0")
        return Array(recorder.messages.dropFirst(before)).filter { $0.hasPrefix("CoreData: sql: ") }
    }

    @Test("the check reads versions with one statement per table, for 3 objects as for 60")
    func bulkVersions() throws {
        let few = try saveStatements(changing: 3)
        let many = try saveStatements(changing: 60)
        for statements in [few, many] {
            let checks = statements.filter { $0.contains("SELECT \"Z_PK\", \"Z_OPT\" FROM") }
            // ZPERSON and ZNOTE.
            #expect(checks.count == 2, "\(checks)")
            #expect(checks.allSatisfy { $0.contains("= ANY($1)") })
        }
        // No object's row is read on its own for the check.
        for statements in [few, many] {
            #expect(!statements.contains { $0.hasPrefix("CoreData: sql: SELECT") && $0.contains("t0.\"Z_PK\" = $1") }, "\(statements)")
        }
    }

    @Test("a row changed by another coordinator is still a conflict: 133020 with the conflicts")
    func conflict() throws {
        let (url, coordinator) = try PostgreSQLTestKit.seeded()
        let schema = PostgreSQLTestKit.schema(of: url)
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            let people = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
            for person in people { person.setValue(Int64(1), forKey: "level") }
            _ = try PostgreSQLTestKit.psql("UPDATE \"\(schema)\".\"ZPERSON\" SET \"ZNAME\" = 'Bob', \"Z_OPT\" = \"Z_OPT\" + 1 WHERE \"ZNAME\" = 'Bo'")
            let error = try #require(throws: NSError.self) { try context.save() }
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSManagedObjectMergeError)
            let conflicts = try #require(error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])
            #expect(conflicts.count == 1)
            #expect(conflicts.first?.sourceObject.value(forKey: "name") as? String == "Bo")
            #expect(conflicts.first?.persistedSnapshot?["name"] as? String == "Bob")
            #expect(conflicts.first?.newVersionNumber == 2)
        }
        #expect(try PostgreSQLTestKit.psql("SELECT count(*) FROM \"\(schema)\".\"ZPERSON\" WHERE \"ZLEVEL\" = 1") == "0")
    }
}
