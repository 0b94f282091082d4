import Foundation
import Testing

@testable import OpenCoreDataCore

/// Real processes on a store: `ocd selftest store-worker` workers, and the `sqlite3` command-line tool
/// reading the file as an operator would.
enum StoreProcesses {
    /// What a finished process did.
    struct Result {
        let status: Int32
        let exited: Bool
        let output: String
        let error: String
    }

    /// The `sqlite3` tool (`.ci/run` installs it).
    static func sqlite3() throws -> URL {
        let found = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first { FileManager.default.isExecutableFile(atPath: $0) }
        return URL(fileURLWithPath: try #require(found, "the sqlite3 command-line tool is installed (apt-get install sqlite3)"))
    }

    /// Runs `executable` to its end.
    static func run(_ executable: URL, _ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, exited: process.terminationReason == .exit,
            output: String(decoding: out, as: UTF8.self), error: String(decoding: err, as: UTF8.self))
    }

    /// Runs `ocd` with `arguments` to its end.
    static func ocd(_ arguments: [String]) throws -> Result {
        try run(try QueryCommandTests.executable(), arguments)
    }

    /// Starts `ocd selftest store-worker` on `store` with `arguments`; its output goes to `log`.
    static func startWorker(store: URL, _ arguments: [String], log: URL) throws -> Process {
        let process = Process()
        process.executableURL = try QueryCommandTests.executable()
        process.arguments = ["selftest", "store-worker", "--store", store.path] + arguments
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

    /// What `sqlite3` prints for `sql` on the store, waiting up to ten seconds for a lock.
    static func sqlite(_ store: URL, _ sql: String) throws -> String {
        let result = try run(try sqlite3(), ["-cmd", ".timeout 10000", store.path, sql])
        #expect(result.status == 0, "sqlite3 failed on \(sql): \(result.error)")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The records of one worker by sequence, counted by `sqlite3`.
    static func recordCounts(_ store: URL, worker: Int) throws -> [Int: Int] {
        let text = try sqlite(store, "SELECT ZSEQUENCE, count(*) FROM ZRECORD WHERE ZWORKER = \(worker) GROUP BY 1")
        var counts: [Int: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "|").compactMap { Int($0) }
            if fields.count == 2 { counts[fields[0]] = fields[1] }
        }
        return counts
    }

    /// The acknowledged steps in an acknowledgement file.
    static func acknowledged(_ file: URL) -> [Int] {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { Int($0) }
    }
}
