import OpenCoreData
import Testing

/// Writes small Xcode model files into temporary directories for the model file tests.
enum ModelFileKit {
    /// The `<model>` header Xcode 15 writes.
    static let header = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23A344" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
        """

    /// A complete `contents` text around `body` (the elements inside `<model>`).
    static func contents(_ body: String, header: String = ModelFileKit.header) -> String {
        header + "\n" + body + "\n</model>\n"
    }

    /// Writes `text` as `<directory>/<name>.xcdatamodel/contents` and returns the version folder.
    @discardableResult
    static func writeVersion(_ text: String, named name: String = "Model", in directory: URL) throws -> URL {
        let folder = directory.appendingPathComponent(name + ".xcdatamodel", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.appendingPathComponent("contents"))
        return folder
    }

    /// Writes an `.xccurrentversion` naming `version` (e.g. "Model 2.xcdatamodel") into `bundle`.
    static func writeCurrentVersion(_ version: String, in bundle: URL) throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>_XCCurrentVersionName</key>
            \t<string>\(version)</string>
            </dict>
            </plist>
            """
        try Data(text.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
    }

    /// Loads a model whose `<model>` body is `body`, from a version folder in a fresh temporary directory.
    static func load(_ body: String) throws -> NSManagedObjectModel {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try writeVersion(contents(body), in: directory)
        return try NSManagedObjectModel.load(from: folder)
    }

    /// The error `load(from:)` throws for a model whose `<model>` body is `body`.
    static func loadError(_ body: String) throws -> NSError {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let folder = try writeVersion(contents(body), in: directory)
        return try loadError(at: folder)
    }

    /// The error `load(from:)` throws for `url`, after checking that the failable initializer gives nil.
    static func loadError(at url: URL) throws -> NSError {
        #expect(NSManagedObjectModel(contentsOf: url) == nil)
        do {
            _ = try NSManagedObjectModel.load(from: url)
        } catch {
            return error as NSError
        }
        Issue.record("loading \(url.path) succeeded; expected an error")
        throw CancellationError()
    }

    /// A fixture model bundle under Tests/Fixtures/models.
    static func fixture(_ name: String) -> URL {
        Fixtures.models.appendingPathComponent(name)
    }

    /// Lowercase hex of `data`.
    static func hex(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }
}
