import Foundation
import OpenCoreData
import OpenCoreDataPostgreSQL
import Testing

// Foundation declares these names too; the store speaks OpenCoreData's.
private typealias NSPredicate = OpenCoreData.NSPredicate

/// Core Data's SQL debug log for the PostgreSQL store: its statements, transactions and annotations, and
/// never the password.
@Suite("PostgreSQL store SQL debug log", .enabled(if: PostgreSQLTestKit.enabled, PostgreSQLTestKit.reason))
struct PostgreSQLStoreSQLDebugLogTests {
    @Test("level 2 logs statements, transactions, times and the fetch annotation, without the password")
    func statements() throws {
        let url = try PostgreSQLTestKit.newStoreURL()
        let recorder = SQLDebugLogRecorder()
        PostgreSQLStore.register()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: PostgreSQLTestKit.model())
        coordinator.sqlDebugLog = recorder.log(level: 2)
        _ = try coordinator.addPersistentStore(type: .postgreSQL, at: url)
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            NSEntityDescription.insertNewObject(forEntityName: "Person", into: context).setValue("Ann", forKey: "name")
            try context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = NSPredicate(format: "name BEGINSWITH 'A'")
            #expect(try context.fetch(request).count == 1)
        }
        let messages = recorder.messages
        #expect(messages.contains { $0.hasPrefix("CoreData: sql: CREATE TABLE") })
        #expect(messages.contains { $0.hasPrefix("CoreData: sql: INSERT INTO") && $0.contains("ZPERSON") })
        #expect(messages.contains { $0.hasPrefix("CoreData: sql: SELECT") && $0.contains("LIKE $1") })
        #expect(messages.contains("CoreData: sql: BEGIN"))
        #expect(messages.contains("CoreData: sql: COMMIT"))
        #expect(messages.contains { $0.hasPrefix("CoreData: annotation: total fetch execution time: ") && $0.hasSuffix("for 1 rows.") })
        #expect(messages.contains { $0.hasPrefix("CoreData: annotation: sql execution time: ") })
        let password = try #require(try PostgreSQLTestKit.server().password)
        #expect(!messages.contains { $0.contains(password) })
    }

    @Test("level 1 leaves out transactions and times")
    func levelOne() throws {
        let url = try PostgreSQLTestKit.newStoreURL()
        let recorder = SQLDebugLogRecorder()
        PostgreSQLStore.register()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: PostgreSQLTestKit.model())
        coordinator.sqlDebugLog = recorder.log(level: 1)
        _ = try coordinator.addPersistentStore(type: .postgreSQL, at: url)
        let messages = recorder.messages
        #expect(messages.contains { $0.hasPrefix("CoreData: sql: CREATE TABLE") })
        #expect(!messages.contains("CoreData: sql: BEGIN"))
        #expect(!messages.contains { $0.contains("execution time") })
    }
}
