import Foundation
import Testing

@testable import OpenCoreDataCore

/// Reading compiled models (`.mom`, `.momd`) and model caches against their ground truth: Apple's model
/// compiler's `SampleModel.momd` beside its source, and the caches Apple's Core Data wrote into the
/// fixture stores, beside the models that wrote them.
@Suite("Compiled model reading")
struct CompiledModelReadingTests {
    @Test("a .momd loads the current version VersionInfo.plist names; a .mom loads alone")
    func loadsCurrentVersion() throws {
        let momd = CompiledFixtures.sampleMomd
        let model = try #require(NSManagedObjectModel(contentsOf: momd))
        #expect(model.entities.compactMap(\.name) == ["Car", "ExpensiveSportCar", "Person", "SportCar"])
        #expect(model.versionIdentifiers == ["1"])
        let loaded = try NSManagedObjectModel.load(from: momd)
        #expect(loaded.entityVersionHashesByName == model.entityVersionHashesByName)
        let third = try NSManagedObjectModel.load(from: momd.appendingPathComponent("SampleModel3.mom"))
        #expect(third.versionIdentifiers == ["3"])
        #expect(third.entitiesByName["Maker"] != nil)
    }

    @Test("every version of Apple's SampleModel.momd equals its source, field by field, with Apple's hashes")
    func sampleModelEqualsSource() throws {
        let info = try #require(try CompiledModelFiles.versionInfo(inBundle: CompiledFixtures.sampleMomd))
        let appleHashes = try #require(info["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]])
        let versions = try NSManagedObjectModel.versions(inBundleAt: CompiledFixtures.sampleMomd)
        #expect(versions.map(\.name) == ["SampleModel", "SampleModel2", "SampleModel3"])
        #expect(versions.filter(\.isCurrent).map(\.name) == ["SampleModel"])
        for version in versions {
            let compiled = try version.loadModel()
            let source = try NSManagedObjectModel.load(
                from: CompiledFixtures.sampleSource.appendingPathComponent(version.name + ".xcdatamodel"))
            // Apple's compiler writes no class name for a transformable attribute (Car.color: "Color").
            let differences = ModelComparison.differences(source, compiled, ignoring: [.transformableClassName])
            #expect(differences.isEmpty, "\(version.name): \(differences.joined(separator: "\n"))")
            #expect(compiled.entityVersionHashesByName == appleHashes[version.name], "\(version.name)")
            #expect(source.entityVersionHashesByName == appleHashes[version.name], "\(version.name)")
        }
        #expect(
            try NSManagedObjectModel.checksumsForVersionedModel(at: CompiledFixtures.sampleMomd)
                == NSManagedObjectModel.checksumsForVersionedModel(at: CompiledFixtures.sampleSource))
    }

    @Test("a compiled model keeps what Apple's archive holds that the source names differently")
    func compiledDetails() throws {
        let model = try NSManagedObjectModel.load(from: CompiledFixtures.sampleMomd.appendingPathComponent("SampleModel2.mom"))
        let car = try #require(model.entitiesByName["Car"])
        #expect(car.indexes.map(\.name) == ["byMakerAndNumberPlate"])
        #expect(car.indexes.first?.elements.map { $0.propertyName ?? "" } == ["maker", "numberPlate"])
        #expect(car.uniquenessConstraints.map { $0.map { "\($0)" } } == [["numberPlate"]])
        let luxury = try #require(model.entitiesByName["LuxuryCar"])
        #expect(luxury.renamingIdentifier == "ExpensiveSportCar")
        #expect(luxury.superentity?.name == "SportCar")
        #expect(luxury.propertiesByName["numberPlate"] != nil)
        let person = try #require(model.entitiesByName["Person"])
        #expect(person.attributesByName["updatedAt"]?.isOptional == false)
        #expect(person.relationshipsByName["cars"]?.inverseRelationship === car.relationshipsByName["owner"])
        #expect((car.relationshipsByName["owner"]?.maxCount, person.relationshipsByName["cars"]?.maxCount) == (1, 0))
        let first = try NSManagedObjectModel.load(from: CompiledFixtures.sampleMomd.appendingPathComponent("SampleModel.mom"))
        let id = try #require(first.entitiesByName["Person"]?.attributesByName["id"])
        #expect(id.preservesValueInHistoryOnDeletion)
        #expect(id.attributeType == .UUIDAttributeType)
        #expect((first.entitiesByName["Person"]?.attributesByName["isDriving"]?.defaultValue as? NSNumber) == false)
        #expect(first.entitiesByName["Car"]?.attributesByName["color"]?.valueTransformerName == "ColorTransformer")
    }

    @Test("every fixture store's model cache decodes to the source model that wrote it", arguments: CompiledFixtures.cachedStores)
    func cacheEqualsSource(_ store: CompiledFixtures.CachedStore) throws {
        let cached = try CompiledFixtures.cachedModel(of: store)
        guard let url = store.modelURL else { return }
        let source = try NSManagedObjectModel.load(from: url)
        var ignored: Set<ModelComparison.Ignored> = [.transformableClassName]
        // These stores were written by their tests' models, which had no entity classes.
        if ["SampleModel_V2.sqlite", "CoreDataMigration_Example_3.sqlite"].contains(store.file) { ignored.insert(.entityClassNames) }
        let differences = ModelComparison.differences(source, cached, ignoring: ignored)
        #expect(differences.isEmpty, "\(store.file): \(differences.joined(separator: "\n"))")
    }

    @Test("every fixture store's cache gives the entity hashes its metadata records", arguments: CompiledFixtures.cachedStores)
    func cacheHashesEqualMetadata(_ store: CompiledFixtures.CachedStore) throws {
        let (blob, hashes) = try CompiledFixtures.cacheAndHashes(of: store)
        let cached = try CompiledModelDecoder.decode(try RawDeflate.inflate(blob))
        #expect(!hashes.isEmpty)
        #expect(cached.entityVersionHashesByName == hashes)
    }

    @Test("the model built in code that only a cache holds comes back whole")
    func codeBuiltModel() throws {
        let store = try #require(CompiledFixtures.cachedStores.first { $0.modelVersion == nil })
        let model = try CompiledFixtures.cachedModel(of: store)
        #expect(model.configurations == ["SampleConfigurationV1"])
        #expect(model.entities(forConfigurationName: "SampleConfigurationV1")?.count == 6)
        let writer = try #require(model.entitiesByName["Writer"])
        #expect(writer.isAbstract)
        #expect(writer.subentities.map { $0.name ?? "" } == ["Author"])
        let author = try #require(model.entitiesByName["Author"])
        #expect(author.uniquenessConstraints.map { $0.map { "\($0)" } } == [["alias"]])
        #expect(Set(author.properties.map(\.name)) == ["alias", "books", "favFeedbacks", "feedbacks", "siteURL"])
        let favorites = try #require(author.propertiesByName["favFeedbacks"] as? NSFetchedPropertyDescription)
        #expect(favorites.userInfo?["search"] as? String == "great")
        #expect(favorites.fetchRequest?.entityName == "Feedback")
        #expect(
            favorites.fetchRequest?.predicate?.predicateFormat
                == "authorAlias == $FETCH_SOURCE.alias AND comment CONTAINS[c] $FETCHED_PROPERTY.userInfo.search")
        let feedbacks = try #require(author.propertiesByName["feedbacks"] as? NSFetchedPropertyDescription)
        #expect(feedbacks.fetchRequest?.sortDescriptors?.map { "\($0.key ?? ""):\($0.ascending)" } == ["rating:true"])
        let books = try #require(author.relationshipsByName["books"])
        #expect(books.maxCount == Int.max)
        #expect(books.deleteRule == .cascadeDeleteRule)
        let book = try #require(model.entitiesByName["Book"])
        let count = try #require(book.attributesByName["pagesCount"] as? NSDerivedAttributeDescription)
        #expect(count.derivationExpression?.description == "count:(pages)")
        let title = try #require(book.attributesByName["title"])
        #expect(
            title.validationPredicates.map(\.predicateFormat)
                == ["length >= 3 AND length <= 50", "SELF CONTAINS \"title\""])
        #expect(title.validationWarnings.map { "\($0)" } == ["Title must have a length between 3 and 50 chars.", "Title must contain 'title'."])
        #expect(book.relationshipsByName["pages"]?.maxCount == 10000)
        #expect(book.attributesByName["price"]?.attributeType == .decimalAttributeType)
        // The transformable default value is of the app's class, which this program does not have.
        #expect(book.attributesByName["cover"]?.attributeValueClassName == "Cover")
        #expect(book.attributesByName["cover"]?.defaultValue == nil)
        #expect(model.entitiesByName["GraphicNovel"]?.managedObjectClassName == "GraphicNovel")
    }

    @Test("mergedModel(from:) and NSPersistentContainer find compiled models")
    func findsCompiledModels() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: CompiledFixtures.sampleMomd, to: directory.appendingPathComponent("SampleModel.momd"))
        try FileManager.default.copyItem(
            at: CompiledFixtures.sampleMomd.appendingPathComponent("SampleModel3.mom"),
            to: directory.appendingPathComponent("Other.mom"))
        let bundle = try #require(Bundle(path: directory.path))
        // Other.mom's entities repeat SampleModel's, so the two cannot merge; each alone is found.
        #expect(NSManagedObjectModel.mergedModel(from: [bundle]) == nil)
        try FileManager.default.removeItem(at: directory.appendingPathComponent("Other.mom"))
        let merged = try #require(NSManagedObjectModel.mergedModel(from: [bundle]))
        #expect(merged.entities.compactMap(\.name).sorted() == ["Car", "ExpensiveSportCar", "Person", "SportCar"])

        try MainBundleFolder.lock.withLock {
            let name = "CompiledContainer\(UUID().uuidString.prefix(8))"
            let destination = Bundle.main.bundleURL.appendingPathComponent("\(name).momd")
            try FileManager.default.copyItem(at: CompiledFixtures.sampleMomd, to: destination)
            defer { try? FileManager.default.removeItem(at: destination) }
            let container = NSPersistentContainer(name: name)
            #expect(container.managedObjectModel.entitiesByName["Person"] != nil)
            container.persistentStoreDescriptions = [NSPersistentStoreDescription(url: directory.appendingPathComponent("c.sqlite"))]
            var failure: (any Error)?
            container.loadPersistentStores { failure = $1 }
            #expect(failure == nil)
        }
    }

    @Test("a .momd without VersionInfo.plist loads its last version; one naming a missing version is an error")
    func versionInfoFallbacks() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let momd = directory.appendingPathComponent("Copy.momd")
        try FileManager.default.copyItem(at: CompiledFixtures.sampleMomd, to: momd)
        try FileManager.default.removeItem(at: momd.appendingPathComponent("VersionInfo.plist"))
        #expect(try NSManagedObjectModel.load(from: momd).versionIdentifiers == ["3"])
        let info = try #require(BinaryPropertyListWriter.data(plist: ["NSManagedObjectModel_CurrentVersionName": "Gone"]))
        try info.write(to: momd.appendingPathComponent("VersionInfo.plist"))
        let error = try ModelFileKit.loadError(at: momd)
        #expect(error.code == 134060)
        #expect(error.localizedDescription.contains("'Gone'"))
    }

    @Test("a store of another version migrates to a .momd's current version: the other versions are kept for migration")
    func migratesFromOtherVersion() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let momd = directory.appendingPathComponent("SampleModel.momd")
        try FileManager.default.copyItem(at: CompiledFixtures.sampleMomd, to: momd)
        var info = try #require(try CompiledModelFiles.versionInfo(inBundle: momd))
        info["NSManagedObjectModel_CurrentVersionName"] = "SampleModel2"
        try #require(BinaryPropertyListWriter.data(plist: info)).write(to: momd.appendingPathComponent("VersionInfo.plist"))
        let url = directory.appendingPathComponent("Cars.sqlite")
        do {
            let old = try NSManagedObjectModel.load(from: momd.appendingPathComponent("SampleModel.mom"))
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: old)
            try coordinator.addPersistentStore(type: .sqlite, at: url)
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            try context.performAndWait {
                let car = NSEntityDescription.insertNewObject(forEntityName: "ExpensiveSportCar", into: context)
                car.setValue("OCD 1", forKey: "numberPlate")
                car.setValue(true, forKey: "isLimitedEdition")
                try context.save()
            }
            for store in coordinator.persistentStores { try coordinator.remove(store) }
        }
        let current = try NSManagedObjectModel.load(from: momd)
        #expect(current.entitiesByName["LuxuryCar"] != nil)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: current)
        try coordinator.addPersistentStore(
            type: .sqlite, at: url,
            options: [
                NSMigratePersistentStoresAutomaticallyOption: true, NSInferMappingModelAutomaticallyOption: true,
            ])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let plates = try context.performAndWait {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "LuxuryCar")).map { $0.value(forKey: "numberPlate") as? String }
        }
        #expect(plates == ["OCD 1"])
    }
}
