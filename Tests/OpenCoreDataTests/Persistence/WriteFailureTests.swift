import Foundation
import Testing

@testable import OpenCoreDataCore

/// A save the file system refuses (here a file size limit, `RLIMIT_FSIZE`, in a child process that
/// ignores `SIGXFSZ`, so the write fails with `EFBIG` as it would on a full disk): the save throws
/// Core Data's error naming the file, nothing of it reaches the store, the context keeps its changes,
/// and the same save succeeds once the limit is raised.
@Suite("Saves the file system refuses", .tags(.slow))
struct WriteFailureTests {
    @Test("a write failure throws 134180 with the SQLite code, keeps the changes, and a retry saves them", arguments: ["wal", "delete"])
    func fileSizeLimit(journalMode: String) throws {
        let directory = try TestScratch.directory("write-failure")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = directory.appendingPathComponent("Limited.sqlite")
        let result = try StoreProcesses.ocd(["selftest", "write-failure", "--store", store.path, "--journal-mode", journalMode])
        #expect(result.exited && result.status == 0, "\(result.output)\n\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        let failure = try #require(lines.first { $0.hasPrefix("failed ") }, "\(result.output)")
        #expect(failure.contains("domain=NSCocoaErrorDomain code=\(NSSQLiteError) "), "\(failure)")
        #expect(failure.contains(" changes=kept "), "\(failure)")
        #expect(failure.contains(store.path), "the error names the file: \(failure)")
        #expect(!failure.contains("sqlite=none"), "\(failure)")
        #expect(lines.contains("retried saved=200"), "\(result.output)")
        #expect(try StoreProcesses.sqlite(store, "PRAGMA integrity_check; SELECT count(*) FROM ZRECORD") == "ok\n200")
    }
}
