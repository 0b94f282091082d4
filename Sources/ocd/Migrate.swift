import ArgumentParser
import OpenCoreData

/// `ocd migrate STORE --model BUNDLE [--to VERSION] [--dry-run]`: migrates a SQLite store in place to a
/// version of its model bundle, through intermediate versions when no single mapping can be inferred,
/// showing each step's inferred mapping, whether it runs in place or copies tables, and a progress bar.
struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Migrate a SQLite store to a version of its .xcdatamodeld bundle (lightweight, in place, step by step if needed)."
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
        let migration = try ProgressiveMigration(storeAt: storeURL, modelBundle: bundleURL, to: to)
        guard let last = migration.steps.last else {
            let versions = try NSManagedObjectModel.versions(inBundleAt: bundleURL)
            let name = to ?? (versions.first(where: \.isCurrent) ?? versions.last)?.name ?? "?"
            print("\(storeURL.lastPathComponent) is already at version \"\(name)\"; nothing to do.")
            return
        }
        let count = migration.steps.count
        print(
            "Migrating \(storeURL.lastPathComponent) from \"\(migration.steps[0].sourceName ?? "?")\" to \"\(last.destinationName ?? "?")\""
                + (count > 1 ? " in \(count) steps (no single mapping can be inferred):" : ":"))
        for (position, step) in migration.steps.enumerated() {
            let how =
                step.usesMigrationManager
                ? "NSMigrationManager with a mapping model, into a new file"
                : step.runsInPlace ? "in place, ALTER TABLE" : "copying tables: \(step.copyReason ?? "")"
            print("Step \(position + 1) of \(count): \"\(step.sourceName ?? "?")\" → \"\(step.destinationName ?? "?")\" (\(how))")
            let lines = LightweightMigration.summary(
                of: step.mappingModel, sourceModel: step.sourceModel,
                destinationModel: step.destinationModel)
            for line in lines { print("  " + line) }
            if lines.isEmpty { print("  (no entity or property added, removed or renamed; the layout or hashes change)") }
        }
        if dryRun {
            print("Dry run: the store was not changed.")
            return
        }
        let bar = ProgressBar()
        try migration.run { fraction, step in bar.show(fraction, step) }
        bar.finish()
        print("Done: \(storeURL.lastPathComponent) is at version \"\(last.destinationName ?? "?")\".")
    }
}

/// A one-line progress bar on standard error: `[#########-----------]  45% Copying Book`, drawn only when
/// standard error is a terminal (see ``TerminalProgress/isWanted``).
final class ProgressBar {
    private var lastLength = 0
    private let isShown = TerminalProgress.isWanted

    func show(_ fraction: Double, _ step: String) {
        guard isShown else { return }
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
        guard isShown else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
