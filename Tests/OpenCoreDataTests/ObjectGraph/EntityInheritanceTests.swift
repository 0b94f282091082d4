import GRDB
import OpenCoreData
import Testing

/// The second seed's hierarchy: Vehicle (abstract, brand) → Car (numberOfDoors), Motorcycle (engineCC).
class Vehicle: NSManagedObject {
    var brand: String {
        get { managedValue(forKey: "brand") }
        set { setManagedValue(newValue, forKey: "brand") }
    }
}

final class Car: Vehicle {
    var numberOfDoors: Int {
        get { managedValue(forKey: "numberOfDoors") }
        set { setManagedValue(newValue, forKey: "numberOfDoors") }
    }
}

final class Motorcycle: Vehicle {
    var engineCC: Int {
        get { managedValue(forKey: "engineCC") }
        set { setManagedValue(newValue, forKey: "engineCC") }
    }
}

extension Vehicle {
    @nonobjc class func fetchRequest() -> NSFetchRequest<Vehicle> {
        NSFetchRequest<Vehicle>(entityName: "Vehicle")
    }
}

/// Vehicle ← Car, Motorcycle; Garage(name, vehicles ->> Vehicle, favorite -> Vehicle); Sticker(text) is unrelated.
enum VehicleModel {
    static func make() -> NSManagedObjectModel {
        let vehicle = ModelKit.entity("Vehicle", [ModelKit.attribute("brand", .stringAttributeType, optional: false)])
        vehicle.isAbstract = true
        let doors = ModelKit.attribute("numberOfDoors", .integer16AttributeType)
        doors.defaultValue = 4
        let car = ModelKit.entity("Car", [doors])
        let engine = ModelKit.attribute("engineCC", .integer32AttributeType)
        engine.defaultValue = 0
        let motorcycle = ModelKit.entity("Motorcycle", [engine])
        vehicle.subentities = [car, motorcycle]
        let garage = ModelKit.entity("Garage")
        let vehicles = ModelKit.relationship("vehicles", to: vehicle, toMany: true)
        let garageOf = ModelKit.relationship("garage", to: garage)
        ModelKit.pair(vehicles, garageOf)
        vehicle.properties += [garageOf]
        garage.properties = [
            ModelKit.attribute("name", .stringAttributeType), vehicles,
            ModelKit.relationship("favorite", to: vehicle),
        ]
        garage.managedObjectClassName = "NSManagedObject"
        let sticker = ModelKit.entity("Sticker", [ModelKit.attribute("text", .stringAttributeType)])
        sticker.managedObjectClassName = "NSManagedObject"
        let model = NSManagedObjectModel()
        model.entities = [vehicle, car, motorcycle, garage, sticker]
        return model
    }

    /// Saves two cars and a motorcycle in a garage whose favorite is the motorcycle.
    static func fill(_ context: NSManagedObjectContext) throws {
        let golf = Car(context: context)
        golf.brand = "VW"
        golf.numberOfDoors = 5
        let mini = Car(context: context)
        mini.brand = "Mini"
        mini.numberOfDoors = 3
        let bike = Motorcycle(context: context)
        bike.brand = "Ducati"
        bike.engineCC = 937
        let garage = context.make("Garage", ["name": "Home"])
        garage.setValue(NSSet(array: [golf, mini, bike]), forKey: "vehicles")
        garage.setValue(bike, forKey: "favorite")
        try context.save()
    }
}

