import GRDB
import OpenCoreData
import Testing

/// An object of the `Reading` entity, its properties written as the `@Managed` macro expands them; it
/// counts how often its values were loaded.
final class FetchedReading: NSManagedObject {
    nonisolated(unsafe) var awakeCount = 0
    var i0: Int64 {
        get { managedValue(forKey: "i0") }
        set { setManagedValue(newValue, forKey: "i0") }
    }
    var i1: Int64 {
        get { managedValue(forKey: "i1") }
        set { setManagedValue(newValue, forKey: "i1") }
    }
    var small: Int16 {
        get { managedValue(forKey: "small") }
        set { setManagedValue(newValue, forKey: "small") }
    }
    var ratio: Double {
        get { managedValue(forKey: "ratio") }
        set { setManagedValue(newValue, forKey: "ratio") }
    }
    var flag: Bool {
        get { managedValue(forKey: "flag") }
        set { setManagedValue(newValue, forKey: "flag") }
    }
    var label: String? {
        get { managedValue(forKey: "label") }
        set { setManagedValue(newValue, forKey: "label") }
    }
    var maybe: Int64? {
        get { managedValue(forKey: "maybe") }
        set { setManagedValue(newValue, forKey: "maybe") }
    }
    var maybeInt: Int? {
        get { managedValue(forKey: "maybe") }
        set { setManagedValue(newValue, forKey: "maybe") }
    }
    var maybeRatio: Double? {
        get { managedValue(forKey: "ratio") }
        set { setManagedValue(newValue, forKey: "ratio") }
    }

    override func awakeFromFetch() {
        super.awakeFromFetch()
        awakeCount += 1
    }
}

/// Reading(i0, i1: Integer 64 default 7; small: Integer 16; ratio: Double; flag: Boolean; label: String;
/// maybe: optional Integer 64 without default), objects of class ``FetchedReading``.
private enum ReadingModel {
    static func make() -> NSManagedObjectModel {
        let i0 = ModelKit.attribute("i0", .integer64AttributeType)
        i0.defaultValue = 7
        let i1 = ModelKit.attribute("i1", .integer64AttributeType)
        i1.defaultValue = 7
        let entity = ModelKit.entity(
            "Reading",
            [
                i0, i1,
                ModelKit.attribute("small", .integer16AttributeType),
                ModelKit.attribute("ratio", .doubleAttributeType),
                ModelKit.attribute("flag", .booleanAttributeType),
                ModelKit.attribute("label", .stringAttributeType),
                ModelKit.attribute("maybe", .integer64AttributeType),
            ])
        entity.managedObjectClassName = String(reflecting: FetchedReading.self)
        let model = NSManagedObjectModel()
        model.entities = [entity]
        return model
    }

    /// A request for readings as `type`, sorted by `i0` and matching `format` when given.
    static func sorted<T>(_ type: T.Type, ascending: Bool = true, where format: String? = nil) -> NSFetchRequest<T> {
        let request = NSFetchRequest<T>(entityName: "Reading")
        request.predicate = format.map { NSPredicate(format: $0) }
        request.sortDescriptors = [NSSortDescriptor(key: "i0", ascending: ascending)]
        return request
    }

    /// A store with `count` readings saved, and a fresh coordinator on it (cold row cache).
    static func savedStack(count: Int, directory: TemporaryDirectory = TemporaryDirectory()) throws -> (GraphStack, NSPersistentStoreCoordinator) {
        let stack = try GraphStack(model: make(), directory: directory, fileName: "Readings.sqlite")
        let context = stack.context()
        for row in 0..<count {
            let reading = NSEntityDescription.insertNewObject(forEntityName: "Reading", into: context)
            reading.setValue(Int64(row), forKey: "i0")
            reading.setValue(Int64(row) * 1_000_003, forKey: "i1")
            reading.setValue(Int16(row % 100), forKey: "small")
            reading.setValue(Double(row) / 4, forKey: "ratio")
            reading.setValue(row % 2 == 0, forKey: "flag")
            reading.setValue("r\(row)", forKey: "label")
        }
        try context.save()
        return (stack, try stack.secondCoordinator())
    }
}

/// Objects of the `Vehicle` entity; its sub-entity `Car` has the subclass ``FetchedCar``.
class FetchedVehicle: NSManagedObject {}
final class FetchedCar: FetchedVehicle {}

