import OpenCoreData
import Testing

/// A model with uniqueness constraints: Tag(name, color, count, note) unique by name; Person(first,
/// last, age) unique by (first, last); Item(code) unique by code with a subentity SpecialItem(level).
enum ConstraintModel {
    static func make() -> NSManagedObjectModel {
        let tag = ModelKit.entity(
            "Tag",
            [
                ModelKit.attribute("name", .stringAttributeType),
                ModelKit.attribute("color", .stringAttributeType),
                ModelKit.attribute("count", .integer64AttributeType),
                ModelKit.attribute("note", .stringAttributeType),
            ])
        tag.uniquenessConstraints = [["name"]]
        let person = ModelKit.entity(
            "Person",
            [
                ModelKit.attribute("first", .stringAttributeType),
                ModelKit.attribute("last", .stringAttributeType),
                ModelKit.attribute("age", .integer16AttributeType),
            ])
        person.uniquenessConstraints = [["first", "last"]]
        let item = ModelKit.entity("Item", [ModelKit.attribute("code", .stringAttributeType)])
        item.uniquenessConstraints = [["code"]]
        let special = ModelKit.entity("SpecialItem", [ModelKit.attribute("level", .integer16AttributeType)])
        item.subentities = [special]
        for entity in [tag, person, item, special] { entity.managedObjectClassName = "NSManagedObject" }
        let model = NSManagedObjectModel()
        model.entities = [tag, person, item, special]
        return model
    }
}

extension GraphStack {
    /// The stored objects of an entity as dictionaries of their attribute values, read by a fresh
    /// context (kept alive while reading: objects read nothing once their context is gone).
    func storedValues(_ entityName: String, sortedBy key: String? = nil) throws -> [[String: Any]] {
        let reader = context()
        let objects = try reader.all(entityName, sortedBy: key)
        return objects.map { object in
            var values: [String: Any] = [:]
            for name in object.entity.attributesByName.keys {
                if let value = object.value(forKey: name) { values[name] = value }
            }
            return values
        }
    }
}

@Suite("Uniqueness constraints")
struct UniquenessConstraintTests {
    /// A store with the stored tag (swift, blue, count 3, no note).
    private func stackWithStoredTag(_ kind: TestStoreKind = .sqlite) throws -> (GraphStack, NSManagedObjectID) {
        let stack = try GraphStack(kind, model: ConstraintModel.make())
        let setup = stack.context()
        let tag = setup.make("Tag", ["name": "swift", "color": "blue", "count": 3])
        try setup.save()
        return (stack, tag.objectID)
    }

    private func storedTags(_ stack: GraphStack) throws -> [[String: Any]] {
        try stack.storedValues("Tag", sortedBy: "name")
    }

