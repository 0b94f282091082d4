import Testing

@testable import OpenCoreDataCore

/// Staged migration: the third seed's three-version example (lightweight V1 → V2, custom V2 → V3 that
/// moves a transformable attribute into a new entity), in Swift, on real SQLite stores.
@Suite("Staged migration")
struct StagedMigrationTests {
    /// V1: Aircraft(name). V2 adds Aircraft.flightData (transformable) and FlightData(data) ⟷
    /// Aircraft.flight. V3 drops Aircraft.flightData.
    static func model(_ version: Int) -> NSManagedObjectModel {
        let aircraft = ModelKit.entity("Aircraft", [ModelKit.attribute("name", .stringAttributeType)])
        guard version > 1 else { return MigrationKit.model([aircraft]) }
        func transformable(_ name: String) -> NSAttributeDescription {
            let attribute = ModelKit.attribute(name, .transformableAttributeType)
            attribute.valueTransformerName = NSValueTransformerName.secureUnarchiveFromDataTransformerName.rawValue
            return attribute
        }
        if version == 2 { aircraft.properties += [transformable("flightData")] }
        let flightData = ModelKit.entity("FlightData", [transformable("data")])
        MigrationKit.relate(flightData, "aircraft", toMany: false, aircraft, "flight", toMany: false)
        return MigrationKit.model([aircraft, flightData])
    }

    /// The seed's stages, with references built from model objects as the seed recommends.
    static func stages(didMigrate: (() -> Void)? = nil) -> NSStagedMigrationManager {
        let v1ModelChecksum = model(1).versionChecksum
        let v2ModelReference = NSManagedObjectModelReference(model: model(2), versionChecksum: model(2).versionChecksum)
        let v3ModelReference = NSManagedObjectModelReference(model: model(3), versionChecksum: model(3).versionChecksum)

        let lightweightStage = NSLightweightMigrationStage([v1ModelChecksum])
        lightweightStage.label = "V1 to V2: Add flightData attribute"
        let customStage = NSCustomMigrationStage(migratingFrom: v2ModelReference, to: v3ModelReference)
        customStage.label = "V2 to V3: Denormalize model with FlightData entity"
        customStage.willMigrateHandler = { migrationManager, currentStage in
            guard let container = migrationManager.container else {
                return
            }
            let context = container.newBackgroundContext()
            try context.performAndWait {
                let fetchRequest = NSFetchRequest<NSFetchRequestResult>(entityName: "Aircraft")
                fetchRequest.predicate = NSPredicate(format: "flightData != nil")
                let fetchedResults = try context.fetch(fetchRequest) as? [NSManagedObject] ?? []
                for airplane in fetchedResults {
                    let fdEntity = NSEntityDescription.insertNewObject(forEntityName: "FlightData", into: context)
                    let flightData = airplane.value(forKey: "flightData")
                    fdEntity.setValue(flightData, forKey: "data")
                    fdEntity.setValue(airplane, forKey: "aircraft")
                    airplane.setValue(nil, forKey: "flightData")
                }
                try context.save()
            }
        }
        customStage.didMigrateHandler = { migrationManager, _ in
            #expect(migrationManager.container?.managedObjectModel.entitiesByName["Aircraft"]?.attributesByName["flightData"] == nil)
            didMigrate?()
        }
        return NSStagedMigrationManager([lightweightStage, customStage])
    }

