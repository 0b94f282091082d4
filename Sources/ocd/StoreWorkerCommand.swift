import ArgumentParser
import OpenCoreData

/// `ocd selftest store-worker --store PATH --operation OP …`: one worker process of the crash trials and
/// the many-process tests (see ``StoreWork``). `--set-up ROWS` creates the store first.
struct StoreWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store-worker",
        abstract: "Save, batch-change, count or migrate on a store, acknowledging each step in a file."
    )

    @Option(help: "The SQLite store file.")
    var store: String

    @Option(help: "One of: \(StoreWork.Operation.allCases.map(\.rawValue).joined(separator: ", ")).")
    var operation: String = StoreWork.Operation.save.rawValue

    @Option(help: "This worker's number, stored in its records.")
    var worker: Int = 1

    @Option(help: "Steps to run (0: until killed).")
    var saves: Int = 0

    @Option(help: "Records per step.")
    var objects: Int = 3

    @Option(help: "Where each acknowledged step's number is appended.")
    var ackFile: String?

    @Option(help: "wal or delete.")
    var journalMode: String = "wal"

    @Option(help: "The synchronous pragma (FULL, NORMAL); the store's default when absent.")
    var synchronous: String?

    @Flag(help: "Read the store's metadata through the coordinator after each save.")
    var readMetadata = false

    @Option(help: "Create the store with this many set-up sequences first.")
    var setUp: Int?

    func run() throws {
        guard let operation = StoreWork.Operation(rawValue: operation) else {
            throw ValidationError("--operation must be one of \(StoreWork.Operation.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard ["wal", "delete"].contains(journalMode) else { throw ValidationError("--journal-mode must be wal or delete.") }
        var work = StoreWork(url: URL(fileURLWithPath: store))
        work.worker = Int64(worker)
        work.objects = objects
        work.saves = saves
        work.journalMode = journalMode
        work.synchronous = synchronous
        work.readsMetadata = readMetadata
        if let setUp { try work.setUp(rows: setUp, for: operation) }
        let file = try ackFile.map(AcknowledgementFile.init(path:))
        try work.run(operation) { step in file?.acknowledge(step) }
    }
}
