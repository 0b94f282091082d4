import Testing

@testable import OpenCoreDataCore

/// `ocd migrate STORE --model BUNDLE [--to VERSION] [--dry-run]`, run as a child process.
@Suite("ocd migrate")
struct MigrateCommandTests {
    @Test("--dry-run shows what is added, removed and renamed and leaves the store as it was")
    func dryRun() throws {
        let directory = TemporaryDirectory()
        let bundle = try MigrationBundleKit.writeBundle(in: directory.url)
        let store = directory.file("Catalog.sqlite")
        try MigrationBundleKit.fillStore(at: store, bundle: bundle, groups: 3, items: 30)
        let before = StoreKit.files(store)
        let (status, output, errors) = try MigrationBundleKit.run(["migrate", store.path, "--model", bundle.path, "--dry-run"])
        #expect(status == 0, "\(errors)")
        #expect(output.contains("from \"Catalog\" to \"Catalog 2\""))
        #expect(output.contains("~ Item.name → label"))
        #expect(output.contains("+ Item.note"))
        #expect(output.contains("+ entity Tag"))
        #expect(output.contains("Dry run"))
        #expect(StoreKit.files(store) == before)
    }

    @Test("migrating performs the mapping with a progress bar; the store then opens with the current version")
    func migrate() throws {
        let directory = TemporaryDirectory()
        let bundle = try MigrationBundleKit.writeBundle(in: directory.url)
        let store = directory.file("Catalog.sqlite")
        try MigrationBundleKit.fillStore(at: store, bundle: bundle, groups: 4, items: 200)
        let (status, output, errors) = try MigrationBundleKit.run(["migrate", store.path, "--model", bundle.path])
        #expect(status == 0, "\(errors)")
        #expect(errors.contains("100%"))
        #expect(output.contains("Done"))
        let current = try NSManagedObjectModel.load(from: bundle)
        #expect(try MigrationKit.differences(store, current) == [])
        let context = try MigrationKit.open(current, at: store, sources: [], options: nil)
        let items = try context.all("Item", sortedBy: "value")
        #expect(items.count == 200)
        #expect(items.first?.value(forKey: "label") as? String == "item 1")
        let again = try MigrationBundleKit.run(["migrate", store.path, "--model", bundle.path])
        #expect(again.0 == 0)
        #expect(again.1.contains("already at version"))
    }

    @Test("an unknown version, or a store no version wrote, fails with a message and status 1")
    func failures() throws {
        let directory = TemporaryDirectory()
        let bundle = try MigrationBundleKit.writeBundle(in: directory.url)
        let store = directory.file("Catalog.sqlite")
        try MigrationBundleKit.fillStore(at: store, bundle: bundle, groups: 1, items: 1)
        let unknown = try MigrationBundleKit.run(["migrate", store.path, "--model", bundle.path, "--to", "Catalog 9"])
        #expect(unknown.0 != 0)
        #expect(unknown.2.contains("Catalog 9"))
        let other = directory.file("Other.sqlite")
        try MigrationKit.makeStore(MigrationKit.libraryV1(), at: other) { _ in }
        let foreign = try MigrationBundleKit.run(["migrate", other.path, "--model", bundle.path])
        #expect(foreign.0 != 0)
        #expect(foreign.2.contains(other.path))
    }
}
