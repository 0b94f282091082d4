import Foundation
import OpenCoreData
import OpenCoreDataPostgreSQL
import Testing

/// The store's pool of connections (`PostgreSQLStore.connectionPoolSizeKey`): as many requests at once as
/// the pool has connections, never more connections than that, and a clear error for a size it cannot use.
@Suite("PostgreSQL store connection pool", .enabled(if: PostgreSQLTestKit.enabled, PostgreSQLTestKit.reason), .tags(.slow))
struct PostgreSQLConnectionPoolTests {
    /// The store's connections the server has, and those of them waiting for a lock, as `total|waiting`.
    private func connections(_ name: String) throws -> (total: Int, waiting: Int) {
        let row = try PostgreSQLTestKit.psql(
            "SELECT count(*) || '|' || count(*) FILTER (WHERE wait_event_type = 'Lock') FROM pg_stat_activity WHERE application_name = '\(name)'")
        let parts = row.split(separator: "|").compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : (-1, -1)
    }

    /// Opens the store at `url` under the application name `name`, with the pool size option when given.
    private func open(_ url: URL, name: String, poolSize: Any?) throws -> NSPersistentStoreCoordinator {
        PostgreSQLStore.register()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: PostgreSQLTestKit.model())
        let options: [AnyHashable: Any]? = poolSize.map { [PostgreSQLStore.connectionPoolSizeKey: $0] }
        _ = try coordinator.addPersistentStore(
            type: .postgreSQL, at: try PostgreSQLTestKit.url(url, adding: ["application_name": name]), options: options)
        return coordinator
    }

    @Test(
        "with a pool of N, N fetches from N+2 contexts run at once at the server and no more connections open",
        arguments: [nil, 1, 4] as [Int?])
    func concurrentFetches(poolSize: Int?) throws {
        let size = poolSize ?? PostgreSQLStore.defaultConnectionPoolSize
        let (url, _) = try PostgreSQLTestKit.seeded()
        let schema = PostgreSQLTestKit.schema(of: url)
        let name = PostgreSQLTestKit.applicationName("ocd_pool")
        let coordinator = try open(url, name: name, poolSize: poolSize.map { NSNumber(value: $0) })
        #expect(try connections(name).total == 1, "the store opens one connection to begin with")

        // Another session locks the people's table, so that every fetch of people waits at the server.
        let locker = PostgreSQLTestKit.applicationName("ocd_lock")
        let holder = try PostgreSQLTestKit.psqlInBackground(
            "BEGIN; LOCK TABLE \"\(schema)\".\"ZPERSON\" IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(120); COMMIT;", applicationName: locker)
        func release() throws {
            _ = try PostgreSQLTestKit.psql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '\(locker)'")
            _ = holder.wait()
        }
        var released = false
        defer { if !released { try? release() } }
        #expect(
            try eventually {
                try PostgreSQLTestKit.psql(
                    "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE a.application_name = '\(locker)' AND l.mode = 'AccessExclusiveLock' AND l.granted AND l.relation = '\"\(schema)\".\"ZPERSON\"'::regclass"
                ) == "1"
            })

        let fetchers = size + 2
        let counts = Locked<[Int]>([])
        let threads = TestThreads(fetchers) { _ in
            let context = PostgreSQLTestKit.context(coordinator)
            let count = context.performAndWait { (try? context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).count) ?? -1 }
            counts.withLock { $0.append(count) }
        }
        var most = 0
        var waiting = 0
        let reached = try eventually {
            let now = try connections(name)
            most = max(most, now.total)
            waiting = now.waiting
            return waiting == size
        }
        // A while longer: the other fetches queue for a connection rather than open more.
        for _ in 0..<10 {
            Thread.sleep(forTimeInterval: 0.05)
            most = max(most, try connections(name).total)
        }
        #expect(reached, "\(waiting) of the pool's \(size) connections waited at the server")
        #expect(most == size, "the store opened \(most) connections with a pool of \(size)")
        #expect(counts.withLock { $0.isEmpty }, "no fetch ends while the table is locked")

        try release()
        released = true
        try #require(threads.wait(seconds: 60), "every fetch ends once the table is unlocked")
        #expect(counts.withLock { $0 } == Array(repeating: 5, count: fetchers))
        #expect(try connections(name).total == size, "the pool keeps its connections open")
    }

    @Test("a pool of 1 serves a save and fetches from other contexts one after another")
    func poolOfOne() throws {
        let (url, _) = try PostgreSQLTestKit.seeded()
        let name = PostgreSQLTestKit.applicationName("ocd_pool1")
        let coordinator = try open(url, name: name, poolSize: 1)
        let failures = Locked<[String]>([])
        let threads = TestThreads(6) { index in
            let context = PostgreSQLTestKit.context(coordinator)
            context.performAndWait {
                do {
                    if index % 2 == 0 {
                        let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
                        person.setValue("Pool \(index)", forKey: "name")
                        try context.save()
                    } else {
                        _ = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        try #require(threads.wait(seconds: 60))
        #expect(failures.withLock { $0 } == [])
        #expect(try connections(name).total == 1)
        let schema = PostgreSQLTestKit.schema(of: url)
        #expect(try PostgreSQLTestKit.psql("SELECT count(*) FROM \"\(schema)\".\"ZPERSON\" WHERE \"ZNAME\" LIKE 'Pool %'") == "3")
    }

    @Test("a pool size of 1 to 100, as a number or its text, opens the store")
    func goodSizes() throws {
        for value in [NSNumber(value: 1), NSNumber(value: 100), "8" as Any, 3 as Any] {
            let name = PostgreSQLTestKit.applicationName("ocd_size")
            #expect(throws: Never.self, "\(value)") { _ = try open(try PostgreSQLTestKit.newStoreURL(), name: name, poolSize: value) }
        }
    }

    @Test("a pool size outside 1–100 or not a whole number fails the opening with 134000 naming the option")
    func badSizes() throws {
        let values: [Any] = [NSNumber(value: 0), NSNumber(value: 101), NSNumber(value: -1), NSNumber(value: 2.5), "many", "0", Date()]
        for value in values {
            let url = try PostgreSQLTestKit.newStoreURL()
            let name = PostgreSQLTestKit.applicationName("ocd_bad")
            let error = try #require(throws: NSError.self, "\(value)") { _ = try open(url, name: name, poolSize: value) }
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSPersistentStoreInvalidTypeError, "\(value): \(error)")
            #expect(error.localizedDescription.contains(PostgreSQLStore.connectionPoolSizeKey), "\(error.localizedDescription)")
            #expect(try connections(name).total == 0, "a size it cannot use opens no connection")
            let schemas = try PostgreSQLTestKit.psql(
                "SELECT count(*) FROM information_schema.schemata WHERE schema_name = '\(PostgreSQLTestKit.schema(of: url))'")
            #expect(schemas == "0", "nor creates the schema")
        }
    }
}
