import Foundation

/// Locates the real-world files under `Tests/Fixtures`, copied byte for byte from `shared/fixtures`.
enum Fixtures {
    /// The package's folder: the nearest folder above this file that holds `Package.swift`.
    static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/",
            !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path)
        {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }()

    /// `Tests/Fixtures`.
    static let root: URL = packageRoot.appendingPathComponent("Tests/Fixtures", isDirectory: true)

    /// `Tests/Fixtures/models`: Xcode model bundles from public projects.
    static let models = root.appendingPathComponent("models", isDirectory: true)

    /// `Tests/Fixtures/stores`: SQLite stores written by Apple's Core Data, each with its model.
    static let stores = root.appendingPathComponent("stores", isDirectory: true)

    /// A fresh temporary directory inside ``TestScratch/root``, removed by the caller with
    /// `FileManager.removeItem` (or with the root when the test process exits).
    static func temporaryDirectory() throws -> URL {
        try TestScratch.directory("store")
    }
}

/// The one folder every temporary file of a test process goes in, removed when the process exits.
///
/// Tests remove their own directories as they finish, but some cannot: a suite that is a structure has
/// no `deinit`, objects a context's queue still holds when the run ends are never released, and a test
/// that fails stops before its cleanup. Without a common folder each run would leave hundreds of
/// directories in the system's temporary folder.
///
/// An exit test's child process stops without running exit handlers, so it puts its files inside its
/// parent's folder (named after the parent's process ID), which the parent removes when it exits.
enum TestScratch {
    /// `OpenCoreDataTests-<process ID>` in the system's temporary folder, made on first use; in an exit
    /// test's child process, a folder inside its parent's.
    static let root: URL = {
        let temporary = FileManager.default.temporaryDirectory
        func folder(ofProcess id: pid_t) -> URL {
            temporary.appendingPathComponent("OpenCoreDataTests-\(id)", isDirectory: true)
        }
        if isExitTestChild {
            let url = folder(ofProcess: getppid()).appendingPathComponent("exit-test-\(getpid())", isDirectory: true)
            try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }
        // A folder with this process's ID may be left from an earlier process that had the same ID and did
        // not exit normally, or made already by an exit test's child: it is used as it is (every name in
        // it is unique) and removed with the rest.
        let url = folder(ofProcess: getpid())
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestScratch.root) }
        return url
    }()

    /// Whether this process is an exit test's child: the test program started by itself. (Known where
    /// the system names each process's program in `/proc`.)
    private static var isExitTestChild: Bool {
        func program(ofProcess id: String) -> String? {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(id)/exe")
        }
        guard let own = program(ofProcess: "self") else { return false }
        return program(ofProcess: String(getppid())) == own
    }

    /// A fresh directory in `root`, its name starting with `prefix`.
    static func directory(_ prefix: String) throws -> URL {
        let url = root.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The folder of the test program (`Bundle.main`), which some tests change for a moment: tests that put
/// files there or read what is there hold `lock`, so that tests running in parallel see a stable folder.
enum MainBundleFolder {
    static let lock = NSLock()
}

extension Data {
    /// The bytes written as pairs of hexadecimal digits (`"0AFF"`); a pair that is not hexadecimal is 0.
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        self.init(bytes)
    }
}