@Suite("Entity inheritance: one table per hierarchy, sub-entity instances, abstract entities")
struct EntityInheritanceTests {
    @Test("a fetch on the parent returns instances of each sub-entity's class", arguments: TestStoreKind.allCases)
    func parentFetch(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: VehicleModel.make())
        try VehicleModel.fill(stack.context())
        let context = stack.context()
        let request: NSFetchRequest<Vehicle> = Vehicle.fetchRequest()
        request.sortDescriptors = [NSSortDescriptor(key: "brand", ascending: true)]
        let vehicles = try context.fetch(request)
        #expect(vehicles.map(\.brand) == ["Ducati", "Mini", "VW"])
        #expect(vehicles[0] is Motorcycle && vehicles[1] is Car && vehicles[2] is Car)
        #expect(vehicles.map { $0.entity.name } == ["Motorcycle", "Car", "Car"])
        #expect((vehicles[0] as? Motorcycle)?.engineCC == 937)
        #expect((vehicles[2] as? Car)?.numberOfDoors == 5)
        let big = NSFetchRequest<Vehicle>(entityName: "Vehicle")
        big.predicate = NSPredicate(format: "brand BEGINSWITH 'D' OR brand == 'VW'")
        #expect(try context.count(for: big) == 2)
        let cars = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Car"))
        #expect(cars.count == 2 && cars.allSatisfy { $0 is Car })
    }

    @Test("includesSubentities = false returns only objects of the entity itself", arguments: TestStoreKind.allCases)
    func excludingSubentities(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: VehicleModel.make())
        try VehicleModel.fill(stack.context())
        let context = stack.context()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Vehicle")
        request.includesSubentities = false
        #expect(try context.fetch(request).isEmpty)
        #expect(try context.count(for: request) == 0)
        let pending = Car(context: context)
        pending.brand = "Fiat"
        #expect(try context.fetch(request).isEmpty, "pending sub-entity objects are excluded too")
        request.includesSubentities = true
        #expect(try context.fetch(request).count == 4)
    }

    @Test("sub-entities share the root entity's table, told apart by Z_ENT")
    func singleTable() throws {
        let stack = try GraphStack(model: VehicleModel.make())
        try VehicleModel.fill(stack.context())
        let entities = try StoreKit.rows(stack.storeURL, "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY")
        let numbers = Dictionary(uniqueKeysWithValues: entities.map { (($0["Z_NAME"] as String?) ?? "", ($0["Z_ENT"] as Int64?) ?? 0) })
        let rows = try StoreKit.rows(stack.storeURL, "SELECT Z_ENT, ZBRAND, ZNUMBEROFDOORS, ZENGINECC FROM ZVEHICLE ORDER BY ZBRAND")
        #expect(rows.count == 3)
        let entityOfRow = rows.map { $0["Z_ENT"] as Int64? }
        #expect(entityOfRow == [numbers["Motorcycle"], numbers["Car"], numbers["Car"]])
        #expect((rows[0]["ZENGINECC"] as Int64?) == 937)
        #expect((rows[0]["ZNUMBEROFDOORS"] as Int64?) == nil)
        let tables = try StoreKit.rows(stack.storeURL, "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('ZCAR', 'ZMOTORCYCLE')")
        #expect(tables.isEmpty)
    }

    @Test(
        "relationships to the parent entity hold any sub-entity and read back as the right class",
        arguments: TestStoreKind.allCases)
    func relationshipsToParent(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: VehicleModel.make())
        try VehicleModel.fill(stack.context())
        let context = stack.context()
        let garage = try #require(try context.all("Garage").first)
        let vehicles = try #require(garage.value(forKey: "vehicles") as? NSSet)
        #expect(vehicles.count == 3)
        #expect(vehicles.allObjects.filter { $0 is Car }.count == 2)
        #expect(vehicles.allObjects.filter { $0 is Motorcycle }.count == 1)
        let favorite = try #require(garage.value(forKey: "favorite") as? Motorcycle)
        #expect(favorite.engineCC == 937)
        let onlyBikes = try context.all("Garage", predicate: NSPredicate(format: "favorite.brand == 'Ducati'"))
        #expect(onlyBikes.count == 1)
    }

    @Test("inserting an object of an abstract entity stops the program, naming the entity", .tags(.exitTest))
    func abstractEntityTraps() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stack = try GraphStack(model: VehicleModel.make())
            _ = NSEntityDescription.insertNewObject(forEntityName: "Vehicle", into: stack.context())
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("abstract entity Vehicle"))
    }

    @Test("a fetch typed as one sub-entity's class that finds an object of another stops the program, naming both", .tags(.exitTest))
    func mistypedFetchTraps() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stack = try GraphStack(.sqlite, model: VehicleModel.make())
            let filling = stack.context()
            try VehicleModel.fill(filling)
            Car(context: filling).brand = "Audi"
            try filling.save()
            // A new context, so the fetch makes every object: cars on both sides of the motorcycle
            // (Audi, Ducati, Mini, VW), whichever end the objects are made from.
            let request = NSFetchRequest<Car>(entityName: "Vehicle")
            request.sortDescriptors = [NSSortDescriptor(key: "brand", ascending: true)]
            let vehicles = try stack.context().fetch(request)
            print(vehicles.map(\.numberOfDoors))
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("returned Motorcycle, which is not Car"))
    }

    @Test("a typed fetch whose store rows are all of its class, merged with an unsaved object of another, stops the program", .tags(.exitTest))
    func mistypedPendingObjectTraps() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let stack = try GraphStack(.sqlite, model: VehicleModel.make())
            let filling = stack.context()
            Car(context: filling).brand = "Audi"
            Car(context: filling).brand = "VW"
            try filling.save()
            let context = stack.context()
            Motorcycle(context: context).brand = "Ducati"
            let vehicles = try context.fetch(NSFetchRequest<Car>(entityName: "Vehicle"))
            print(vehicles.map(\.numberOfDoors))
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("returned Motorcycle, which is not Car"))
    }

    @Test("setting a to-one relationship to an object of an unrelated entity stops the program", .tags(.exitTest))
    func wrongEntityTraps() async {
        await #expect(processExitsWith: .failure) {
            let stack = try GraphStack(model: VehicleModel.make())
            let context = stack.context()
            let garage = context.make("Garage")
            garage.setValue(context.make("Sticker"), forKey: "favorite")
        }
    }
}