@Suite("Fetch materialization")
struct FetchMaterializationTests {
    @Test("every fetched row becomes one registered object, and a second fetch returns the same objects")
    func registeredOnce() throws {
        let (stack, cold) = try ReadingModel.savedStack(count: 50)
        let context = stack.context(cold)
        let request = NSFetchRequest<FetchedReading>(entityName: "Reading")
        let first = try context.fetch(request)
        #expect(first.count == 50)
        #expect(context.registeredObjects.count == 50)
        #expect(Set(first.map(\.objectID)).count == 50)
        let second = try context.fetch(request)
        let firstByID = Dictionary(uniqueKeysWithValues: first.map { ($0.objectID, $0) })
        #expect(second.allSatisfy { firstByID[$0.objectID] === $0 })
        #expect(context.registeredObjects.count == 50)
        #expect(second.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
    }

    @Test("values read back exactly through the generated accessors and through value(forKey:)")
    func valuesExact() throws {
        let (stack, cold) = try ReadingModel.savedStack(count: 20)
        let context = stack.context(cold)
        let readings = try context.fetch(ReadingModel.sorted(FetchedReading.self))
        #expect(readings.count == 20)
        for (row, reading) in readings.enumerated() {
            #expect(reading.i0 == Int64(row))
            #expect(reading.i1 == Int64(row) * 1_000_003)
            #expect(reading.small == Int16(row % 100))
            #expect(reading.ratio == Double(row) / 4)
            #expect(reading.maybeRatio == Double(row) / 4)
            #expect(reading.flag == (row % 2 == 0))
            #expect(reading.label == "r\(row)")
            #expect(reading.maybe == nil)
            #expect(reading.maybeInt == nil)
            #expect((reading.value(forKey: "i1") as? NSNumber)?.int64Value == Int64(row) * 1_000_003)
            #expect(reading.value(forKey: "label") as? String == "r\(row)")
            #expect(reading.value(forKey: "maybe") == nil)
        }
    }

    @Test("number columns that another program filled with another storage class read back converted by the attribute's type, or as nil")
    func numbersOfOtherStorageClasses() throws {
        let (stack, _) = try ReadingModel.savedStack(count: 3)
        // Values SQLite's column affinity keeps as they are: a fractional real in an integer column, text
        // that is not a number, a blob.
        try StoreKit.execute(stack.storeURL, "UPDATE ZREADING SET ZSMALL = 7.9, ZRATIO = 'inf' WHERE ZI0 = 0")
        try StoreKit.execute(stack.storeURL, "UPDATE ZREADING SET ZSMALL = 'seven', ZMAYBE = 'many' WHERE ZI0 = 1")
        try StoreKit.execute(stack.storeURL, "UPDATE ZREADING SET ZI1 = X'01', ZRATIO = 'x' WHERE ZI0 = 2")
        let context = stack.context(try stack.secondCoordinator())
        let readings = try context.fetch(ReadingModel.sorted(FetchedReading.self))
        #expect(readings.map(\.small) == [7, 0, 2])
        #expect(readings.map(\.maybeRatio) == [.infinity, 0.25, nil])
        #expect(readings[0].ratio == .infinity)
        #expect((readings[0].value(forKey: "ratio") as? NSNumber)?.doubleValue == .infinity)
        #expect((readings[0].value(forKey: "small") as? NSNumber)?.int16Value == 7)
        #expect(readings[1].value(forKey: "small") == nil)
        #expect(readings[1].maybe == nil)
        #expect(readings[2].value(forKey: "i1") == nil)
        #expect(readings[2].i1 == 0)
    }

