import GRDB
import OpenCoreData
import Testing

@Suite("Composite attributes in predicates: location.latitude > 31.3")
struct CompositePredicateTests {
    /// The third seed's Restaurant with a composite location(latitude, longitude).
    static func model() -> NSManagedObjectModel {
        let location = NSCompositeAttributeDescription()
        location.name = "location"
        location.elements = [
            ModelKit.attribute("latitude", .doubleAttributeType),
            ModelKit.attribute("longitude", .doubleAttributeType),
        ]
        let restaurant = ModelKit.entity(
            "Restaurant",
            [
                ModelKit.attribute("name", .stringAttributeType),
                ModelKit.attribute("rating", .doubleAttributeType), location,
            ])
        restaurant.managedObjectClassName = "NSManagedObject"
        let model = NSManagedObjectModel()
        model.entities = [restaurant]
        return model
    }

    static func fill(_ context: NSManagedObjectContext) throws {
        context.make("Restaurant", ["name": "Beijing", "rating": 4.5, "location": ["latitude": 39.90469, "longitude": 116.40528]])
        context.make("Restaurant", ["name": "Shanghai", "rating": 4.0, "location": ["latitude": 31.23, "longitude": 121.47]])
        context.make("Restaurant", ["name": "Xian", "rating": 3.5, "location": ["latitude": 34.34, "longitude": 108.94]])
        context.make("Restaurant", ["name": "Nowhere"])
        try context.save()
    }

    @Test("the seed's predicate selects by an element of the composite", arguments: TestStoreKind.allCases)
    func seedPredicate(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: Self.model())
        try Self.fill(stack.context())
        let context = stack.context()
        let predicate = NSPredicate(format: "location.latitude > %f AND location.latitude < %f", 31.3, 40.0)
        let names = try context.all("Restaurant", sortedBy: "name", predicate: predicate).map { $0.value(forKey: "name") as? String }
        #expect(names == ["Beijing", "Xian"])
        let sorted = NSFetchRequest<NSManagedObject>(entityName: "Restaurant")
        sorted.predicate = NSPredicate(format: "location.longitude >= 100")
        sorted.sortDescriptors = [NSSortDescriptor(key: "location.longitude", ascending: false)]
        #expect(try context.fetch(sorted).map { $0.value(forKey: "name") as? String } == ["Shanghai", "Beijing", "Xian"])
        let none = try context.all("Restaurant", predicate: NSPredicate(format: "location.latitude == nil"))
        #expect(none.map { $0.value(forKey: "name") as? String } == ["Nowhere"])
    }

    @Test("pending objects are matched in memory by the same predicate", arguments: TestStoreKind.allCases)
    func pendingObjects(_ kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: Self.model())
        try Self.fill(stack.context())
        let context = stack.context()
        context.make("Restaurant", ["name": "Harbin", "location": ["latitude": 45.8, "longitude": 126.5]])
        let predicate = NSPredicate(format: "location.latitude > 35 AND rating == nil")
        #expect(try context.all("Restaurant", predicate: predicate).map { $0.value(forKey: "name") as? String } == ["Harbin"])
    }

    @Test("the SQL compares the element's own column")
    func sqlColumn() throws {
        let stack = try GraphStack(model: Self.model())
        try Self.fill(stack.context())
        let rows = try StoreKit.rows(stack.storeURL, "SELECT COUNT(*) AS n FROM ZRESTAURANT WHERE ZLOCATION_LATITUDE > 31.3")
        #expect((rows.first?["n"] as Int?) == 2)
    }

    @Test("an unknown element in a key path fails the fetch with an error naming it")
    func unknownElement() throws {
        let stack = try GraphStack(model: Self.model())
        try Self.fill(stack.context())
        let error = try #require(throws: NSError.self) {
            try stack.context().all("Restaurant", predicate: NSPredicate(format: "location.altitude > 1"))
        }
        #expect(error.localizedDescription.contains("altitude"))
    }
}