    @Test(
        "inserting a duplicate of a stored row fails with 133021 and an NSConstraintConflict; nothing is written", arguments: TestStoreKind.allCases)
    func duplicateOfStoredRow(kind: TestStoreKind) throws {
        let (stack, storedID) = try stackWithStoredTag(kind)
        let context = stack.context()
        let duplicate = context.make("Tag", ["name": "swift", "color": "red"])
        context.make("Person", ["first": "Ann", "last": "Lee"])
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSManagedObjectConstraintMergeError)
        #expect((error.userInfo[NSLocalizedDescriptionKey] as? String)?.contains("name = swift") == true)
        let conflicts = try #require(error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSConstraintConflict])
        #expect(conflicts.count == 1)
        let conflict = try #require(conflicts.first)
        #expect(conflict.constraint == ["name"])
        #expect(conflict.constraintValues["name"] as? String == "swift")
        #expect(conflict.databaseObject?.objectID == storedID)
        #expect(conflict.databaseSnapshot?["color"] as? String == "blue")
        #expect(conflict.conflictingObjects.count == 1)
        #expect(conflict.conflictingObjects.first === duplicate)
        #expect(conflict.conflictingSnapshots.count == 1)
        #expect(try storedTags(stack).count == 1)
        #expect(try stack.storedValues("Person").isEmpty)
        #expect(context.insertedObjects.count == 2)
    }

    @Test("duplicates inserted in the same save conflict with each other", arguments: TestStoreKind.allCases)
    func duplicatesWithinSave(kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: ConstraintModel.make())
        let context = stack.context()
        let first = context.make("Tag", ["name": "rust"])
        let second = context.make("Tag", ["name": "rust"])
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSManagedObjectConstraintMergeError)
        let conflict = try #require((error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSConstraintConflict])?.first)
        #expect(conflict.databaseObject == nil)
        #expect(Set(conflict.conflictingObjects.map(ObjectIdentifier.init)) == Set([first, second].map(ObjectIdentifier.init)))
        #expect(try storedTags(stack).isEmpty)
    }

    @Test("a constraint on a decimal attribute groups equal decimals, given as Decimal or NSDecimalNumber", arguments: TestStoreKind.allCases)
    func decimalConstraint(kind: TestStoreKind) throws {
        let price = ModelKit.entity("Price", [ModelKit.attribute("amount", .decimalAttributeType)])
        price.uniquenessConstraints = [["amount"]]
        let model = NSManagedObjectModel()
        model.entities = [price]
        let stack = try GraphStack(kind, model: model)
        let writer = stack.context()
        writer.make("Price", ["amount": Decimal(string: "9.99")!])
        writer.make("Price", ["amount": NSDecimalNumber(string: "19.99")])
        try writer.save()
        #expect(try stack.storedValues("Price").count == 2)

        let context = stack.context()
        let duplicate = context.make("Price", ["amount": NSDecimalNumber(string: "9.99")])
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSManagedObjectConstraintMergeError)
        let conflict = try #require((error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSConstraintConflict])?.first)
        #expect(conflict.conflictingObjects.first === duplicate)
        #expect(try stack.storedValues("Price").count == 2)

        // An equal Decimal and NSDecimalNumber in one save are one group.
        let pair = stack.context()
        let first = pair.make("Price", ["amount": Decimal(string: "4.50")!])
        let second = pair.make("Price", ["amount": NSDecimalNumber(string: "4.5")])
        let pairError = try #require(throws: NSError.self) { try pair.save() }
        #expect(pairError.code == NSManagedObjectConstraintMergeError)
        let pairConflict = try #require((pairError.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSConstraintConflict])?.first)
        #expect(Set(pairConflict.conflictingObjects.map(ObjectIdentifier.init)) == Set([first, second].map(ObjectIdentifier.init)))
    }

    @Test("object-trump upserts: the inserted object becomes the stored row, its set values win, the others stay", arguments: TestStoreKind.allCases)
    func objectTrumpUpserts(kind: TestStoreKind) throws {
        let (stack, storedID) = try stackWithStoredTag(kind)
        let context = stack.context()
        context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        let tag = context.make("Tag", ["name": "swift", "color": "red"])
        try context.save()
        #expect(tag.objectID == storedID)
        #expect(!tag.objectID.isTemporaryID)
        #expect(tag.value(forKey: "count") as? Int == 3)
        let tags = try storedTags(stack)
        #expect(tags.count == 1)
        #expect(tags.first?["color"] as? String == "red")
        #expect(tags.first?["count"] as? Int == 3)

        tag.setValue(4, forKey: "count")
        try context.save()
        #expect(try storedTags(stack).first?["count"] as? Int == 4)
    }

    @Test("store-trump keeps the stored values and fills only what the row lacks", arguments: TestStoreKind.allCases)
    func storeTrumpKeepsStored(kind: TestStoreKind) throws {
        let (stack, storedID) = try stackWithStoredTag(kind)
        let context = stack.context()
        context.mergePolicy = NSMergeByPropertyStoreTrumpMergePolicy
        let tag = context.make("Tag", ["name": "swift", "color": "red", "note": "new"])
        try context.save()
        #expect(tag.objectID == storedID)
        let stored = try #require(try storedTags(stack).first)
        #expect(try storedTags(stack).count == 1)
        #expect(stored["color"] as? String == "blue")
        #expect(stored["note"] as? String == "new")
        #expect(tag.value(forKey: "color") as? String == "blue")
    }

    @Test("overwrite replaces every stored value; rollback keeps the row as it is")
    func overwriteAndRollback() throws {
        let (stack, _) = try stackWithStoredTag()
        let context = stack.context()
        context.mergePolicy = NSOverwriteMergePolicy
        context.make("Tag", ["name": "swift", "color": "red"])
        try context.save()
        var stored = try #require(try storedTags(stack).first)
        #expect(stored["color"] as? String == "red")
        #expect(stored["count"] == nil)

        let (other, _) = try stackWithStoredTag()
        let rollback = other.context()
        rollback.mergePolicy = NSRollbackMergePolicy
        let tag = rollback.make("Tag", ["name": "swift", "color": "red", "note": "new"])
        try rollback.save()
        stored = try #require(try storedTags(other).first)
        #expect(try storedTags(other).count == 1)
        #expect(stored["color"] as? String == "blue")
        #expect(stored["note"] == nil)
        #expect(tag.value(forKey: "color") as? String == "blue")
        #expect(!rollback.hasChanges)
    }

    @Test("object-trump merges duplicates inserted together into one row")
    func objectTrumpMergesDuplicatesWithinSave() throws {
        let stack = try GraphStack(model: ConstraintModel.make())
        let context = stack.context()
        context.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
        context.make("Tag", ["name": "go", "color": "green"])
        context.make("Tag", ["name": "go", "note": "fast"])
        try context.save()
        let tags = try storedTags(stack)
        #expect(tags.count == 1)
        #expect(tags.first?["color"] as? String == "green")
        #expect(tags.first?["note"] as? String == "fast")
        #expect(context.registeredObjects.count == 1)
    }

    @Test("a compound constraint conflicts only when every property matches; nil values never conflict")
    func compoundConstraintAndNil() throws {
        let stack = try GraphStack(model: ConstraintModel.make())
        let context = stack.context()
        context.make("Person", ["first": "Ann", "last": "Lee"])
        context.make("Person", ["first": "Ann", "last": "Kim"])
        context.make("Person", ["first": "Bob"])
        context.make("Person", ["first": "Bob"])
        context.make("Tag", [:])
        context.make("Tag", [:])
        try context.save()
        #expect(try stack.storedValues("Person").count == 4)

        let again = stack.context()
        again.make("Person", ["first": "Ann", "last": "Kim"])
        let error = try #require(throws: NSError.self) { try again.save() }
        let conflict = try #require((error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSConstraintConflict])?.first)
        #expect(conflict.constraint == ["first", "last"])
        #expect(conflict.constraintValues["last"] as? String == "Kim")
    }

    @Test("changing a stored object to another's values conflicts; deleting the holder in the same save does not", arguments: TestStoreKind.allCases)
    func updatesAndDeletes(kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: ConstraintModel.make())
        let setup = stack.context()
        setup.make("Tag", ["name": "a"])
        setup.make("Tag", ["name": "b"])
        try setup.save()

        let context = stack.context()
        let tags = try context.all("Tag", sortedBy: "name")
        tags[1].setValue("a", forKey: "name")
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSManagedObjectConstraintMergeError)
        let conflict = try #require((error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSConstraintConflict])?.first)
        #expect(conflict.databaseObject === tags[0])
        #expect(conflict.conflictingObjects.first === tags[1])

        context.delete(tags[0])
        try context.save()
        #expect(try storedTags(stack).compactMap { $0["name"] as? String } == ["a"])

        let swap = stack.context()
        swap.make("Tag", ["name": "b"])
        let renamed = try #require(try swap.all("Tag").first)
        renamed.setValue("c", forKey: "name")
        try swap.save()
        #expect(try storedTags(stack).compactMap { $0["name"] as? String } == ["b", "c"])
    }

    @Test("two stored objects exchange their unique values in one save", arguments: TestStoreKind.allCases)
    func exchangeValues(kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: ConstraintModel.make())
        let setup = stack.context()
        setup.make("Tag", ["name": "a", "color": "first"])
        setup.make("Tag", ["name": "b", "color": "second"])
        try setup.save()
        let context = stack.context()
        let tags = try context.all("Tag", sortedBy: "name")
        tags[0].setValue("b", forKey: "name")
        tags[1].setValue("a", forKey: "name")
        try context.save()
        let stored = try storedTags(stack)
        #expect(stored.map { $0["name"] as? String } == ["a", "b"])
        #expect(stored.map { $0["color"] as? String } == ["second", "first"])
    }

    @Test("a subentity keeps its parent's constraint across the shared table", arguments: TestStoreKind.allCases)
    func inheritedConstraint(kind: TestStoreKind) throws {
        let stack = try GraphStack(kind, model: ConstraintModel.make())
        let setup = stack.context()
        setup.make("Item", ["code": "X1"])
        try setup.save()
        let context = stack.context()
        context.make("SpecialItem", ["code": "X1", "level": 2])
        let error = try #require(throws: NSError.self) { try context.save() }
        #expect(error.code == NSManagedObjectConstraintMergeError)
        context.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
        context.rollback()
        context.make("SpecialItem", ["code": "X2", "level": 2])
        try context.save()
        #expect(try stack.storedValues("Item").count == 2)
    }
}
