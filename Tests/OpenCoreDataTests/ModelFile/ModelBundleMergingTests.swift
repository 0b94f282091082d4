import OpenCoreData
import Testing

/// `NSManagedObjectModel.mergedModel(from:)` and `mergedModel(from:forStoreMetadata:)` with bundles, as
/// Core Data users call them: the models found in the bundles' resources, merged into one.
@Suite("Merging the models of bundles")
struct ModelBundleMergingTests {
    /// A model body with one entity named `entity` holding one string attribute.
    static func body(_ entity: String) -> String {
        #"<entity name="\#(entity)" representedClassName="\#(entity)"><attribute name="title" optional="YES" attributeType="String"/></entity>"#
    }

    /// Writes `<directory>/<name>.xcdatamodeld` with one version per entity list, the last current.
    @discardableResult
    static func writeBundle(_ name: String, versions: [String], in directory: URL) throws -> URL {
        let bundle = directory.appendingPathComponent(name + ".xcdatamodeld", isDirectory: true)
        for (number, entity) in versions.enumerated() {
            let version = number == 0 ? name : "\(name) \(number + 1)"
            try ModelFileKit.writeVersion(ModelFileKit.contents(body(entity)), named: version, in: bundle)
        }
        let current = versions.count == 1 ? name : "\(name) \(versions.count)"
        try ModelFileKit.writeCurrentVersion(current + ".xcdatamodel", in: bundle)
        return bundle
    }

    /// A bundle over a fresh temporary directory, and the directory (removed by the caller).
    static func makeBundle() throws -> (Bundle, URL) {
        let directory = try Fixtures.temporaryDirectory()
        let bundle = try #require(Bundle(url: directory))
        return (bundle, directory)
    }

    @Test("the models of a bundle merge: each .xcdatamodeld at its current version, each .xcdatamodel")
    func mergesBundleModels() throws {
        let (bundle, directory) = try Self.makeBundle()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.writeBundle("Library", versions: ["OldBook", "Book"], in: directory)
        try ModelFileKit.writeVersion(ModelFileKit.contents(Self.body("Tag")), named: "Tags", in: directory)
        try Data("not a model".utf8).write(to: directory.appendingPathComponent("notes.txt"))
        let model = try #require(NSManagedObjectModel.mergedModel(from: [bundle]))
        #expect(model.entities.compactMap(\.name).sorted() == ["Book", "Tag"])
        #expect(model.entitiesByName["Book"]?.managedObjectModel === model)
    }

    @Test("models from several bundles merge into one")
    func severalBundles() throws {
        let (first, firstDirectory) = try Self.makeBundle()
        let (second, secondDirectory) = try Self.makeBundle()
        defer {
            try? FileManager.default.removeItem(at: firstDirectory)
            try? FileManager.default.removeItem(at: secondDirectory)
        }
        try Self.writeBundle("App", versions: ["Note"], in: firstDirectory)
        try Self.writeBundle("Framework", versions: ["Attachment"], in: secondDirectory)
        let model = try #require(NSManagedObjectModel.mergedModel(from: [first, second]))
        #expect(model.entities.compactMap(\.name).sorted() == ["Attachment", "Note"])
    }

    @Test("two models defining the same entity give nil")
    func entityClash() throws {
        let (bundle, directory) = try Self.makeBundle()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.writeBundle("One", versions: ["Item"], in: directory)
        try Self.writeBundle("Two", versions: ["Item"], in: directory)
        #expect(NSManagedObjectModel.mergedModel(from: [bundle]) == nil)
    }

    @Test("a model file that cannot be read gives nil")
    func unreadableModel() throws {
        let (bundle, directory) = try Self.makeBundle()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.writeBundle("Good", versions: ["Item"], in: directory)
        try ModelFileKit.writeVersion("<model><entity name=", named: "Broken", in: directory)
        #expect(NSManagedObjectModel.mergedModel(from: [bundle]) == nil)
    }

    @Test("a bundle without models gives a model without entities")
    func emptyBundle() throws {
        let (bundle, directory) = try Self.makeBundle()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try #require(NSManagedObjectModel.mergedModel(from: [bundle]))
        #expect(model.entities.isEmpty)
    }

