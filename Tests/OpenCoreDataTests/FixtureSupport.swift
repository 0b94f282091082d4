import Foundation

/// Locates the real-world files under `Tests/Fixtures`, copied byte for byte from `shared/fixtures`.
enum Fixtures {
    /// `Tests/Fixtures`.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures", isDirectory: true)

    /// `Tests/Fixtures/models`: Xcode model bundles from public projects.
    static let models = root.appendingPathComponent("models", isDirectory: true)

    /// `Tests/Fixtures/stores`: SQLite stores written by Apple's Core Data, each with its model.
    static let stores = root.appendingPathComponent("stores", isDirectory: true)

    /// A fresh temporary directory, removed by the caller with `FileManager.removeItem`.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("OpenCoreDataTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The folder of the test program (`Bundle.main`), which some tests change for a moment: tests that put
/// files there or read what is there hold `lock`, so that tests running in parallel see a stable folder.
enum MainBundleFolder {
    static let lock = NSLock()
}
