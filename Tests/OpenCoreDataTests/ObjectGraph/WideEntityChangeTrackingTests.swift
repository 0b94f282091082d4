import OpenCoreData
import Testing

/// Change tracking keeps the changed properties of an object as bits of its entity's slots, and the
/// first values of an event in slots, for the first 64 properties; later properties are kept by name.
/// A Core Data user must see no difference between the two: these tests change properties on both
/// sides of that line (and relationships and transients, kept by name) and read every API that
/// reports changes.
@Suite("Change tracking on entities with more than 64 properties")
struct WideEntityChangeTrackingTests {
    /// Wide(a00 … a69: String, n66: Integer 64, owner -> Owner, notes transient) and Owner(name, wides ->> Wide).
    static func model() -> NSManagedObjectModel {
        let wide = ModelKit.entity("Wide")
        let owner = ModelKit.entity("Owner")
        for entity in [wide, owner] { entity.managedObjectClassName = "NSManagedObject" }
        var properties: [NSPropertyDescription] = (0..<70).map { index in
            ModelKit.attribute(String(format: "a%02d", index), .stringAttributeType)
        }
        properties.insert(ModelKit.attribute("n66", .integer64AttributeType), at: 66)
        let toOwner = ModelKit.relationship("owner", to: owner)
        let toWides = ModelKit.relationship("wides", to: wide, toMany: true)
        ModelKit.pair(toOwner, toWides)
        properties.append(toOwner)
        properties.append(ModelKit.attribute("notes", .stringAttributeType, transient: true))
        wide.properties = properties
        owner.properties = [ModelKit.attribute("name", .stringAttributeType), toWides]
        let model = NSManagedObjectModel()
        model.entities = [wide, owner]
        return model
    }

    /// A saved Wide object with a01 = "one", a68 = "sixty-eight", n66 = 66.
    private func savedWide(_ stack: GraphStack) throws -> (NSManagedObjectContext, NSManagedObject) {
        let context = stack.context()
        let wide = context.make("Wide", ["a01": "one", "a68": "sixty-eight", "n66": 66])
        try context.save()
        return (context, wide)
    }

    @Test("changedValues, changedValuesForCurrentEvent and committedValues on both sides of the 64th property")
    func changesOnBothSides() throws {
        let stack = try GraphStack(model: Self.model())
        let (context, wide) = try savedWide(stack)
        let owner = context.make("Owner", ["name": "Ann"])
        wide.setValue("ONE", forKey: "a01")
        wide.setValue("SIXTY-EIGHT", forKey: "a68")
        wide.setValue(67, forKey: "n66")
        wide.setValue(owner, forKey: "owner")
        wide.setValue("scratch", forKey: "notes")
        #expect(Set(wide.changedValues().keys) == ["a01", "a68", "n66", "owner"])
        #expect(wide.changedValues()["a68"] as? String == "SIXTY-EIGHT")
        let event = wide.changedValuesForCurrentEvent()
        #expect(Set(event.keys) == ["a01", "a68", "n66", "owner"])
        #expect(event["a01"] as? String == "one")
        #expect(event["a68"] as? String == "sixty-eight")
        #expect((event["n66"] as? NSNumber)?.int64Value == 66)
        #expect(event["owner"] is NSNull)
        #expect(wide.committedValues(forKeys: ["a68", "n66"])["a68"] as? String == "sixty-eight")

        // A second change of the same properties keeps the event's first values.
        wide.setValue("uno", forKey: "a01")
        wide.setValue("again", forKey: "a68")
        #expect(wide.changedValuesForCurrentEvent()["a68"] as? String == "sixty-eight")
        context.processPendingChanges()
        #expect(wide.changedValuesForCurrentEvent().isEmpty)
        #expect(Set(wide.changedValues().keys) == ["a01", "a68", "n66", "owner"])

        // Setting a property back to its saved value leaves it out of changedValues.
        wide.setValue("sixty-eight", forKey: "a68")
        wide.setValue("one", forKey: "a01")
        #expect(Set(wide.changedValues().keys) == ["n66", "owner"])
        #expect(wide.changedValuesForCurrentEvent()["a68"] as? String == "again")

        try context.save()
        #expect(wide.changedValues().isEmpty)
        let reader = stack.context()
        let read = try #require(try reader.all("Wide").first)
        #expect(read.value(forKey: "a68") as? String == "sixty-eight")
        #expect(read.value(forKey: "n66") as? Int64 == 67)
        #expect((read.value(forKey: "owner") as? NSManagedObject)?.value(forKey: "name") as? String == "Ann")
    }

    @Test("undo and redo put back properties on both sides of the 64th, and rollback drops them")
    func undoRedoRollback() throws {
        let stack = try GraphStack(model: Self.model())
        let (context, wide) = try savedWide(stack)
        let undo = UndoManager()
        context.undoManager = undo
        wide.setValue("SIXTY-EIGHT", forKey: "a68")
        wide.setValue("ONE", forKey: "a01")
        context.processPendingChanges()
        #expect(wide.isUpdated)
        undo.undo()
        #expect(wide.value(forKey: "a68") as? String == "sixty-eight")
        #expect(wide.value(forKey: "a01") as? String == "one")
        #expect(wide.changedValues().isEmpty)
        #expect(!context.hasChanges)
        undo.redo()
        #expect(wide.value(forKey: "a68") as? String == "SIXTY-EIGHT")
        #expect(Set(wide.changedValues().keys) == ["a01", "a68"])
        context.rollback()
        #expect(wide.value(forKey: "a68") as? String == "sixty-eight")
        #expect(wide.changedValues().isEmpty)
        #expect(!context.hasChanges)
    }

    @Test("an optimistic-locking conflict merges a change past the 64th property with a stored change before it")
    func lockingConflictAcrossTheLine() throws {
        let stack = try GraphStack(model: Self.model())
        let (context, wide) = try savedWide(stack)
        context.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
        let otherCoordinator = try stack.secondCoordinator()
        let other = stack.context(otherCoordinator)
        let theirs = try other.existingObject(with: wide.objectID)
        theirs.setValue("theirs", forKey: "a01")
        theirs.setValue("their 68", forKey: "a68")
        try other.save()

        wide.setValue("mine", forKey: "a68")
        wide.setValue(99, forKey: "n66")
        try context.save()
        #expect(wide.changedValues().isEmpty)
        let fresh = try stack.secondCoordinator()
        let reader = stack.context(fresh)
        let read = try #require(try reader.all("Wide").first)
        #expect(read.value(forKey: "a01") as? String == "theirs")
        #expect(read.value(forKey: "a68") as? String == "mine")
        #expect(read.value(forKey: "n66") as? Int64 == 99)
    }
}