    @Test(
        "an integer column holding text, a blob or a real reads as SQLite reads it, alike in a fetch of objects, of dictionaries, and an object fetched alone"
    )
    func integersOfOtherStorageClassesReadAsSQLiteReadsThem() throws {
        // Cells another program left in an Integer 64 column, each with what the attribute reads: SQLite's
        // own integer (`sqlite3_column_int64`, `CAST`), or nil where text or a blob starts with no number.
        let cells: [(sql: String, expected: Int64?)] = [
            ("' 12abc'", 12), ("'-0012x'", -12), ("'+7 apples'", 7), ("'1e3x'", 1), ("'0abc'", 0),
            ("'99999999999999999999x'", .max), ("'-99999999999999999999x'", .min),
            ("'seven'", nil), ("'-'", nil), ("X'3132'", 12), ("X'01'", nil),
            ("1e30", .max), ("-1e30", .min), ("-7.9", -7), ("0.5", 0), ("NULL", nil), ("0", 0), ("-3", -3),
        ]
        let (stack, _) = try ReadingModel.savedStack(count: cells.count)
        for (row, cell) in cells.enumerated() {
            try StoreKit.execute(stack.storeURL, "UPDATE ZREADING SET ZI1 = \(cell.sql) WHERE ZI0 = \(row)")
        }
        // The expectations are SQLite's own reading of each cell wherever it finds a number.
        let queue = try DatabaseQueue(path: stack.storeURL.path)
        let sqliteReadings = try queue.read {
            try Int64.fetchAll($0, sql: "SELECT CAST(ZI1 AS INTEGER) FROM ZREADING WHERE ZI1 IS NOT NULL ORDER BY ZI0")
        }
        try queue.close()
        #expect(sqliteReadings == cells.filter { $0.sql != "NULL" }.map { $0.expected ?? 0 })

        let context = stack.context(try stack.secondCoordinator())
        let readings = try context.fetch(ReadingModel.sorted(FetchedReading.self))
        #expect(readings.map { ($0.value(forKey: "i1") as? NSNumber)?.int64Value } == cells.map(\.expected))
        #expect(readings.map(\.i1) == cells.map { $0.expected ?? 0 })

        let dictionaries = ReadingModel.sorted(NSDictionary.self)
        dictionaries.resultType = .dictionaryResultType
        dictionaries.propertiesToFetch = ["i0", "i1"]
        let rows = try context.fetch(dictionaries)
        #expect(rows.map { ($0["i1"] as? NSNumber)?.int64Value } == cells.map(\.expected))

        // An object fetched one by one, not by a fetch of many rows, reads the same.
        let single = stack.context(try stack.secondCoordinator())
        for (row, reading) in readings.enumerated() {
            let object = try single.existingObject(with: reading.objectID)
            #expect((object.value(forKey: "i1") as? NSNumber)?.int64Value == cells[row].expected, "\(cells[row].sql)")
        }
    }

    @Test(
        "an Integer 16 column keeps the low bits of the integer SQLite reads, and a Boolean is true where it is not 0, alike in a fetch of objects and of dictionaries"
    )
    func narrowIntegersAndBooleansOfOtherStorageClasses() throws {
        // (cell of the Integer 16 column, its reading; cell of the Boolean column, its reading)
        let cells: [(small: String, smallValue: Int16?, flag: String, flagValue: Bool?)] = [
            ("'70000x'", 4464, "'2x'", true),  // 70000 = 0x11170: its low 16 bits are 0x1170
            ("65536", 0, "1e30", true),  // an integer whose low 16 bits are 0
            ("'65536x'", 0, "'x'", nil),  // text SQLite reads as 65536, low bits 0
            ("'99999999999999999999x'", -1, "'0x'", false),
            ("'seven'", nil, "0.5", false),
            ("-7.9", -7, "NULL", nil),
        ]
        let (stack, _) = try ReadingModel.savedStack(count: cells.count)
        for (row, cell) in cells.enumerated() {
            try StoreKit.execute(stack.storeURL, "UPDATE ZREADING SET ZSMALL = \(cell.small), ZFLAG = \(cell.flag) WHERE ZI0 = \(row)")
        }
        let context = stack.context(try stack.secondCoordinator())
        let readings = try context.fetch(ReadingModel.sorted(FetchedReading.self))
        // Compared as Int64: the number itself is the Integer 16 value, not a wider one read narrower.
        #expect(readings.map { ($0.value(forKey: "small") as? NSNumber)?.int64Value } == cells.map { $0.smallValue.map(Int64.init) })
        #expect(readings.map(\.small) == cells.map { $0.smallValue ?? 0 })
        #expect(readings.map { ($0.value(forKey: "flag") as? NSNumber)?.boolValue } == cells.map(\.flagValue))

        let dictionaries = ReadingModel.sorted(NSDictionary.self)
        dictionaries.resultType = .dictionaryResultType
        dictionaries.propertiesToFetch = ["i0", "small", "flag"]
        let rows = try context.fetch(dictionaries)
        #expect(rows.map { ($0["small"] as? NSNumber)?.int64Value } == cells.map { $0.smallValue.map(Int64.init) })
        #expect(rows.map { ($0["flag"] as? NSNumber)?.boolValue } == cells.map(\.flagValue))
    }

