import ArgumentParser
import OpenCoreData

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `ocd selftest write-failure --store PATH --limit BYTES`: a save that the file system refuses.
///
/// Creates the store, then lowers this process's file size limit (`RLIMIT_FSIZE`, with `SIGXFSZ`
/// ignored so that a write past it fails with `EFBIG` instead of ending the process) and saves records
/// larger than the limit. Prints what the failed save threw and whether the context kept its changes,
/// then raises the limit again and saves once more, printing whether the retry succeeded:
///
///     failed domain=NSCocoaErrorDomain code=134180 sqlite=… changes=kept message=…
///     retried saved=N
struct WriteFailure: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write-failure",
        abstract: "Save past a file size limit, then retry after raising it."
    )

    @Option(help: "The SQLite store file (created).")
    var store: String

    @Option(help: "The file size limit to save under, in bytes.")
    var limit: Int = 256 * 1024

    @Option(help: "Records to save, each with a 4 KB payload.")
    var records: Int = 200

    @Option(help: "wal or delete.")
    var journalMode: String = "wal"

    func run() throws {
        var work = StoreWork(url: URL(fileURLWithPath: store))
        work.journalMode = journalMode
        try work.setUp(rows: 0, for: .save)
        let container = try work.open(.v1)
        defer { StoreWork.close(container) }
        let context = container.viewContext
        let payload = String(repeating: "x", count: 4096)
        for sequence in 0..<records {
            let record = NSEntityDescription.insertNewObject(forEntityName: "Record", into: context)
            record.setValue(NSNumber(value: 1), forKey: "worker")
            record.setValue(NSNumber(value: sequence), forKey: "sequence")
            record.setValue(NSNumber(value: 0), forKey: "part")
            record.setValue(NSNumber(value: 0), forKey: "generation")
            record.setValue(payload, forKey: "payload")
        }

        signal(SIGXFSZ, SIG_IGN)
        var original = rlimit()
        getrlimit(Self.fileSizeResource, &original)
        var lowered = original
        lowered.rlim_cur = rlim_t(limit)
        guard setrlimit(Self.fileSizeResource, &lowered) == 0 else {
            throw ValidationError("setrlimit(RLIMIT_FSIZE) failed: \(String(cString: strerror(errno)))")
        }
        do {
            try context.save()
            print("saved under the limit")
        } catch let error as NSError {
            let sqlite = error.userInfo[NSSQLiteErrorDomain].map { "\($0)" } ?? "none"
            let changes = context.hasChanges && context.insertedObjects.count == records ? "kept" : "lost"
            print("failed domain=\(error.domain) code=\(error.code) sqlite=\(sqlite) changes=\(changes) message=\(error.localizedDescription)")
        }
        setrlimit(Self.fileSizeResource, &original)
        try context.save()
        let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Record")
        print("retried saved=\(try context.count(for: fetch))")
    }

    #if canImport(Glibc)
    private static let fileSizeResource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
    #else
    private static let fileSizeResource = RLIMIT_FSIZE
    #endif
}
