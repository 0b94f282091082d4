import Testing

@testable import OpenCoreDataCore

/// The three Library versions of ``ProgressiveBundleKit`` (V1 → V3 cannot be inferred, each step can)
/// with a Setting entity, split into two configurations: "Library" (Book, Person) and "Prefs" (Setting).
enum ConfiguredBundleKit {
    static let extra = """
            <entity name="Setting" representedClassName="NSManagedObject" syncable="YES">
                <attribute name="key" optional="YES" attributeType="String"/>
            </entity>
            <configuration name="Library">
                <memberEntity name="Book"/>
                <memberEntity name="Person"/>
            </configuration>
            <configuration name="Prefs">
                <memberEntity name="Setting"/>
            </configuration>
        </model>
        """

    /// A version of the Library bundle with the Setting entity and the two configurations.
    static func configured(_ text: String) -> String {
        text.replacingOccurrences(of: "</model>", with: extra)
    }

    /// Writes `Shelf.xcdatamodeld` with "Shelf", "Shelf 2" and "Shelf 3" (current).
    static func writeBundle(in directory: URL) throws -> URL {
        try MigrationBundleKit.writeVersionedBundle(
            named: "Shelf",
            versions: [
                ("Shelf", configured(ProgressiveBundleKit.v1)),
                ("Shelf 2", configured(ProgressiveBundleKit.v2)),
                ("Shelf 3", configured(ProgressiveBundleKit.v3)),
            ], in: directory)
    }

    /// Creates the "Library" store with V1: `people` people and `books` books (book i by person i % people),
    /// and the "Prefs" store with one setting, through one coordinator.
    static func makeStores(_ v1: NSManagedObjectModel, library: URL, prefs: URL, people: Int, books: Int) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: v1)
        let libraryStore = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Library", at: library, options: nil)
        let prefsStore = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Prefs", at: prefs, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let writers = (1...people).map { context.make("Person", ["name": "person \($0)"]) }
        for index in 1...books {
            context.make("Book", ["title": "book \(index)", "pages": index * 3, "author": writers[index % people]])
        }
        context.make("Setting", ["key": "theme"])
        try context.save()
        try coordinator.remove(libraryStore)
        try coordinator.remove(prefsStore)
    }
}

/// Progressive migration of a store added with a named configuration: only that configuration's
/// entities are migrated, through the versions of the bundle, at store open or by steps.
@Suite("Progressive migration of a named configuration", .serialized)
struct ConfigurationProgressiveMigrationTests {
    @Test("a store added with a named configuration migrates V1 → V2 → V3 at store open; the other configuration's store opens beside it")
    func atStoreOpen() throws {
        let directory = TemporaryDirectory()
        let bundle = try ConfiguredBundleKit.writeBundle(in: directory.url)
        let versions = try NSManagedObjectModel.versions(inBundleAt: bundle).map { try $0.loadModel() }
        let library = directory.file("Library.sqlite")
        let prefs = directory.file("Prefs.sqlite")
        try ConfiguredBundleKit.makeStores(versions[0], library: library, prefs: prefs, people: 4, books: 20)
        let before = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: library)

        let model = try NSManagedObjectModel.load(from: bundle)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let progress = Progress(totalUnitCount: 1)
        var options = MigrationKit.lightweight
        options[OCDMigrationProgressOptionKey] = progress
        let store = try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Library", at: library, options: options)
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Prefs", at: prefs, options: options)
        #expect(progress.totalUnitCount == 200)
        #expect(progress.fractionCompleted == 1)

        let metadata = coordinator.metadata(for: store)
        #expect(model.isConfiguration(withName: "Library", compatibleWithStoreMetadata: metadata))
        #expect(!model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        #expect(metadata[NSStoreUUIDKey] as? String == before[NSStoreUUIDKey] as? String)
        #expect(try SQLiteSchema(model: versions[2], configurationName: "Library").differences(inStoreAt: library).isEmpty)
        #expect(try StoreKit.rows(library, "SELECT count(*) FROM sqlite_master WHERE name = 'ZSETTING'").first?[0] as Int? == 0)

        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let books = try context.all("Book", sortedBy: "title")
        #expect(books.count == 20)
        for book in books {
            let title = try #require(book.value(forKey: "title") as? String)
            let index = try #require(Int(title.dropFirst("book ".count)))
            let writer = try #require(book.value(forKey: "writer") as? NSManagedObject)
            #expect(writer.value(forKey: "name") as? String == "person \(index % 4 + 1)")
        }
        #expect(try context.all("Person").allSatisfy { ($0.value(forKey: "books") as? NSOrderedSet)?.count == 5 })
        #expect(MigrationKit.strings(try context.all("Setting"), "key") == ["theme"])
    }

    @Test("a chain with a migration-manager step migrates only the configuration's entities of a configured store")
    func managerStep() throws {
        let directory = TemporaryDirectory()
        let bundle = try ConfiguredBundleKit.writeBundle(in: directory.url)
        let versions = try NSManagedObjectModel.versions(inBundleAt: bundle).map { try $0.loadModel() }
        let library = directory.file("Library.sqlite")
        try ConfiguredBundleKit.makeStores(versions[0], library: library, prefs: directory.file("Prefs.sqlite"), people: 3, books: 9)
        NSEntityMigrationPolicy.register(ProgressiveTitlePolicy.self)
        let custom = try NSMappingModel.inferredMappingModel(forSourceModel: versions[0], destinationModel: versions[1])
        try #require(custom.entityMappings?.first { $0.destinationEntityName == "Book" }).entityMigrationPolicyClassName = "ProgressiveTitlePolicy"
        #expect(custom.entityMappings?.contains { $0.destinationEntityName == "Setting" } == true)
        var sources = ProgressiveMigration.MappingSources()
        sources.lookup = { source, destination in source === versions[0] && destination === versions[1] ? custom : nil }
        sources.configuration = "Library"
        let steps = try ProgressiveMigration.steps(
            from: versions[0], to: versions[2], through: versions,
            name: { _ in nil }, sources: sources)
        #expect(steps.map(\.usesMigrationManager) == [true, false])
        try ProgressiveMigration(storeURL: library, steps: steps).run(
            progress: nil, handler: nil, defersCleanup: false,
            sqlDebugLog: nil, configuration: "Library")
        #expect(try SQLiteSchema(model: versions[2], configurationName: "Library").differences(inStoreAt: library).isEmpty)
        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: library)
        #expect(versions[2].isConfiguration(withName: "Library", compatibleWithStoreMetadata: metadata))

        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: versions[2])
        try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: "Library", at: library, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let books = try context.all("Book")
        #expect(books.count == 9)
        #expect(books.allSatisfy { ($0.value(forKey: "title") as? String)?.hasPrefix("BOOK ") == true })
        #expect(books.allSatisfy { ($0.value(forKey: "writer") as? NSManagedObject) != nil })
    }
}
