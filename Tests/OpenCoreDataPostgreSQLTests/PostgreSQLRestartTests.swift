import Foundation
import OpenCoreData
import OpenCoreDataPostgreSQL
import Testing

// Foundation declares these names too; the store speaks OpenCoreData's.
private typealias NSPredicate = OpenCoreData.NSPredicate

/// A server that restarts or goes down under an open store, on a cluster of the test's own: the next
/// request after the restart goes through on a new connection; a save the server's going down interrupts
/// fails with 134030 and its cause, writes nothing, and succeeds once the server is back.
@Suite(
    "PostgreSQL store across server restarts", .serialized, .tags(.slow),
    .enabled(if: PostgreSQLTestKit.enabled && PostgreSQLPrivateCluster.available, PostgreSQLPrivateCluster.reason))
struct PostgreSQLRestartTests {
    /// Ann's age and the number of people, as `age|count`, read with psql.
    private func annAndCount(_ cluster: PostgreSQLPrivateCluster, _ schema: String) throws -> String {
        try cluster.psql(
            "SELECT coalesce((SELECT \"ZAGE\"::text FROM \"\(schema)\".\"ZPERSON\" WHERE \"ZNAME\" = 'Ann'), '-') || '|' || (SELECT count(*) FROM \"\(schema)\".\"ZPERSON\")"
        )
    }

    /// Saves `context` on a thread of its own; the thread, and the save's error once it ends (`.some(nil)`
    /// for a save that succeeded).
    private func saveOnAThread(_ context: NSManagedObjectContext) -> (TestThreads, Locked<NSError??>) {
        let outcome = Locked<NSError??>(nil)
        let saver = TestThreads(1) { _ in
            let error = context.performAndWait { () -> NSError? in
                do {
                    try context.save()
                    return nil
                } catch {
                    return error as NSError
                }
            }
            outcome.withLock { $0 = .some(error) }
        }
        return (saver, outcome)
    }

    /// Expects a save's error to be the store's failure to save: 134030 with the cause underneath, not a
    /// merge conflict.
    private func expectSaveFailure(_ error: NSError?, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let error else {
            Issue.record("the save succeeded", sourceLocation: sourceLocation)
            return
        }
        #expect(error.domain == NSCocoaErrorDomain, sourceLocation: sourceLocation)
        #expect(error.code == NSPersistentStoreSaveError, "\(error)", sourceLocation: sourceLocation)
        #expect(error.userInfo[NSUnderlyingErrorKey] is NSError, "\(error.userInfo)", sourceLocation: sourceLocation)
        #expect(error.localizedDescription.contains("nothing was written"), "\(error.localizedDescription)", sourceLocation: sourceLocation)
    }

    private func fetchAnn(_ context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = NSPredicate(format: "name == 'Ann'")
        return try #require(try context.fetch(request).first)
    }

    @Test("after a restart, the next fetch and save go through on new connections")
    func restart() throws {
        let cluster = try PostgreSQLPrivateCluster.start()
        defer { cluster.destroy() }
        let url = try cluster.storeURL()
        let schema = PostgreSQLTestKit.schema(of: url)
        let coordinator = try PostgreSQLTestKit.open(url)
        try PostgreSQLTestKit.seed(coordinator)
        #expect(try annAndCount(cluster, schema) == "31|5")

        try cluster.restart()
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            let ann = try fetchAnn(context)
            #expect(ann.value(forKey: "age") as? Int64 == 31)
            ann.setValue(Int64(32), forKey: "age")
            try context.save()
        }
        #expect(try annAndCount(cluster, schema) == "32|5")

