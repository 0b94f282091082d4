import ArgumentParser
import OpenCoreData

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `ocd selftest crash-trials [--trials N] [--seed S] [--operations a,b,…]`: kills store workers with
/// SIGKILL at random moments and checks what each left (``CrashTrialCheck``), then prints the figures:
/// trials, acknowledged steps, lost, torn and unopenable stores, per operation and journal mode. Exits
/// with status 1 when anything was lost or torn or a store did not open.
struct CrashTrials: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash-trials",
        abstract: "Kill store workers at random moments and check that no acknowledged save is lost."
    )

    @Option(help: "How many kill trials to run, spread over the operations and journal modes.")
    var trials: Int = 1000

    @Option(help: "The seed of the random kill moments (random when absent).")
    var seed: UInt64?

    @Option(help: "Comma-separated operations (default: all).")
    var operations: String = StoreWork.Operation.allCases.map(\.rawValue).joined(separator: ",")

    @Option(help: "Comma-separated journal modes to alternate: wal, delete.")
    var journalModes: String = "wal,delete"

    @Option(help: "Set-up sequences of records in each store (what migrations and batch deletes work on).")
    var setUpRows: Int = 300

    @Flag(help: "Print each trial.")
    var verbose = false

    func run() throws {
        let operations = try self.operations.split(separator: ",").map { name in
            guard let operation = StoreWork.Operation(rawValue: String(name)) else {
                throw ValidationError("Unknown operation \"\(name)\".")
            }
            return operation
        }
        let modes = journalModes.split(separator: ",").map(String.init)
        guard !operations.isEmpty, !modes.isEmpty, modes.allSatisfy({ ["wal", "delete"].contains($0) }) else {
            throw ValidationError("Give at least one operation and journal modes among wal, delete.")
        }
        let seed = self.seed ?? UInt64.random(in: 1...UInt64.max)
        var random = SplitMix64(seed: seed)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ocd-crash-trials-\(getpid())", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }

        print(
            "crash trials: \(trials), seed \(seed), operations \(operations.map(\.rawValue).joined(separator: ",")), journal modes \(modes.joined(separator: ","))"
        )
        var windows: [String: Double] = [:]
        for operation in operations {
            for mode in modes {
                windows["\(operation.rawValue)/\(mode)"] = try calibrate(operation, mode: mode, root: root)
            }
        }
        var tally: [String: Tally] = [:]
        var order: [String] = []
        for trial in 0..<trials {
            let operation = operations[trial % operations.count]
            let mode = modes[(trial / operations.count) % modes.count]
            let key = "\(operation.rawValue)/\(mode)"
            let window = windows[key] ?? 0.2
            let delay = window * Double(random.next() % 10_000) / 10_000
            let directory = root.appendingPathComponent("trial-\(trial)", isDirectory: true)
            let outcome = try runTrial(operation, mode: mode, in: directory, killAfter: delay)
            try? FileManager.default.removeItem(at: directory)
            if !operation.loops {
                // A migration's window follows the machine's pace: wider after a kill before it finished,
                // narrower after one it finished, so that about 60 % finish and the rest are killed on
                // the way, whatever else the machine is doing.
                windows[key] = window * (outcome.acknowledged > 0 ? 0.97 : 1.05)
            }
            if tally[key] == nil { order.append(key) }
            tally[key, default: Tally()].add(outcome)
            if verbose || !outcome.isClean {
                let state = outcome.isClean ? "ok" : "FAILED: " + outcome.problems.joined(separator: "; ")
                print("trial \(trial) \(key) killed after \(Int(delay * 1000)) ms, \(outcome.acknowledged) acknowledged: \(state)")
            }
        }
        print("")
        print(Tally.header)
        var total = Tally()
        for key in order {
            guard let row = tally[key] else { continue }
            print(row.line(key))
            total.merge(row)
        }
        print(total.line("all"))
        print(
            "\(total.trials) trials: \(total.acknowledged) acknowledged, \(total.lost) lost, \(total.torn) torn, \(total.unopenable) failed to open")
        if total.lost > 0 || total.torn > 0 || total.unopenable > 0 { throw ExitCode(1) }
    }

    /// Runs one worker to its end (a loop for a few steps) and returns the window to kill in: up to the
    /// end of a migration, or the start-up time plus a stretch of saves for a loop, in seconds.
    private func calibrate(_ operation: StoreWork.Operation, mode: String, root: URL) throws -> Double {
        let directory = root.appendingPathComponent("calibrate-\(operation.rawValue)-\(mode)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (work, arguments) = try prepare(operation, mode: mode, in: directory)
        let clock = ContinuousClock()
        let start = clock.now
        let process = try spawn(arguments + ["--saves", operation.loops ? "1" : "0"])
        process.waitUntilExit()
        _ = work
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return operation.loops ? seconds + 0.25 : seconds * 1.2
    }

    /// Makes a fresh store for a trial and returns its work and the worker's arguments.
    private func prepare(_ operation: StoreWork.Operation, mode: String, in directory: URL) throws -> (StoreWork, [String]) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var work = StoreWork(url: directory.appendingPathComponent("store.sqlite"))
        work.journalMode = mode
        try work.setUp(rows: setUpRows, for: operation)
        let arguments = [
            "selftest", "store-worker", "--store", work.url.path, "--operation", operation.rawValue,
            "--journal-mode", mode, "--ack-file", directory.appendingPathComponent("acks").path,
        ]
        return (work, arguments)
    }

    private func runTrial(_ operation: StoreWork.Operation, mode: String, in directory: URL, killAfter delay: Double) throws -> CrashTrialOutcome {
        let (work, arguments) = try prepare(operation, mode: mode, in: directory)
        let process = try spawn(arguments)
        usleep(useconds_t(delay * 1_000_000))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let acknowledged = AcknowledgementFile.read(directory.appendingPathComponent("acks").path)
        return CrashTrialCheck(work: work, operation: operation, setUpRows: setUpRows, acknowledged: acknowledged).run()
    }

    private func spawn(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// This program.
    static var executable: URL {
        let proc = URL(fileURLWithPath: "/proc/self/exe")
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: proc.path) {
            return URL(fileURLWithPath: resolved)
        }
        return Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    }
}

/// The figures of one operation and journal mode.
private struct Tally {
    var trials = 0, acknowledged = 0, lost = 0, torn = 0, unopenable = 0

    mutating func add(_ outcome: CrashTrialOutcome) {
        trials += 1
        acknowledged += outcome.acknowledged
        lost += outcome.lost
        torn += outcome.torn
        unopenable += outcome.unopenable ? 1 : 0
    }

    mutating func merge(_ other: Tally) {
        trials += other.trials
        acknowledged += other.acknowledged
        lost += other.lost
        torn += other.torn
        unopenable += other.unopenable
    }

    static let header = "operation/journal         trials  acknowledged  lost  torn  failed to open"

    func line(_ name: String) -> String {
        func pad(_ value: Any, _ width: Int) -> String {
            let text = "\(value)"
            return String(repeating: " ", count: max(0, width - text.count)) + text
        }
        return name.padding(toLength: 24, withPad: " ", startingAt: 0)
            + pad(trials, 8) + pad(acknowledged, 14) + pad(lost, 6) + pad(torn, 6) + pad(unopenable, 16)
    }
}