    /// Opens the store with V3 and the staged migration manager, as a description option.
    /// V1 is found among the coordinator's registered models (Apple's Core Data finds it in the app's
    /// bundle).
    static func openV3(_ url: URL, manager: NSStagedMigrationManager, version: Int = 3) throws -> NSPersistentContainer {
        let container = NSPersistentContainer(name: "Flights", managedObjectModel: model(version))
        container.persistentStoreCoordinator.migrationSourceModels = [model(1)]
        let description = NSPersistentStoreDescription(url: url)
        description.setOption(manager, forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
        container.persistentStoreDescriptions = [description]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    @Test("a V2 store reaches V3 through the custom stage: flight data moves into FlightData objects")
    func customStage() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Flights.sqlite")
        try MigrationKit.makeStore(Self.model(2), at: url) { context in
            context.make("Aircraft", ["name": "A320", "flightData": ["alt", "speed"] as NSArray])
            context.make("Aircraft", ["name": "B737"])
        }
        var didMigrate = 0
        let container = try Self.openV3(url, manager: Self.stages { didMigrate += 1 })
        #expect(didMigrate == 1)
        #expect(try MigrationKit.differences(url, Self.model(3)) == [])
        let context = container.newBackgroundContext()
        let flights = try context.all("FlightData")
        #expect(flights.count == 1)
        let flight = try #require(flights.first)
        #expect((flight.value(forKey: "data") as? [String]) == ["alt", "speed"])
        #expect((flight.value(forKey: "aircraft") as? NSManagedObject)?.value(forKey: "name") as? String == "A320")
        #expect(try context.all("Aircraft").count == 2)
    }

    @Test("a V1 store goes through the lightweight stage then the custom one")
    func fromV1() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Flights.sqlite")
        try MigrationKit.makeStore(Self.model(1), at: url) { context in
            context.make("Aircraft", ["name": "A380"])
        }
        var didMigrate = 0
        let container = try Self.openV3(url, manager: Self.stages { didMigrate += 1 })
        #expect(didMigrate == 1)
        #expect(try MigrationKit.differences(url, Self.model(3)) == [])
        let context = container.newBackgroundContext()
        #expect(MigrationKit.strings(try context.all("Aircraft"), "name") == ["A380"])
    }

    @Test("references check their checksum; a store whose version no stage names fails with 134130")
    func errors() throws {
        let reference = NSManagedObjectModelReference(model: Self.model(2), versionChecksum: "bogus")
        #expect(reference.versionChecksum == "bogus")
        #expect(reference.resolvedModel.entitiesByName["FlightData"] != nil)
        let directory = TemporaryDirectory()
        let url = directory.file("Flights.sqlite")
        try MigrationKit.makeStore(Self.model(2), at: url) { _ in }
        let stage = NSCustomMigrationStage(
            migratingFrom: reference,
            to: NSManagedObjectModelReference(model: Self.model(3), versionChecksum: Self.model(3).versionChecksum))
        let mismatch = try #require(throws: NSError.self) { _ = try Self.openV3(url, manager: NSStagedMigrationManager([stage])) }
        #expect(mismatch.code == NSMigrationError)
        #expect(mismatch.localizedDescription.contains("bogus"))
        let unrelated = try #require(throws: NSError.self) {
            _ = try Self.openV3(url, manager: NSStagedMigrationManager([NSLightweightMigrationStage(["nothing"])]))
        }
        #expect(unrelated.code == NSMigrationMissingSourceModelError)
        let missing = NSManagedObjectModelReference(name: "NoSuchModel", in: nil, versionChecksum: "x")
        #expect(missing.resolvedModel.entities.isEmpty)
    }

    @Test("the stages end at the coordinator's model; a store past it fails with 134506 and stays as it was")
    func stagesEndAtTheModel() throws {
        let directory = TemporaryDirectory()
        let early = directory.file("Early.sqlite")
        try MigrationKit.makeStore(Self.model(1), at: early) { context in context.make("Aircraft", ["name": "A380"]) }
        var didMigrate = 0
        _ = try Self.openV3(early, manager: Self.stages { didMigrate += 1 }, version: 2)
        #expect(didMigrate == 0)
        #expect(try MigrationKit.differences(early, Self.model(2)) == [])

        let late = directory.file("Late.sqlite")
        try MigrationKit.makeStore(Self.model(3), at: late) { context in context.make("Aircraft", ["name": "B787"]) }
        let backward = try #require(throws: NSError.self) { _ = try Self.openV3(late, manager: Self.stages(), version: 2) }
        #expect(backward.domain == NSCocoaErrorDomain && backward.code == NSStagedMigrationBackwardMigrationError)
        #expect(try MigrationKit.differences(late, Self.model(3)) == [])
    }

    @Test("a stage whose model reference finds no model fails with 134504")
    func referenceNotFound() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Flights.sqlite")
        try MigrationKit.makeStore(Self.model(2), at: url) { _ in }
        let missing = NSManagedObjectModelReference(name: "NoSuchModel", in: nil, versionChecksum: Self.model(2).versionChecksum)
        let stage = NSCustomMigrationStage(
            migratingFrom: missing,
            to: NSManagedObjectModelReference(model: Self.model(3), versionChecksum: Self.model(3).versionChecksum))
        let error = try #require(throws: NSError.self) { _ = try Self.openV3(url, manager: NSStagedMigrationManager([stage])) }
        #expect(error.code == NSManagedObjectModelReferenceNotFoundError)
        #expect(try MigrationKit.differences(url, Self.model(2)) == [])
    }
}