    @Test("a .momd holding version folders is read; a compiled .momd beside its source is skipped")
    func momdFolders() throws {
        let (bundle, directory) = try Self.makeBundle()
        defer { try? FileManager.default.removeItem(at: directory) }
        let copied = directory.appendingPathComponent("Copied.momd", isDirectory: true)
        try ModelFileKit.writeVersion(ModelFileKit.contents(Self.body("Song")), named: "Copied", in: copied)
        try Self.writeBundle("Store", versions: ["Album"], in: directory)
        let compiled = directory.appendingPathComponent("Store.momd", isDirectory: true)
        try FileManager.default.createDirectory(at: compiled, withIntermediateDirectories: true)
        try Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74]).write(to: compiled.appendingPathComponent("Store.mom"))
        let model = try #require(NSManagedObjectModel.mergedModel(from: [bundle]))
        #expect(model.entities.compactMap(\.name).sorted() == ["Album", "Song"])
    }

    @Test("a damaged compiled .momd gives nil")
    func compiledOnly() throws {
        let (bundle, directory) = try Self.makeBundle()
        defer { try? FileManager.default.removeItem(at: directory) }
        let compiled = directory.appendingPathComponent("Model.momd", isDirectory: true)
        try FileManager.default.createDirectory(at: compiled, withIntermediateDirectories: true)
        try Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74]).write(to: compiled.appendingPathComponent("Model.mom"))
        #expect(NSManagedObjectModel.mergedModel(from: [bundle]) == nil)
    }

    @Test("the merged model for store metadata exists only when the store's hashes match")
    func forStoreMetadata() throws {
        let (bundle, directory) = try Self.makeBundle()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.writeBundle("Library", versions: ["Book"], in: directory)
        let model = try #require(NSManagedObjectModel.mergedModel(from: [bundle]))
        let metadata: [String: Any] = [NSStoreModelVersionHashesKey: model.entityVersionHashesByName]
        let matching = try #require(NSManagedObjectModel.mergedModel(from: [bundle], forStoreMetadata: metadata))
        #expect(matching.entityVersionHashesByName == model.entityVersionHashesByName)
        let other: [String: Any] = [NSStoreModelVersionHashesKey: ["Book": Data(repeating: 7, count: 32)]]
        #expect(NSManagedObjectModel.mergedModel(from: [bundle], forStoreMetadata: other) == nil)
    }

    @Test("nil searches the main bundle")
    func mainBundle() throws {
        // Other tests put models next to the test program for a moment: read the folder while they can't.
        let (fromMain, explicit) = MainBundleFolder.lock.withLock {
            (NSManagedObjectModel.mergedModel(from: nil), NSManagedObjectModel.mergedModel(from: [Bundle.main]))
        }
        #expect(fromMain?.entities.map(\.name) == explicit?.entities.map(\.name))
    }

    @Test("a real versioned fixture bundle inside a bundle merges at its current version")
    func realFixture() throws {
        let (bundle, directory) = try Self.makeBundle()
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = ModelFileKit.fixture("objcio__core-data__Moody.xcdatamodeld")
        try FileManager.default.copyItem(at: source, to: directory.appendingPathComponent("Moody.xcdatamodeld"))
        let direct = try NSManagedObjectModel.load(from: source)
        let merged = try #require(NSManagedObjectModel.mergedModel(from: [bundle]))
        #expect(merged.entityVersionHashesByName == direct.entityVersionHashesByName)
        #expect(!merged.entities.isEmpty)
    }

    @Test("checksumsForVersionedModel(at:) gives each version's versionChecksum by version name")
    func versionChecksums() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = try Self.writeBundle("Library", versions: ["Book", "Volume", "Volume"], in: directory)
        let checksums = try NSManagedObjectModel.checksumsForVersionedModel(at: bundle)
        #expect(checksums.keys.sorted() == ["Library", "Library 2", "Library 3"])
        let first = try NSManagedObjectModel.load(from: bundle.appendingPathComponent("Library.xcdatamodel"))
        #expect(checksums["Library"] == first.versionChecksum)
        #expect(checksums["Library 2"] == checksums["Library 3"])
        #expect(checksums["Library"] != checksums["Library 2"])
        let mastodon = try NSManagedObjectModel.checksumsForVersionedModel(at: ModelFileKit.fixture("mastodon__mastodon-ios__CoreData.xcdatamodeld"))
        let current = try NSManagedObjectModel.load(from: ModelFileKit.fixture("mastodon__mastodon-ios__CoreData.xcdatamodeld"))
        #expect(mastodon["CoreData 9"] == current.versionChecksum)
        #expect(throws: NSError.self) {
            try NSManagedObjectModel.checksumsForVersionedModel(at: directory.appendingPathComponent("Missing.xcdatamodeld"))
        }
    }

    @Test("a store of an earlier version migrates to the merged model of its bundle: the versions are still found")
    func mergedModelMigratesEarlierVersion() throws {
        let (bundle, directory) = try Self.makeBundle()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundleURL = try Self.writeBundle("Shelf", versions: ["Book", "Book"], in: directory)
        let first = try NSManagedObjectModel.load(from: bundleURL.appendingPathComponent("Shelf.xcdatamodel"))
        // The second version adds an attribute, so the store of the first needs a migration.
        let second = bundleURL.appendingPathComponent("Shelf 2.xcdatamodel/contents")
        let text = try String(contentsOf: second, encoding: .utf8)
        try text.replacingOccurrences(of: "</entity>", with: #"<attribute name="isbn" optional="YES" attributeType="String"/></entity>"#)
            .write(to: second, atomically: true, encoding: .utf8)
        let store = directory.appendingPathComponent("Shelf.sqlite")
        do {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: first)
            try coordinator.addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: store, options: nil)
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            try context.performAndWait {
                NSEntityDescription.insertNewObject(forEntityName: "Book", into: context).setValue("Dune", forKey: "title")
                try context.save()
            }
            try coordinator.remove(coordinator.persistentStores[0])
        }
        let merged = try #require(NSManagedObjectModel.mergedModel(from: [bundle]))
        #expect(merged.entitiesByName["Book"]?.attributesByName["isbn"] != nil)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: merged)
        try coordinator.addPersistentStore(
            ofType: NSSQLiteStoreType, configurationName: nil, at: store,
            options: [
                NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
            ])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let titles = try context.performAndWait {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Book")).compactMap { $0.value(forKey: "title") as? String }
        }
        #expect(titles == ["Dune"])
    }
}
