import Testing

@testable import OpenCoreDataCore

/// A SQLite store works out which columns a fetch of an entity selects, and how its rows are read,
/// once, and reuses both for later fetches: each later fetch must read its rows exactly as the first
/// one did, whatever changed in between that the columns and plans depend on.
@Suite("Fetches reuse their columns and decoding plans")
struct FetchPlanReuseTests {
    @Test("a fetch of an entity's own rows, then one with its subentities, reads each row as its own entity")
    func subentitiesAfterOwnRows() throws {
        let stack = try GraphStack(model: VehicleModel.make())
        try VehicleModel.fill(stack.context())
        let context = stack.context()
        let request = NSFetchRequest<Vehicle>(entityName: "Vehicle")
        request.sortDescriptors = [NSSortDescriptor(key: "brand", ascending: true)]
        request.includesSubentities = false
        #expect(try context.fetch(request).isEmpty)
        request.includesSubentities = true
        let vehicles = try context.fetch(request)
        #expect(vehicles.map { $0.entity.name } == ["Motorcycle", "Car", "Car"])
        #expect((vehicles[0] as? Motorcycle)?.engineCC == 937)
        #expect((vehicles[2] as? Car)?.numberOfDoors == 5)
    }

    @Test("a fetch with subentities, then one of an entity's own rows, returns only the entity's own rows")
    func ownRowsAfterSubentities() throws {
        let stack = try GraphStack(model: VehicleModel.make())
        try VehicleModel.fill(stack.context())
        let context = stack.context()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Vehicle")
        #expect(try context.fetch(request).count == 3)
        request.includesSubentities = false
        #expect(try context.fetch(request).isEmpty)
        #expect(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Car")).count == 2)
    }

    @Test("after the store's identifier changes, fetched IDs carry the new one and hash like any ID of their row")
    func identifierChange() throws {
        let stack = try GraphStack()
        let writer = stack.context()
        writer.make("Tag", ["name": "swift"])
        try writer.save()
        let store = try #require(stack.coordinator.persistentStores.first)
        let entity = try #require(stack.model.entitiesByName["Tag"])

        // The first fetch's context and IDs are let go before the identifier changes, so that nothing
        // holds the store's old ID reference (a new one may then take its place in memory).
        let firstURI = try {
            let before = stack.context()
            let first = try #require(try before.fetch(NSFetchRequest<NSManagedObject>(entityName: "Tag")).first).objectID
            #expect(first == NSManagedObjectID(entity: entity, store: store, primaryKey: 1))
            return first.uriRepresentation()
        }()

        store.identifier = "B0B0B0B0-0000-4000-8000-000000000002"
        let after = stack.context()
        let fetched = try #require(try after.fetch(NSFetchRequest<NSManagedObject>(entityName: "Tag")).first).objectID
        let made = NSManagedObjectID(entity: entity, store: store, primaryKey: 1)
        #expect(fetched.uriRepresentation().absoluteString == "x-coredata://B0B0B0B0-0000-4000-8000-000000000002/Tag/p1")
        #expect(fetched == made)
        #expect(fetched.hash == made.hash)
        #expect(Set([fetched]).contains(made))
        #expect(fetched.uriRepresentation() != firstURI)
    }
}
