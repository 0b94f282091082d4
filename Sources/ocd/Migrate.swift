import ArgumentParser
import OpenCoreData

/// `ocd migrate STORE --model BUNDLE [--to VERSION] [--dry-run]`: migrates a SQLite store in place to a
/// version of its model bundle, showing the inferred mapping and a progress bar.
struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a SQLite store to a version of its .xcdatamodeld bundle (lightweight, in place)."
    )

    @Argument(help: "The SQLite store file.")
    var store: String

    @Option(name: .long, help: "The .xcdatamodeld bundle holding the store's model and the destination version.")
    var model: String

    @Option(name: .long, help: "The destination version (e.g. \"Model 3\"); the bundle's current version by default.")
    var to: String?

    @Flag(name: .long, help: "Show the mapping without changing the store.")
    var dryRun = false

    func run() throws {
        do {
            try migrate()
        } catch {
            let message = "error: " + (error as NSError).localizedDescription + "\n"
            FileHandle.standardError.write(Data(message.utf8))
            throw ExitCode.failure
        }
    }

    private func migrate() throws {
        let storeURL = URL(fileURLWithPath: store)
        let bundleURL = URL(fileURLWithPath: model)
        let versions = try NSManagedObjectModel.versions(inBundleAt: bundleURL)
        let target: NSManagedObjectModel.BundleVersion
        if let to {
            guard let match = versions.first(where: { $0.name == to || $0.url.lastPathComponent == to }) else {
                let names = versions.map { "\"\($0.name)\"" }.joined(separator: ", ")
                throw NSError(domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError, userInfo: [
                    NSLocalizedDescriptionKey: "\(bundleURL.path): no version named \"\(to)\"; the bundle holds \(names)",
                ])
            }
            target = match
        } else {
            guard let current = versions.first(where: \.isCurrent) ?? versions.last else {
                throw NSError(domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError, userInfo: [
                    NSLocalizedDescriptionKey: "\(bundleURL.path) holds no model version",
                ])
            }
            target = current
        }
        var loaded: [(String, NSManagedObjectModel)] = []
        for version in versions { loaded.append((version.name, try version.loadModel())) }
        let destination = try target.loadModel()
        let source = try LightweightMigration.sourceModel(forStoreAt: storeURL, among: loaded.map(\.1))
        let sourceName = loaded.first { $0.1 === source }?.0 ?? "?"
        if source.versionChecksum == destination.versionChecksum {
            print("\(storeURL.lastPathComponent) is already at version \"\(target.name)\"; nothing to do.")
            return
        }
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
        print("Migrating \(storeURL.lastPathComponent) from \"\(sourceName)\" to \"\(target.name)\":")
        let lines = LightweightMigration.summary(of: mapping, sourceModel: source, destinationModel: destination)
        for line in lines { print("  " + line) }
        if lines.isEmpty { print("  (no entity or property added, removed or renamed; the layout or hashes change)") }
        if dryRun {
            print("Dry run: the store was not changed.")
            return
        }
        let bar = ProgressBar()
        try LightweightMigration.migrateStore(at: storeURL, sourceModel: source, destinationModel: destination,
                                              mapping: mapping) { fraction, step in bar.show(fraction, step) }
        bar.finish()
        print("Done: \(storeURL.lastPathComponent) is at version \"\(target.name)\".")
    }
}

/// A one-line progress bar on standard error: `[#########-----------]  45% Copying Book`.
final class ProgressBar {
    private var lastLength = 0

    func show(_ fraction: Double, _ step: String) {
        let width = 30
        let filled = Int((min(max(fraction, 0), 1) * Double(width)).rounded())
        let percent = Int((fraction * 100).rounded())
        var line = "\r[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
        line += String(repeating: " ", count: max(0, 3 - String(percent).count)) + "\(percent)% " + step
        let padding = String(repeating: " ", count: max(0, lastLength - line.count))
        lastLength = line.count
        FileHandle.standardError.write(Data((line + padding).utf8))
    }

    func finish() {
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
