import Foundation
import Testing

@testable import OpenCoreDataCore

/// Store workers killed with SIGKILL at random moments, in the middle of saves, batch requests, counter
/// increments, lightweight migrations (in place and by copying tables) and a migration manager's
/// migration followed by `replacePersistentStore(at:…)`, in WAL and rollback journal modes: every store
/// opens and passes SQLite's integrity check, and every acknowledged step is in it whole
/// (`ocd selftest crash-trials`; `Benchmarks/crash-trials.sh` runs a thousand).
@Suite("Crashes in the middle of work", .tags(.slow))
struct CrashTrialTests {
    @Test("a few dozen kill trials lose nothing and tear nothing")
    func killTrials() throws {
        let result = try StoreProcesses.ocd(["selftest", "crash-trials", "--trials", "36", "--seed", "20261202"])
        #expect(result.exited && result.status == 0, "\(result.output)\n\(result.error)")
        #expect(result.output.contains(" 0 lost, 0 torn, 0 failed to open"), "\(result.output)")
        let summary = result.output.split(separator: "\n").last.map(String.init) ?? ""
        #expect(summary.hasPrefix("36 trials: "), "\(summary)")
    }
}
