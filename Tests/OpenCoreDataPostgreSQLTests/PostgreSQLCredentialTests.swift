import Foundation
import OpenCoreData
import OpenCoreDataPostgreSQL
import Testing

/// The password of a store's URL never appears in the SQL debug log, in errors' descriptions or in their
/// user info, on success or on any failure to connect.
@Suite(
    "PostgreSQL store credentials", .tags(.slow),
    .enabled(if: PostgreSQLTestKit.enabled && PostgreSQLPrivateCluster.available, PostgreSQLPrivateCluster.reason))
struct PostgreSQLCredentialTests {
    /// Every text an error carries: its descriptions, each user info key and value, and the same of the
    /// errors under it.
    private func texts(of error: NSError, depth: Int = 0) -> [String] {
        var texts = [error.localizedDescription, "\(error)", String(reflecting: error), error.domain]
        for (key, value) in error.userInfo {
            texts.append(key)
            texts.append("\(value)")
            texts.append(String(reflecting: value))
            if let underlying = value as? NSError, depth < 4 { texts += self.texts(of: underlying, depth: depth + 1) }
            if let errors = value as? [NSError], depth < 4 { texts += errors.flatMap { self.texts(of: $0, depth: depth + 1) } }
        }
        return texts
    }

    /// Opens a store at `url` with the SQL debug log on at level 3; returns the error and the log.
    private func failedOpen(_ url: URL) throws -> (NSError, [String]) {
        let recorder = SQLDebugLogRecorder()
        PostgreSQLStore.register()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: PostgreSQLTestKit.model())
        coordinator.sqlDebugLog = recorder.log(level: 3)
        let error = try #require(throws: NSError.self) { _ = try coordinator.addPersistentStore(type: .postgreSQL, at: url) }
        return (error, recorder.messages)
    }

    /// `url` with another password.
    private func url(_ url: URL, password: String) throws -> URL {
        var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        components.password = password
        return try #require(components.url)
    }

    @Test("a store used with the SQL debug log at level 3 never logs the password, nor shows it in its URL")
    func successfulUse() throws {
        let password = try #require(try PostgreSQLTestKit.server().password)
        #expect(password.count >= 8)
        let recorder = SQLDebugLogRecorder()
        PostgreSQLStore.register()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: PostgreSQLTestKit.model())
        coordinator.sqlDebugLog = recorder.log(level: 3)
        let store = try coordinator.addPersistentStore(type: .postgreSQL, at: try PostgreSQLTestKit.newStoreURL())
        try PostgreSQLTestKit.seed(coordinator)
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            #expect(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).count == 5)
        }
        let messages = recorder.messages
        #expect(messages.contains { $0.hasPrefix("CoreData: annotation: Connecting to PostgreSQL store at postgres://ocd@127.0.0.1") })
        #expect(messages.count > 20)
        #expect(!messages.contains { $0.contains(password) })
        #expect(store.url?.absoluteString.contains(password) == false)
        #expect(!"\(store.url as Any)".contains(password))
    }

    @Test("a wrong password: the error says authentication failed and shows neither password")
    func wrongPassword() throws {
        let right = try #require(try PostgreSQLTestKit.server().password)
        let wrong = "Wr0ng-" + UUID().uuidString
        let (error, messages) = try failedOpen(try url(try PostgreSQLTestKit.newStoreURL(), password: wrong))
        #expect(error.code == NSPersistentStoreOpenError)
        #expect(error.localizedDescription.contains("password authentication failed"))
        #expect(error.localizedDescription.contains("postgres://ocd@127.0.0.1"))
        let texts = texts(of: error)
        #expect(texts.count > 4)
        #expect(!texts.contains { $0.contains(wrong) || $0.contains(right) }, "\(texts)")
        #expect(!messages.contains { $0.contains(wrong) || $0.contains(right) })
    }

    @Test("an unreachable server: the error names the host and port, not the password")
    func unreachable() throws {
        let password = "Unr3achable-" + UUID().uuidString
        let url = try #require(URL(string: "postgres://ocd:\(password)@127.0.0.1:\(try HelperProcess.freePort())/nowhere"))
        let (error, messages) = try failedOpen(url)
        #expect(error.code == NSPersistentStoreOpenError)
        #expect(error.localizedDescription.contains("cannot reach the server"), "\(error.localizedDescription)")
        #expect(error.userInfo[NSUnderlyingErrorKey] is NSError)
        #expect(!texts(of: error).contains { $0.contains(password) })
        #expect(!messages.contains { $0.contains(password) })
    }

    @Test("a TLS failure (sslmode=require against a server without TLS) shows no password")
    func tlsFailure() throws {
        let password = try #require(try PostgreSQLTestKit.server().password)
        let (error, messages) = try failedOpen(try PostgreSQLTestKit.url(try PostgreSQLTestKit.newStoreURL(), adding: ["sslmode": "require"]))
        #expect(error.code == NSPersistentStoreOpenError)
        #expect(error.localizedDescription.contains("TLS/SSL"))
        #expect(!texts(of: error).contains { $0.contains(password) })
        #expect(!messages.contains { $0.contains(password) })
    }

    @Test("a failed save and a failed fetch after the connection drops show no password")
    func failedRequests() throws {
        let cluster = try PostgreSQLPrivateCluster.start()
        defer { cluster.destroy() }
        let recorder = SQLDebugLogRecorder()
        PostgreSQLStore.register()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: PostgreSQLTestKit.model())
        coordinator.sqlDebugLog = recorder.log(level: 3)
        _ = try coordinator.addPersistentStore(type: .postgreSQL, at: try cluster.storeURL())
        try PostgreSQLTestKit.seed(coordinator)
        try cluster.stop()
        let context = PostgreSQLTestKit.context(coordinator)
        let errors = context.performAndWait { () -> [NSError] in
            var errors: [NSError] = []
            do { _ = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")) } catch { errors.append(error as NSError) }
            NSEntityDescription.insertNewObject(forEntityName: "Person", into: context).setValue("Jo", forKey: "name")
            do { try context.save() } catch { errors.append(error as NSError) }
            return errors
        }
        #expect(errors.count == 2)
        #expect(!errors.flatMap { texts(of: $0) }.contains { $0.contains(cluster.password) })
        #expect(recorder.messages.count > 10)
        #expect(!recorder.messages.contains { $0.contains(cluster.password) })
    }
}
