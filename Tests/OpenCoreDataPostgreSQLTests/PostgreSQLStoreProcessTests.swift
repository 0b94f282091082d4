import Foundation
import Testing

/// Several processes on one database, as several servers of a deployment: `ocd-postgres-worker` nodes
/// saving at once.
@Suite("PostgreSQL store shared between processes", .enabled(if: PostgreSQLTestKit.enabled, PostgreSQLTestKit.reason))
struct PostgreSQLStoreProcessTests {
    /// The worker executable, built beside the tests.
    static func worker() throws -> URL {
        try BuiltExecutables.url("ocd-postgres-worker")
    }

    /// Starts a worker; its output and errors go to files read when it ends.
    private static func start(_ arguments: [String], log: URL) throws -> Process {
        let process = Process()
        process.executableURL = try worker()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    @Test("two processes save into one database: no key given twice, no lost update, each sees the other's rows", .tags(.slow))
    func twoWorkers() throws {
        let url = try PostgreSQLTestKit.newStoreURL()
        let schema = PostgreSQLTestKit.schema(of: url)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-pg-workers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let setup = try Self.start([url.absoluteString, "init"], log: directory.appendingPathComponent("init.log"))
        setup.waitUntilExit()
        #expect(
            setup.terminationStatus == 0, "init: \((try? String(contentsOf: directory.appendingPathComponent("init.log"), encoding: .utf8)) ?? "")")

        let records = 150
        let workers = try (1...2).map { number in
            try Self.start(
                [url.absoluteString, "work", "\(number)", "\(records)", "15", "\(records)"],
                log: directory.appendingPathComponent("worker-\(number).log"))
        }
        var keys: [[String]] = []
        for (index, process) in workers.enumerated() {
            process.waitUntilExit()
            let log = (try? String(contentsOf: directory.appendingPathComponent("worker-\(index + 1).log"), encoding: .utf8)) ?? ""
            #expect(process.terminationStatus == 0, "worker \(index + 1): \(log)")
            #expect(log.contains("saw \(records)"), "worker \(index + 1): \(log)")
            let line = log.split(separator: "\n").first { $0.hasPrefix("keys ") }
            keys.append(line.map { $0.dropFirst(5).split(separator: ",").map(String.init) } ?? [])
        }
        #expect(keys.map(\.count) == [records, records])
        #expect(Set(keys.joined()).count == 2 * records)
        #expect(
            try PostgreSQLTestKit.psql("SELECT count(*), count(DISTINCT \"Z_PK\") FROM \"\(schema)\".\"ZRECORD\"") == "\(2 * records)|\(2 * records)")
        #expect(try PostgreSQLTestKit.psql("SELECT \"Z_MAX\" FROM \"\(schema)\".\"Z_PRIMARYKEY\" WHERE \"Z_NAME\" = 'Record'") == "\(2 * records)")
        // Twenty additions, none lost, each a new version.
        #expect(try PostgreSQLTestKit.psql("SELECT \"ZVALUE\" || ':' || \"Z_OPT\" FROM \"\(schema)\".\"ZCOUNTER\"") == "20:21")
    }
}
