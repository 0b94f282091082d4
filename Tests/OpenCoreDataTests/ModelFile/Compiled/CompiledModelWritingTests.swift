import Foundation
import Testing

@testable import OpenCoreDataCore

/// Writing compiled models and model caches: what is written reads back to the same model, with the
/// same hashes, and holds the classes and keys Apple's archives of the same model hold.
@Suite("Compiled model writing")
struct CompiledModelWritingTests {
    /// The classes of an archive and, for each, every key its instances have.
    static func shape(of archive: Data) throws -> [String: Set<String>] {
        let reader = try KeyedArchiveReader(archive)
        var result: [String: Set<String>] = [:]
        for uid in 1..<reader.objects.count {
            guard case .dictionary(let fields)? = try reader.node(ofObject: uid), fields["$class"] != nil,
                let instance = try reader.instance(uid)
            else { continue }
            result[instance.className, default: []].formUnion(instance.fields.keys)
        }
        return result
    }

    /// The differences between two shapes, for the classes both have.
    static func shapeDifferences(_ ours: [String: Set<String>], _ apple: [String: Set<String>]) -> [String] {
        var lines: [String] = []
        for (name, keys) in apple.sorted(by: { $0.key < $1.key }) {
            guard let mine = ours[name] else {
                lines.append("\(name): not written")
                continue
            }
            if mine != keys {
                lines.append("\(name): missing \(keys.subtracting(mine).sorted()), extra \(mine.subtracting(keys).sorted())")
            }
        }
        return lines
    }

    @Test("a .mom written for SampleModel holds the classes and keys of Apple's SampleModel.mom")
    func modelFileShapeIsApples() throws {
        for version in ["SampleModel", "SampleModel2", "SampleModel3"] {
            let source = try NSManagedObjectModel.load(from: CompiledFixtures.sampleSource.appendingPathComponent(version + ".xcdatamodel"))
            let ours = try Self.shape(of: try source.compiledModelData())
            let apple = try Self.shape(of: try Data(contentsOf: CompiledFixtures.sampleMomd.appendingPathComponent(version + ".mom")))
            let differences = Self.shapeDifferences(ours, apple)
            #expect(differences.isEmpty, "\(version): \(differences.joined(separator: "\n"))")
            #expect(Set(ours.keys) == Set(apple.keys), "\(version)")
        }
    }

    @Test(
        "a cache written for a fixture store's model holds the classes and keys of Apple's cache",
        arguments: CompiledFixtures.cachedStores)
    func cacheShapeIsApples(_ store: CompiledFixtures.CachedStore) throws {
        let blob = try CompiledFixtures.cacheAndHashes(of: store).cache
        let appleArchive = try RawDeflate.inflate(blob)
        let model = try CompiledModelDecoder.decode(appleArchive)
        var ours = try Self.shape(of: try CompiledModelEncoder.encode(model, style: .storeCache))
        var apple = try Self.shape(of: appleArchive)
        // The older caches (framework 866 to 1251) list an entity's empty index arrays; the app class of a
        // transformable default value (CoreDataPlus_Tests.Cover) is not in this program.
        apple["NSEntityDescription"]?.subtract(["NSFetchIndexDescriptions", "NSCompoundIndexes"])
        ours["NSEntityDescription"]?.subtract(["NSFetchIndexDescriptions", "NSCompoundIndexes"])
        apple.removeValue(forKey: "CoreDataPlus_Tests.Cover")
        if ours["NSMutableArray"] == nil { apple.removeValue(forKey: "NSMutableArray") }
        let differences = Self.shapeDifferences(ours, apple)
        #expect(differences.isEmpty, "\(store.file): \(differences.joined(separator: "\n"))")
    }

    @Test("zlib at level 5 compresses every Apple-written cache to its very bytes", arguments: CompiledFixtures.cachedStores)
    func compressionIsApples(_ store: CompiledFixtures.CachedStore) throws {
        let blob = try CompiledFixtures.cacheAndHashes(of: store).cache
        #expect(RawDeflate.deflate(try RawDeflate.inflate(blob)) == blob)
    }

