import Foundation
import OpenCoreData
import OpenCoreDataPostgreSQL
import Testing

/// Opening a PostgreSQL store: the layout a new schema gets, reopening it, and the errors of bad
/// locations, unreachable servers, wrong passwords and other models.
@Suite("PostgreSQL store opening", .enabled(if: PostgreSQLTestKit.enabled, PostgreSQLTestKit.reason))
struct PostgreSQLStoreOpeningTests {
    @Test("the store type is PostgreSQL")
    func storeType() throws {
        #expect(PostgreSQLStoreType == "PostgreSQL")
        #expect(NSPersistentStore.StoreType.postgreSQL.rawValue == "PostgreSQL")
        PostgreSQLStore.register()
        #expect(NSPersistentStoreCoordinator.registeredStoreTypes["PostgreSQL"] != nil)
    }

    @Test("a new schema gets Core Data's tables, which psql can query")
    func createsLayout() throws {
        let url = try PostgreSQLTestKit.newStoreURL()
        let coordinator = try PostgreSQLTestKit.open(url)
        let store = try #require(coordinator.persistentStores.first)
        #expect(store.type == PostgreSQLStoreType)
        #expect(store.url?.absoluteString.contains(":\(try PostgreSQLTestKit.server().password ?? "-")@") == false)
        let schema = PostgreSQLTestKit.schema(of: url)
        let tables = try PostgreSQLTestKit.psql(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = '\(schema)'")
        #expect(tables.split(separator: "\n").sorted() == ["ZNOTE", "ZPERSON", "ZTAG", "Z_2TAGS", "Z_METADATA", "Z_PRIMARYKEY"])
        let columns = try PostgreSQLTestKit.psql(
            "SELECT column_name || ' ' || data_type FROM information_schema.columns WHERE table_schema = '\(schema)' AND table_name = 'ZPERSON' ORDER BY ordinal_position"
        )
        #expect(columns.contains("Z_PK bigint"))
        #expect(columns.contains("ZNAME text"))
        #expect(columns.contains("ZJOINED double precision"))
        #expect(columns.contains("ZSALARY integer"))
        #expect(columns.contains("ZBALANCE numeric"))
        let entities = try PostgreSQLTestKit.psql("SELECT \"Z_ENT\" || ':' || \"Z_NAME\" FROM \"\(schema)\".\"Z_PRIMARYKEY\" ORDER BY 1")
        #expect(entities.split(separator: "\n") == ["1:Employee", "2:Note", "3:Person", "4:Tag"])
    }

    @Test("reopening reads the layout and the store keeps its identifier")
    func reopens() throws {
        let url = try PostgreSQLTestKit.newStoreURL()
        let first = try PostgreSQLTestKit.open(url)
        let identifier = try #require(first.persistentStores.first?.identifier)
        let second = try PostgreSQLTestKit.open(url)
        #expect(second.persistentStores.first?.identifier == identifier)
        let hashes = second.persistentStores.first?.metadata[NSStoreModelVersionHashesKey] as? [String: Data]
        #expect(hashes == PostgreSQLTestKit.model().entityVersionHashesByName)
    }

    @Test("another model fails with 134100 and changes nothing")
    func otherModel() throws {
        let (url, _) = try PostgreSQLTestKit.seeded()
        let schema = PostgreSQLTestKit.schema(of: url)
        let before = try PostgreSQLTestKit.psql("SELECT count(*) FROM \"\(schema)\".\"ZPERSON\"")
        let error = try #require(throws: NSError.self) {
            _ = try PostgreSQLTestKit.open(url, model: PostgreSQLTestKit.model(extraAttribute: "nickname"))
        }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSPersistentStoreIncompatibleVersionHashError)
        #expect(try PostgreSQLTestKit.psql("SELECT count(*) FROM \"\(schema)\".\"ZPERSON\"") == before)
        let columns = try PostgreSQLTestKit.psql(
            "SELECT count(*) FROM information_schema.columns WHERE table_schema = '\(schema)' AND column_name = 'ZNICKNAME'")
        #expect(columns == "0")
    }

    @Test("a URL that is not a PostgreSQL one fails with a clear error")
    func badURL() throws {
        for text in ["file:///tmp/x.sqlite", "postgres://127.0.0.1/db", "postgres://user@127.0.0.1", "postgres://user@127.0.0.1/db?color=red"] {
            let url = try #require(URL(string: text))
            let error = try #require(throws: NSError.self) { _ = try PostgreSQLTestKit.open(url) }
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSPersistentStoreInvalidTypeError)
            #expect(error.localizedDescription.contains("PostgreSQL store"))
        }
    }

    @Test("an unreachable server fails with NSPersistentStoreOpenError naming the store, without the password")
    func unreachable() throws {
        // A port nothing listens on: bound, then released.
        let url = try #require(URL(string: "postgres://ocd:hunter2secret@127.0.0.1:\(try Self.freePort())/nowhere"))
        let error = try #require(throws: NSError.self) { _ = try PostgreSQLTestKit.open(url) }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSPersistentStoreOpenError)
        #expect(error.localizedDescription.contains("PostgreSQL store at postgres://ocd@127.0.0.1"))
        #expect(!"\(error)".contains("hunter2secret"))
    }

    @Test("a wrong password fails with NSPersistentStoreOpenError, the password never in the error")
    func wrongPassword() throws {
        var components = try #require(URLComponents(url: try PostgreSQLTestKit.server(), resolvingAgainstBaseURL: false))
        components.password = "wrong-password-42"
        let url = try #require(components.url)
        let error = try #require(throws: NSError.self) { _ = try PostgreSQLTestKit.open(url) }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSPersistentStoreOpenError)
        #expect(error.localizedDescription.contains("password authentication failed"))
        #expect(!"\(error)".contains("wrong-password-42"))
    }

    /// A TCP port on the loopback interface that nothing listens on.
    static func freePort() throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try #require(Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
    }
}
