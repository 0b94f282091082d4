import Foundation
import OpenCoreData
import OpenCoreDataPostgreSQL
import Testing

// Foundation declares these names too; the store speaks OpenCoreData's.
private typealias NSPredicate = OpenCoreData.NSPredicate

/// A connection the server drops: the request under way fails with a clear error and writes nothing, and
/// the store connects again for the next one.
@Suite("PostgreSQL store reconnecting", .enabled(if: PostgreSQLTestKit.enabled, PostgreSQLTestKit.reason))
struct PostgreSQLStoreReconnectTests {
    /// Ends the server processes serving a schema's store (found by the schema name in their last query).
    private func dropConnections(of schema: String) throws -> Int {
        let ended = try PostgreSQLTestKit.psql(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND query LIKE '%\(schema)%'")
        return Int(ended) ?? 0
    }

    @Test("after the server drops the connection, saves and fetches go on over a new one")
    func reconnects() throws {
        let (url, coordinator) = try PostgreSQLTestKit.seeded()
        let schema = PostgreSQLTestKit.schema(of: url)
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            request.predicate = NSPredicate(format: "name == 'Ann'")
            let ann = try #require(try context.fetch(request).first)
            #expect(try dropConnections(of: schema) >= 1)
            ann.setValue(Int64(50), forKey: "age")
            var saved = false
            for _ in 0..<2 where !saved {
                do {
                    try context.save()
                    saved = true
                } catch let error as NSError {
                    // The save that met the dropped connection: an error, nothing written. (A row the version
                    // check before the save cannot read counts as a conflict there: 133020.)
                    #expect(error.domain == NSCocoaErrorDomain)
                    #expect(
                        [NSPersistentStoreSaveError, NSPersistentStoreOperationError, NSManagedObjectMergeError].contains(error.code), "\(error)")
                    #expect(try PostgreSQLTestKit.psql("SELECT count(*) FROM \"\(schema)\".\"ZPERSON\" WHERE \"ZAGE\" = 50") == "0")
                }
            }
            #expect(saved)
            request.predicate = NSPredicate(format: "age == 50")
            #expect(try context.fetch(request).count == 1)
        }
        #expect(try PostgreSQLTestKit.psql("SELECT \"ZNAME\" FROM \"\(schema)\".\"ZPERSON\" WHERE \"ZAGE\" = 50") == "Ann")
    }
}
