import OpenCoreData
import Testing

@Suite("Composite attribute storage")
struct CompositeAttributeStorageTests {
    static func model() -> NSManagedObjectModel {
        let location = NSCompositeAttributeDescription()
        location.name = "location"
        location.isOptional = true
        location.elements = [
            ModelKit.attribute("latitude", .doubleAttributeType),
            ModelKit.attribute("longitude", .doubleAttributeType),
            ModelKit.attribute("label", .stringAttributeType),
        ]
        let place = ModelKit.entity("Place", [ModelKit.attribute("name", .stringAttributeType), location])
        let model = NSManagedObjectModel()
        model.entities = [place]
        return model
    }

    /// The `location` of the named place, fetched through a new coordinator on the same file.
    static func location(_ stack: GraphStack, _ name: String) throws -> [String: Any]? {
        let context = stack.context(try stack.secondCoordinator())
        let request = NSFetchRequest<NSManagedObject>(entityName: "Place")
        request.predicate = NSPredicate(format: "name == %@", name)
        let place = try #require(try context.fetch(request).first)
        return place.value(forKey: "location") as? [String: Any]
    }

    @Test("a composite value is saved element by element and read back as a dictionary")
    func roundTrip() throws {
        let stack = try GraphStack(model: Self.model())
        let context = stack.context()
        context.make("Place", ["name": "Oslo", "location": ["latitude": 59.91, "longitude": 10.75, "label": "centre"]])
        context.make("Place", ["name": "Partial", "location": ["latitude": 1.5]])
        context.make("Place", ["name": "Nowhere"])
        try context.save()
        let oslo = try #require(try Self.location(stack, "Oslo"))
        #expect(oslo["latitude"] as? Double == 59.91)
        #expect(oslo["longitude"] as? Double == 10.75)
        #expect(oslo["label"] as? String == "centre")
        let partial = try #require(try Self.location(stack, "Partial"))
        #expect(partial["latitude"] as? Double == 1.5)
        #expect(partial["longitude"] == nil)
        #expect(try Self.location(stack, "Nowhere") == nil)
    }

    @Test("a changed composite value replaces the stored elements")
    func update() throws {
        let stack = try GraphStack(model: Self.model())
        let context = stack.context()
        let place = context.make("Place", ["name": "Moving", "location": ["latitude": 1.0, "longitude": 2.0]])
        try context.save()
        place.setValue(["latitude": 3.0], forKey: "location")
        try context.save()
        let moved = try #require(try Self.location(stack, "Moving"))
        #expect(moved["latitude"] as? Double == 3.0)
        #expect(moved["longitude"] == nil)
    }

    @Test("predicates on composite.element key paths filter in SQL")
    func elementPredicate() throws {
        let stack = try GraphStack(model: Self.model())
        let context = stack.context()
        context.make("Place", ["name": "North", "location": ["latitude": 70.0, "longitude": 20.0]])
        context.make("Place", ["name": "South", "location": ["latitude": -40.0, "longitude": 170.0]])
        try context.save()
        let other = stack.context(try stack.secondCoordinator())
        let request = NSFetchRequest<NSManagedObject>(entityName: "Place")
        request.predicate = NSPredicate(format: "location.latitude > 50")
        let names = try other.fetch(request).compactMap { $0.value(forKey: "name") as? String }
        #expect(names == ["North"])
    }

    @Test("a whole composite compares with nil in SQL and cannot be sorted on; its elements can")
    func wholeComposite() throws {
        let stack = try GraphStack(model: Self.model())
        let context = stack.context()
        context.make("Place", ["name": "North", "location": ["latitude": 70.0]])
        context.make("Place", ["name": "South", "location": ["latitude": -40.0]])
        context.make("Place", ["name": "Nowhere"])
        try context.save()
        let other = stack.context(try stack.secondCoordinator())
        let request = NSFetchRequest<NSManagedObject>(entityName: "Place")
        request.predicate = NSPredicate(format: "location == nil")
        #expect(try other.fetch(request).compactMap { $0.value(forKey: "name") as? String } == ["Nowhere"])
        request.predicate = NSPredicate(format: "location != nil")
        request.sortDescriptors = [NSSortDescriptor(key: "location.latitude", ascending: true)]
        #expect(try other.fetch(request).compactMap { $0.value(forKey: "name") as? String } == ["South", "North"])
        request.sortDescriptors = [NSSortDescriptor(key: "location", ascending: true)]
        #expect {
            try other.fetch(request)
        } throws: { error in
            (error as NSError).code == NSPersistentStoreUnsupportedRequestTypeError
                && (error as NSError).localizedDescription.contains("composite")
        }
    }

    @Test("a value that is not a dictionary of the elements fails the save with an error naming the attribute")
    func badValues() throws {
        let stack = try GraphStack(model: Self.model())
        for bad in ["a string" as Any, ["altitude": 3.0] as [String: Any]] {
            let context = stack.context()
            context.make("Place", ["name": "Bad", "location": bad])
            #expect {
                try context.save()
            } throws: { error in
                let error = error as NSError
                return error.domain == NSCocoaErrorDomain && error.code == NSPersistentStoreSaveError
                    && error.localizedDescription.contains("location")
            }
        }
    }
}