    @Test("the extremes of Integer 64 survive a save and a cold fetch")
    func integerExtremes() throws {
        let stack = try GraphStack(model: ReadingModel.make(), fileName: "Extremes.sqlite")
        let context = stack.context()
        let values: [Int64] = [.min, .min + 1, -1, 0, 1, Int64(Int32.max) + 1, .max - 1, .max]
        for value in values {
            let reading = NSEntityDescription.insertNewObject(forEntityName: "Reading", into: context)
            reading.setValue(value, forKey: "i0")
            reading.setValue(value, forKey: "maybe")
        }
        try context.save()
        let reader = stack.context(try stack.secondCoordinator())
        let readings = try reader.fetch(ReadingModel.sorted(FetchedReading.self))
        #expect(readings.map(\.i0) == values)
        #expect(readings.map(\.maybe) == values.map { Optional($0) })
        #expect(readings.map { ($0.value(forKey: "i0") as? NSNumber)?.int64Value } == values.map { Optional($0) })
    }

    @Test("a fetched fault fires once: reading every property loads the values one time")
    func faultFiresOnce() throws {
        let (stack, cold) = try ReadingModel.savedStack(count: 10)
        let context = stack.context(cold)
        let readings = try context.fetch(NSFetchRequest<FetchedReading>(entityName: "Reading"))
        #expect(readings.allSatisfy { $0.isFault })
        #expect(readings.allSatisfy { $0.awakeCount == 0 })
        for reading in readings {
            _ = reading.i0
            #expect(!reading.isFault)
            _ = reading.i1
            _ = reading.small
            _ = reading.value(forKey: "ratio")
            _ = reading.label
            #expect(reading.awakeCount == 1)
        }
        _ = try context.fetch(NSFetchRequest<FetchedReading>(entityName: "Reading"))
        #expect(readings.allSatisfy { $0.awakeCount == 1 })
    }

    @Test("fetched objects come in the rows' order, as faults for rows new to the context, into an empty context or one holding objects")
    func fetchOrderAndFaults() throws {
        let (stack, cold) = try ReadingModel.savedStack(count: 30)
        let context = stack.context(cold)
        let early = try context.fetch(ReadingModel.sorted(FetchedReading.self, where: "i0 < 10"))
        #expect(early.allSatisfy { $0.isFault })
        #expect(early.map(\.i0) == (0..<10).map(Int64.init))

        let readings = try context.fetch(ReadingModel.sorted(FetchedReading.self, ascending: false, where: "i0 < 20"))
        #expect(readings.count == 20)
        #expect(Array(readings.suffix(10)).elementsEqual(early.reversed(), by: ===), "registered objects come back as they are")
        #expect(readings.prefix(10).allSatisfy { $0.isFault && $0.awakeCount == 0 })
        #expect(readings.map(\.i0) == (0..<20).reversed().map(Int64.init))
        #expect(readings.allSatisfy { $0.awakeCount == 1 })
    }

    @Test("a fetch returns an ordinary array of the request's class: copies change on their own, and other request types see the same objects")
    func typedResultArrays() throws {
        let (stack, cold) = try ReadingModel.savedStack(count: 5)
        let context = stack.context(cold)
        let readings = try context.fetch(ReadingModel.sorted(FetchedReading.self))
        var copy = readings
        copy.removeFirst()
        copy.append(contentsOf: readings)
        copy[0] = readings[4]
        #expect(readings.map(\.i0) == [0, 1, 2, 3, 4])
        #expect(copy.map(\.i0) == [4, 2, 3, 4, 0, 1, 2, 3, 4])

        let objects = try context.fetch(ReadingModel.sorted(NSManagedObject.self))
        let sameObjects = objects.elementsEqual(readings, by: ===)
        #expect(sameObjects)
        #expect((objects as? [FetchedReading])?.map(\.i0) == [0, 1, 2, 3, 4])
        let results = try context.fetch(ReadingModel.sorted(NSFetchRequestResult.self))
        #expect(results.count == 5)
        #expect(results.enumerated().allSatisfy { $0.element as? FetchedReading === readings[$0.offset] })
    }

