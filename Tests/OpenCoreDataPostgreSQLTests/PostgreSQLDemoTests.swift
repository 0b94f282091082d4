import Foundation
import Testing

/// `ocd demo --store postgres://…`: the README's main job against a PostgreSQL server, run by the built
/// `ocd` as a real process, giving what it gives on a SQLite file.
@Suite("ocd demo on a PostgreSQL store", .enabled(if: PostgreSQLTestKit.enabled, PostgreSQLTestKit.reason))
struct PostgreSQLDemoTests {
    /// The demo's output without its timings and without the line naming the store, which differ from
    /// run to run and from store to store.
    static func results(_ output: String) throws -> [String] {
        let duration = try Regex(#"[0-9][0-9.e+-]* (seconds|ms|µs|ns)"#)
        return output.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("Store: ") }
            .map { String($0).replacing(duration, with: "<time>") }
    }

    @Test("runs twice against a new schema, the second run replacing the first's users; every query answers as on SQLite", .tags(.slow))
    func demoTwice() throws {
        let url = try PostgreSQLTestKit.newStoreURL()
        let schema = PostgreSQLTestKit.schema(of: url)
        let ocd = try BuiltExecutables.url("ocd")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-pg-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let sqlite = directory.appendingPathComponent("demo.sqlite").path

        var postgres: [String] = []
        var files: [String] = []
        for _ in 1...2 {
            let run = try BuiltExecutables.run(ocd, ["demo", "--store", url.absoluteString], in: directory)
            #expect(run.status == 0, "ocd demo --store postgres://…: \(run.output)")
            postgres.append(run.output)
            let file = try BuiltExecutables.run(ocd, ["demo", "--store", sqlite], in: directory)
            #expect(file.status == 0, "ocd demo --store demo.sqlite: \(file.output)")
            files.append(file.output)
        }
        #expect(postgres[0].contains("Store: postgres://"))
        #expect(postgres[0].contains("  0 user(s) from an earlier run"))
        #expect(postgres[1].contains("  300 user(s) from an earlier run"))
        #expect(postgres[1].contains("delete them: "))
        #expect(postgres[0].contains("300 users, 1350 posts saved"))
        for title in ["fetchUserByEmail", "complex fetch", "fetchActiveUsersWithPosts", "users without an email"] {
            #expect(postgres[1].contains(title))
        }
        let password = try #require(try PostgreSQLTestKit.server().password)
        #expect(!postgres.joined().contains(password))
        for run in 0..<2 {
            let (onServer, onFile) = (try Self.results(postgres[run]), try Self.results(files[run]))
            #expect(onServer == onFile, "run \(run + 1) differs:\n\(postgres[run])\n---- SQLite:\n\(files[run])")
        }
        // The second run replaced the first's rows: 300 users and their posts, keys after the first run's.
        #expect(try PostgreSQLTestKit.psql("SELECT count(*), min(\"Z_PK\") FROM \"\(schema)\".\"ZUSER\"") == "300|301")
        #expect(try PostgreSQLTestKit.psql("SELECT count(*) FROM \"\(schema)\".\"ZPOST\"") == "1350")
    }

    @Test("a postgresql:// URL that names no database is refused with the store's message")
    func badURL() throws {
        let ocd = try BuiltExecutables.url("ocd")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-pg-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try BuiltExecutables.run(ocd, ["demo", "--store", "postgresql://user@127.0.0.1:1/"], in: directory)
        #expect(run.status != 0)
        #expect(run.output.contains("must name one database"), "\(run.output)")
    }
}
