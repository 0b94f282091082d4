import Testing

@testable import OpenCoreDataCore

/// After a migration through `NSMigrationManager` replaced the store, the old store's externally stored
/// values that nothing references any more are removed; a failed migration removes none.
@Suite("Migration removes unreferenced external data files", .serialized)
struct MigrationExternalDataCleanupTests {
    /// A V1 Photos store with `count` photos holding large images (stored in files); returns its URL.
    func makeStore(_ directory: TemporaryDirectory, _ versions: [NSManagedObjectModel], count: Int) throws -> URL {
        let url = directory.file("Photos.sqlite")
        try MigrationKit.makeStore(versions[0], at: url) { context in
            for index in 0..<count {
                context.make("Photo", ["name": "photo \(index)", "image": PhotoModel.bytes(150 * 1024, seed: UInt8(index))])
            }
        }
        return url
    }

    /// The names of the files in the store's external data folder.
    func externalFiles(_ url: URL) -> Set<String> {
        let folder = url.deletingLastPathComponent().appendingPathComponent(".Photos_SUPPORT/_EXTERNAL_DATA")
        return Set((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
    }

    /// The steps V1 → … → V`last`, the last through `NSMigrationManager` with `policy`.
    func steps(_ versions: [NSManagedObjectModel], last: Int, policy: String) throws -> [ProgressiveMigration.Step] {
        let custom = try NSMappingModel.inferredMappingModel(forSourceModel: versions[last - 1], destinationModel: versions[last])
        try #require(custom.entityMappings?.first).entityMigrationPolicyClassName = policy
        var sources = ProgressiveMigration.MappingSources()
        sources.lookup = { source, destination in source === versions[last - 1] && destination === versions[last] ? custom : nil }
        return try (1...last).flatMap { index in
            try ProgressiveMigration.steps(
                from: versions[index - 1], to: versions[index], through: [versions[index - 1], versions[index]],
                name: { _ in nil }, sources: sources)
        }
    }

    @Test("a manager migration, alone or at the end of a chain, leaves only the files the migrated store references")
    func unreferencedFilesRemoved() throws {
        NSEntityMigrationPolicy.register(ProgressivePassThroughPolicy.self)
        let versions = ProgressiveMigrationTests.photoVersions()
        for last in [1, 2] {
            let directory = TemporaryDirectory()
            let url = try makeStore(directory, versions, count: 3)
            let before = externalFiles(url)
            #expect(before.count == 3)
            let steps = try steps(versions, last: last, policy: "ProgressivePassThroughPolicy")
            #expect(steps.last?.usesMigrationManager == true)
            try ProgressiveMigration(storeURL: url, steps: steps).run()

            let after = externalFiles(url)
            let referenced = try SQLiteExternalDataCleanup.references(inStoreAt: url, model: versions[last], configuration: nil)
            #expect(after.count == 3, "chain of \(last): \(after)")
            #expect(after == referenced)
            #expect(after.isDisjoint(with: before))
            let context = try MigrationKit.open(versions[last], at: url, sources: [], options: nil)
            for photo in try context.all("Photo") {
                let name = try #require(photo.value(forKey: "name") as? String)
                let index = try #require(UInt8(name.dropFirst("photo ".count)))
                #expect(photo.value(forKey: "image") as? Data == PhotoModel.bytes(150 * 1024, seed: index))
            }
        }
    }

    @Test("a manager migration that fails leaves every file of the store in place")
    func failedMigrationKeepsFiles() throws {
        NSEntityMigrationPolicy.register(ProgressiveFailingPolicy.self)
        let versions = ProgressiveMigrationTests.photoVersions()
        let directory = TemporaryDirectory()
        let url = try makeStore(directory, versions, count: 2)
        let before = externalFiles(url)
        let steps = try steps(versions, last: 1, policy: "ProgressiveFailingPolicy")
        #expect(throws: NSError.self) { try ProgressiveMigration(storeURL: url, steps: steps).run() }
        #expect(externalFiles(url) == before)
        let context = try MigrationKit.open(versions[0], at: url, sources: [], options: nil)
        #expect(try context.all("Photo").allSatisfy { ($0.value(forKey: "image") as? Data)?.count == 150 * 1024 })
    }

    @Test("a column of an attribute that no longer allows external storage still keeps the files it names")
    func referencesOfFormerlyExternalColumns() throws {
        let versions = ProgressiveMigrationTests.photoVersions()
        let directory = TemporaryDirectory()
        let url = try makeStore(directory, versions, count: 2)
        let inline = ProgressiveMigrationTests.photoVersions()[0]
        let image = try #require(inline.entitiesByName["Photo"]?.attributesByName["image"])
        image.allowsExternalBinaryDataStorage = false
        let referenced = try SQLiteExternalDataCleanup.references(inStoreAt: url, model: inline, configuration: nil)
        #expect(referenced == externalFiles(url))
        #expect(referenced.count == 2)
        #expect(SQLiteExternalDataCleanup.removeUnreferencedFiles(ofStoreAt: url, model: inline, configuration: nil).isEmpty)
    }

    @Test("files other rows still reference are kept: only the photos the mapping drops lose theirs")
    func filteredRowsLoseTheirFiles() throws {
        let versions = ProgressiveMigrationTests.photoVersions()
        let directory = TemporaryDirectory()
        let url = try makeStore(directory, versions, count: 4)
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: versions[0], destinationModel: versions[1])
        let photos = try #require(mapping.entityMappings?.first)
        photos.sourceExpression = NSExpression(
            format:
                "FETCH(FUNCTION($manager, \"fetchRequestForSourceEntityNamed:predicateString:\" , \"Photo\", \"name != 'photo 0'\"), $manager.sourceContext, NO)"
        )
        try SQLiteStore.migrateWithManager(at: url, from: versions[0], to: versions[1], mapping: mapping, report: nil)
        #expect(externalFiles(url).count == 3)
        let context = try MigrationKit.open(versions[1], at: url, sources: [], options: nil)
        #expect(MigrationKit.strings(try context.all("Photo"), "name") == ["photo 1", "photo 2", "photo 3"])
        #expect(try context.all("Photo").allSatisfy { ($0.value(forKey: "image") as? Data)?.count == 150 * 1024 })
    }
}