    @Test("a fetch of an entity with a sub-entity of its own class returns both classes in one array of the entity's class")
    func typedResultsOfSubentities() throws {
        let vehicle = ModelKit.entity("Vehicle", [ModelKit.attribute("serial", .integer64AttributeType)])
        vehicle.managedObjectClassName = String(reflecting: FetchedVehicle.self)
        let car = ModelKit.entity("Car", [ModelKit.attribute("doors", .integer16AttributeType)])
        car.managedObjectClassName = String(reflecting: FetchedCar.self)
        vehicle.subentities = [car]
        let model = NSManagedObjectModel()
        model.entities = [vehicle, car]
        let stack = try GraphStack(model: model, fileName: "Vehicles.sqlite")
        let writer = stack.context()
        for serial in 0..<4 {
            writer.make(serial % 2 == 0 ? "Vehicle" : "Car", ["serial": Int64(serial)])
        }
        try writer.save()
        let context = stack.context(try stack.secondCoordinator())
        let request = NSFetchRequest<FetchedVehicle>(entityName: "Vehicle")
        request.sortDescriptors = [NSSortDescriptor(key: "serial", ascending: true)]
        var vehicles = try context.fetch(request)
        #expect(vehicles.map { $0.value(forKey: "serial") as? Int64 } == [0, 1, 2, 3])
        #expect(vehicles.map { $0 is FetchedCar } == [false, true, false, true])
        vehicles.append(vehicles[1])
        #expect(vehicles.count == 5 && vehicles[4] === vehicles[1])
        let cars = try context.fetch(NSFetchRequest<FetchedCar>(entityName: "Car"))
        #expect(cars.count == 2 && cars.allSatisfy { car in vehicles.contains { $0 === car } })
    }

    @Test("objects fetched with returnsObjectsAsFaults = false are loaded once, at the fetch")
    func loadedAtFetch() throws {
        let (stack, cold) = try ReadingModel.savedStack(count: 10)
        let context = stack.context(cold)
        let request = NSFetchRequest<FetchedReading>(entityName: "Reading")
        request.returnsObjectsAsFaults = false
        let readings = try context.fetch(request)
        #expect(readings.allSatisfy { !$0.isFault && $0.awakeCount == 1 })
        #expect(Set(readings.map(\.i0)) == Set((0..<10).map(Int64.init)))
        #expect(readings.allSatisfy { $0.awakeCount == 1 })
    }

    @Test("object IDs of the same row are equal, with equal hashes, across contexts and coordinators")
    func objectIDIdentity() throws {
        let (stack, cold) = try ReadingModel.savedStack(count: 5)
        let request = NSFetchRequest<FetchedReading>(entityName: "Reading")
        let warm = try stack.context().fetch(request).map(\.objectID)
        let fresh = try stack.context(cold).fetch(request).map(\.objectID)
        #expect(Set(warm) == Set(fresh))
        for id in warm {
            let twin = try #require(fresh.first { $0 == id })
            #expect(twin.hash == id.hash)
            #expect(twin.hashValue == id.hashValue)
            #expect(twin.uriRepresentation() == id.uriRepresentation())
        }
        #expect(Set(warm).count == 5)
    }

    @Test("temporary IDs are all different, and each stays equal only to itself")
    func temporaryIDs() throws {
        let stack = try GraphStack(model: ReadingModel.make(), fileName: "Temporary.sqlite")
        let context = stack.context()
        let objects = (0..<2_000).map { _ in NSEntityDescription.insertNewObject(forEntityName: "Reading", into: context) }
        let ids = objects.map(\.objectID)
        #expect(ids.allSatisfy { $0.isTemporaryID })
        #expect(Set(ids).count == 2_000)
        #expect(Set(ids.map { $0.uriRepresentation() }).count == 2_000)
        #expect(ids[0] == ids[0] && ids[0] != ids[1])
    }

    @Test("new objects start with the model's default values, and changing one leaves the others' alone")
    func sharedDefaults() throws {
        let stack = try GraphStack(model: ReadingModel.make(), fileName: "Defaults.sqlite")
        let context = stack.context()
        let first = NSEntityDescription.insertNewObject(forEntityName: "Reading", into: context)
        let second = NSEntityDescription.insertNewObject(forEntityName: "Reading", into: context)
        #expect((first.value(forKey: "i0") as? NSNumber)?.int64Value == 7)
        first.setValue(Int64(99), forKey: "i0")
        let third = NSEntityDescription.insertNewObject(forEntityName: "Reading", into: context)
        #expect((first.value(forKey: "i0") as? NSNumber)?.int64Value == 99)
        #expect((second.value(forKey: "i0") as? NSNumber)?.int64Value == 7)
        #expect((third.value(forKey: "i0") as? NSNumber)?.int64Value == 7)
        #expect((third.value(forKey: "i1") as? NSNumber)?.int64Value == 7)
        #expect(third.value(forKey: "maybe") == nil)
    }
}
