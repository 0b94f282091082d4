import OpenCoreData
import Testing

/// `setValuesForKeys(_:)` and `dictionaryWithValues(forKeys:)` on managed objects: importing and
/// exporting several properties at once, with `NSNull` standing for `nil`.
@Suite("Managed object key-value dictionaries")
struct ManagedObjectKeyValueDictionaryTests {
    static func context() throws -> NSManagedObjectContext {
        let person = ModelKit.entity(
            "Person",
            [
                ModelKit.attribute("name", .stringAttributeType),
                ModelKit.attribute("age", .integer64AttributeType),
                ModelKit.attribute("nickname", .stringAttributeType),
            ])
        let model = NSManagedObjectModel()
        model.entities = [person]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @Test("setValuesForKeys sets every key as setValue(_:forKey:) would, NSNull clearing, and the save stores them")
    func setValuesForKeys() throws {
        let context = try Self.context()
        try context.performAndWait {
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            person.setValue("Old", forKey: "nickname")
            person.setValuesForKeys(["name": "Ada", "age": 36, "nickname": NSNull()])
            #expect(person.value(forKey: "name") as? String == "Ada")
            #expect((person.value(forKey: "age") as? NSNumber)?.int64Value == 36)
            #expect(person.value(forKey: "nickname") == nil)
            #expect(Set(person.changedValues().keys) == ["name", "age"])
            try context.save()
            context.refresh(person, mergeChanges: false)
            #expect(person.value(forKey: "name") as? String == "Ada")
            #expect(person.value(forKey: "nickname") == nil)
        }
    }

    @Test("dictionaryWithValues(forKeys:) reads the asked keys only, nil as NSNull")
    func dictionaryWithValues() throws {
        let context = try Self.context()
        try context.performAndWait {
            let person = NSEntityDescription.insertNewObject(forEntityName: "Person", into: context)
            person.setValuesForKeys(["name": "Grace", "age": 85])
            let values = person.dictionaryWithValues(forKeys: ["name", "nickname"])
            #expect(Set(values.keys) == ["name", "nickname"])
            #expect(values["name"] as? String == "Grace")
            #expect(values["nickname"] is NSNull)
            #expect(person.dictionaryWithValues(forKeys: []).isEmpty)
            try context.save()
            // A fault fires to answer.
            context.refresh(person, mergeChanges: false)
            #expect(person.isFault)
            #expect((person.dictionaryWithValues(forKeys: ["age"])["age"] as? NSNumber)?.int64Value == 85)
        }
    }
}
