import GRDB
import Testing

@testable import OpenCoreDataCore

/// A migration killed at any point leaves a store that opens at the old version or at the new one,
/// with all its rows: `ocd migrate` runs in a child process that is killed (SIGKILL) after a random
/// delay, many times.
@Suite("Migration crash safety", .tags(.slow), .serialized)
struct MigrationCrashTests {
    static let groups = 50
    static let items = 60_000

    @Test("killing ocd migrate at random points never loses or half-migrates the store")
    func killedMigrations() throws {
        let directory = TemporaryDirectory()
        let bundle = try MigrationBundleKit.writeBundle(in: directory.url)
        let pristine = directory.file("Pristine.sqlite")
        try MigrationBundleKit.fillStore(at: pristine, bundle: bundle, groups: Self.groups, items: Self.items)
        let versions = try NSManagedObjectModel.versions(inBundleAt: bundle)
        let old = try versions[0].loadModel()
        let new = try versions[1].loadModel()

        // How long one whole migration takes here, to spread the kills over it.
        let timing = directory.file("Timing.sqlite")
        try FileManager.default.copyItem(at: pristine, to: timing)
        let started = Date()
        let (status, _, errors) = try MigrationBundleKit.run(["migrate", timing.path, "--model", bundle.path])
        #expect(status == 0, "\(errors)")
        let duration = max(Date().timeIntervalSince(started), 0.05)
        try check(timing, old: old, new: new)

        var generator = SystemRandomNumberGenerator()
        let deadline = Date().addingTimeInterval(30)
        var runs = 0
        var outcomes: [String: Int] = [:]
        while runs < 40 && (runs < 8 || Date() < deadline) {
            let store = directory.file("Run\(runs).sqlite")
            try FileManager.default.copyItem(at: pristine, to: store)
            let (process, _, _) = try MigrationBundleKit.start(["migrate", store.path, "--model", bundle.path])
            let delay = Double.random(in: 0...(duration * 1.1), using: &generator)
            Thread.sleep(forTimeInterval: delay)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let version = try check(store, old: old, new: new)
            outcomes[version, default: 0] += 1
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: store.path + suffix) }
            runs += 1
        }
        print("MigrationCrashTests: \(runs) killed runs, stores found at versions \(outcomes)")
        #expect(runs >= 8)
        #expect(outcomes.values.reduce(0, +) == runs)
    }

    /// Checks a store after a kill: its metadata names the old or the new model, its file is laid out
    /// exactly for that model, SQLite finds it intact, every row is there, and it opens. Returns
    /// "old" or "new".
    @discardableResult
    func check(_ url: URL, old: NSManagedObjectModel, new: NSManagedObjectModel) throws -> String {
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        let isOld = old.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
        let isNew = new.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata)
        #expect(isOld != isNew, "the store at \(url.lastPathComponent) matches neither version (or both)")
        let model = isNew ? new : old
        #expect(try MigrationKit.differences(url, model) == [])
        let integrity = try StoreKit.rows(url, "PRAGMA integrity_check").first?[0] as String?
        #expect(integrity == "ok")
        #expect(try StoreKit.rows(url, "SELECT count(*) FROM ZITEM").first?[0] as Int? == Self.items)
        #expect(try StoreKit.rows(url, "SELECT count(*) FROM ZITEM WHERE ZGROUP IS NOT NULL").first?[0] as Int? == Self.items)
        #expect(try StoreKit.rows(url, "SELECT count(*) FROM ZGROUP").first?[0] as Int? == Self.groups)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
        try coordinator.remove(store)
        return isNew ? "new" : "old"
    }
}