        // Once more, with a save (an insert and an update) as the first request after the restart.
        try cluster.restart()
        try context.performAndWait { () throws -> Void in
            try fetchAnn(context).setValue(Int64(33), forKey: "age")
            NSEntityDescription.insertNewObject(forEntityName: "Person", into: context).setValue("Fay", forKey: "name")
            try context.save()
        }
        #expect(try annAndCount(cluster, schema) == "33|6")
    }

    @Test("a save while the server is down fails with 134030, writes nothing, and succeeds once it is back")
    func saveWhileDown() throws {
        let cluster = try PostgreSQLPrivateCluster.start()
        defer { cluster.destroy() }
        let url = try cluster.storeURL()
        let schema = PostgreSQLTestKit.schema(of: url)
        let coordinator = try PostgreSQLTestKit.open(url)
        try PostgreSQLTestKit.seed(coordinator)
        let context = PostgreSQLTestKit.context(coordinator)
        for inserting in [false, true] {
            let age = Int64(inserting ? 41 : 40)
            try context.performAndWait { () throws -> Void in
                try fetchAnn(context).setValue(age, forKey: "age")
                if inserting { NSEntityDescription.insertNewObject(forEntityName: "Person", into: context).setValue("Gus", forKey: "name") }
            }
            let before = try annAndCount(cluster, schema)
            try cluster.stop()
            let error = context.performAndWait { () -> NSError? in
                do {
                    try context.save()
                    return nil
                } catch {
                    return error as NSError
                }
            }
            expectSaveFailure(error)
            try cluster.startAgain()
            #expect(try annAndCount(cluster, schema) == before, "nothing of the failed save is written")
            try context.performAndWait { try context.save() }
            #expect(try annAndCount(cluster, schema) == "\(age)|\(inserting ? 6 : 5)")
        }
    }

    @Test("a save under way when the server stops fails with 134030, writes nothing, and succeeds once it is back")
    func saveInFlight() throws {
        let cluster = try PostgreSQLPrivateCluster.start()
        defer { cluster.destroy() }
        let name = PostgreSQLTestKit.applicationName("ocd_inflight")
        let url = try cluster.storeURL(["application_name": name])
        let schema = PostgreSQLTestKit.schema(of: url)
        let coordinator = try PostgreSQLTestKit.open(url)
        try PostgreSQLTestKit.seed(coordinator)
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            try fetchAnn(context).setValue(Int64(50), forKey: "age")
            NSEntityDescription.insertNewObject(forEntityName: "Person", into: context).setValue("Hal", forKey: "name")
        }
        // Another session holds Ann's row, so that the save, having inserted Hal, waits to update her.
        let locker = PostgreSQLTestKit.applicationName("ocd_rowlock")
        let holder = try cluster.psqlInBackground(
            "BEGIN; SELECT 1 FROM \"\(schema)\".\"ZPERSON\" WHERE \"ZNAME\" = 'Ann' FOR UPDATE; SELECT pg_sleep(120); COMMIT;",
            applicationName: locker)
        defer {
            // Ends psql at once if the test stops early (the cluster's own end ends its session).
            holder.terminate()
            _ = holder.wait()
        }
        #expect(
            try eventually {
                try cluster.psql(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(locker)' AND query LIKE '%pg_sleep%' AND wait_event = 'PgSleep'"
                ) == "1"
            })

        let (saver, outcome) = saveOnAThread(context)
        let waited = try eventually {
            try cluster.psql(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(name)' AND wait_event_type = 'Lock' AND query LIKE 'UPDATE%'")
                == "1"
        }
        #expect(waited, "the save waits for Ann's row")
        #expect(try cluster.psql("SELECT count(*) FROM \"\(schema)\".\"ZPERSON\" WHERE \"ZNAME\" = 'Hal'") == "0")
        // At once: a fast shutdown ends the lock's holder first now and then, and the save, given the row,
        // could commit before its own session is ended.
        try cluster.stop(immediately: true)
        try #require(saver.wait(seconds: 60), "the save ends when the server stops")
        expectSaveFailure(outcome.withLock { $0 } ?? nil)
        try cluster.startAgain()
        #expect(try annAndCount(cluster, schema) == "31|5", "neither Hal nor Ann's new age is written")
        try context.performAndWait { try context.save() }
        #expect(try annAndCount(cluster, schema) == "50|6")
    }

    @Test("a save whose connection the server ends mid-transaction fails with 134030 and writes nothing; the next one succeeds")
    func terminatedBackend() throws {
        let (url, _) = try PostgreSQLTestKit.seeded()
        let schema = PostgreSQLTestKit.schema(of: url)
        let name = PostgreSQLTestKit.applicationName("ocd_terminated")
        let store = try PostgreSQLTestKit.url(url, adding: ["application_name": name])
        let writer = try PostgreSQLTestKit.open(store)
        let context = PostgreSQLTestKit.context(writer)
        try context.performAndWait { () throws -> Void in
            try fetchAnn(context).setValue(Int64(60), forKey: "age")
            NSEntityDescription.insertNewObject(forEntityName: "Person", into: context).setValue("Ida", forKey: "name")
        }
        let locker = PostgreSQLTestKit.applicationName("ocd_rowlock")
        let holder = try PostgreSQLTestKit.psqlInBackground(
            "BEGIN; SELECT 1 FROM \"\(schema)\".\"ZPERSON\" WHERE \"ZNAME\" = 'Ann' FOR UPDATE; SELECT pg_sleep(120); COMMIT;",
            applicationName: locker)
        func release() {
            _ = try? PostgreSQLTestKit.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(locker)'")
            _ = holder.wait()
        }
        var released = false
        defer { if !released { release() } }
        #expect(
            try eventually {
                try PostgreSQLTestKit.psql("SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(locker)' AND wait_event = 'PgSleep'")
                    == "1"
            })
        let (saver, outcome) = saveOnAThread(context)
        #expect(
            try eventually {
                try PostgreSQLTestKit.psql(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = '\(name)' AND wait_event_type = 'Lock' AND query LIKE 'UPDATE%'")
                    == "1"
            })
        #expect(
            try PostgreSQLTestKit.psql(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = '\(name)' AND wait_event_type = 'Lock'")
                == "1")
        try #require(saver.wait(seconds: 60))
        release()
        released = true
        expectSaveFailure(outcome.withLock { $0 } ?? nil)
        #expect(try PostgreSQLTestKit.psql("SELECT count(*) FROM \"\(schema)\".\"ZPERSON\" WHERE \"ZNAME\" = 'Ida' OR \"ZAGE\" = 60") == "0")
        try context.performAndWait { try context.save() }
        #expect(try PostgreSQLTestKit.psql("SELECT count(*) FROM \"\(schema)\".\"ZPERSON\" WHERE \"ZNAME\" = 'Ida' OR \"ZAGE\" = 60") == "2")
    }
}