    @Test("every fixture model compiles to a .momd whose versions read back equal, with equal hashes; caches lose nothing")
    func everyFixtureModelRoundTrips() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var compiled = 0
        for path in try ModelFixtureTests.allModelPaths() {
            let isBundle = path.pathExtension == "xcdatamodeld"
            let versions = isBundle ? try NSManagedObjectModel.versions(inBundleAt: path) : []
            let sources: [(String, NSManagedObjectModel)] =
                isBundle
                ? versions.compactMap { version in (try? version.loadModel()).map { (version.name, $0) } }
                : [(path.deletingPathExtension().lastPathComponent, try NSManagedObjectModel.load(from: path))]
            guard !sources.isEmpty else { continue }  // Xcode 3 binary versions only
            let output = directory.appendingPathComponent(UUID().uuidString)
            if isBundle, sources.count == versions.count {
                let momd = try NSManagedObjectModel.compileModel(at: path, into: output)
                let info = try #require(try CompiledModelFiles.versionInfo(inBundle: momd))
                let hashes = try #require(info["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]])
                #expect(info["NSManagedObjectModel_CurrentVersionName"] as? String == versions.first(where: \.isCurrent)?.name)
                #expect(
                    try NSManagedObjectModel.load(from: momd).versionChecksum
                        == NSManagedObjectModel.load(from: path).versionChecksum, "\(path.lastPathComponent)")
                for (name, source) in sources {
                    #expect(hashes[name] == source.entityVersionHashesByName, "\(path.lastPathComponent) \(name)")
                }
            }
            for (name, source) in sources {
                let mom = try NSManagedObjectModel.load(from: try Self.writeMom(source, named: name, in: output))
                let differences = ModelComparison.differences(source, mom, ignoring: [.transformableClassName])
                #expect(differences.isEmpty, "\(path.lastPathComponent) \(name): \(differences.prefix(10).joined(separator: "\n"))")
                let cache = try CompiledModelDecoder.decode(try CompiledModelEncoder.encode(source, style: .storeCache))
                let cacheDifferences = ModelComparison.differences(source, cache)
                #expect(cacheDifferences.isEmpty, "\(path.lastPathComponent) \(name) cache: \(cacheDifferences.prefix(10).joined(separator: "\n"))")
                compiled += 1
            }
        }
        #expect(compiled == 234)
    }

    static func writeMom(_ model: NSManagedObjectModel, named name: String, in directory: URL) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name + ".mom")
        try model.compiledModelData().write(to: url)
        return url
    }

    @Test("a store OpenCoreData creates carries its whole model in Z_MODELCACHE, and opens with it")
    func storeCreationWritesCache() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try NSManagedObjectModel.load(from: CompiledFixtures.sampleSource)
        let url = directory.appendingPathComponent("New.sqlite")
        do {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(type: .sqlite, at: url)
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            try context.performAndWait {
                let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
                person.setValue("Ada", forKey: "firstName")
                person.setValue(UUID(), forKey: "id")
                person.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "updatedAt")
                try context.save()
            }
            for store in coordinator.persistentStores { try coordinator.remove(store) }
        }
        let cached = try SQLiteModelCache.archivedModel(inStoreAt: url)
        #expect(ModelComparison.differences(model, cached).isEmpty)
        let opened = try NSManagedObjectModel.load(cachedInStoreAt: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: opened)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: [NSMigratePersistentStoresAutomaticallyOption: false])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let names = try context.performAndWait {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person")).map { $0.value(forKey: "firstName") as? String }
        }
        #expect(names == ["Ada"])
    }

    @Test("a lightweight migration rewrites the cache to the new model")
    func migrationRewritesCache() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = CompiledFixtures.sampleSource
        let old = try NSManagedObjectModel.load(from: bundle.appendingPathComponent("SampleModel.xcdatamodel"))
        let new = try NSManagedObjectModel.load(from: bundle.appendingPathComponent("SampleModel2.xcdatamodel"))
        let url = directory.appendingPathComponent("Migrated.sqlite")
        do {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: old)
            try coordinator.addPersistentStore(type: .sqlite, at: url)
            for store in coordinator.persistentStores { try coordinator.remove(store) }
        }
        #expect(try SQLiteModelCache.archivedModel(inStoreAt: url).entitiesByName["ExpensiveSportCar"] != nil)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: new)
        try coordinator.addPersistentStore(
            type: .sqlite, at: url,
            options: [
                NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
            ])
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        let cached = try SQLiteModelCache.archivedModel(inStoreAt: url)
        #expect(ModelComparison.differences(new, cached).isEmpty)
    }

    @Test("ocd model compile writes a .momd (or a .mom) that loads as its source")
    func compileCommand() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try StoreProcesses.ocd(["model", "compile", CompiledFixtures.sampleSource.path, "-o", directory.path])
        #expect(result.status == 0, "\(result.error)")
        let momd = directory.appendingPathComponent("SampleModel.momd")
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == momd.path)
        #expect(result.error.isEmpty, "no progress bar in a pipe")
        let names = try FileManager.default.contentsOfDirectory(atPath: momd.path).sorted()
        #expect(names == ["SampleModel.mom", "SampleModel2.mom", "SampleModel3.mom", "VersionInfo.plist"])
        #expect(
            try NSManagedObjectModel.load(from: momd).entityVersionHashesByName
                == NSManagedObjectModel.load(from: CompiledFixtures.sampleSource).entityVersionHashesByName)
        let single = try StoreProcesses.ocd([
            "model", "compile", CompiledFixtures.sampleSource.appendingPathComponent("SampleModel3.xcdatamodel").path,
            "-o", directory.path,
        ])
        #expect(single.status == 0, "\(single.error)")
        #expect(try NSManagedObjectModel.load(from: directory.appendingPathComponent("SampleModel3.mom")).versionIdentifiers == ["3"])
        let missing = try StoreProcesses.ocd(["model", "compile", directory.appendingPathComponent("None.xcdatamodeld").path, "-o", directory.path])
        #expect(missing.status != 0)
        #expect(missing.error.contains("None.xcdatamodeld"))
    }
}
