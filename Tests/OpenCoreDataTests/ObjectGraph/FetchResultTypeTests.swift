import Testing

@testable import OpenCoreDataCore

@Suite("Fetch result types: objects, object IDs, dictionaries and counts, with Apple's generic request types")
struct FetchResultTypeTests {
    @Test("NSFetchRequest<NSFetchRequestResult> returns managed objects by default", arguments: TestStoreKind.allCases)
    func managedObjects(kind: TestStoreKind) throws {
        let stack = try FetchingModel.stack(kind, users: 12)
        let context = stack.context()
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "User")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        #expect(request.resultType == .managedObjectResultType)
        let results = try context.performAndWait { try context.fetch(request) }
        let objects = try #require(results as? [NSManagedObject])
        #expect(context.performAndWait { objects.map { $0.value(forKey: "name") as? String } } == (0..<12).map(FetchingModel.name))
    }

    @Test(".managedObjectIDResultType returns object IDs without registering objects", arguments: TestStoreKind.allCases)
    func objectIDs(kind: TestStoreKind) throws {
        let stack = try FetchingModel.stack(kind, users: 12)
        let context = stack.context()
        let request = NSFetchRequest<NSManagedObjectID>(entityName: "User")
        request.resultType = .managedObjectIDResultType
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let ids = try context.performAndWait { try context.fetch(request) }
        #expect(ids.count == 12)
        #expect(context.performAndWait { context.registeredObjects.isEmpty })
        let names = try context.performAndWait { try ids.map { try context.existingObject(with: $0).value(forKey: "name") as? String } }
        #expect(names == (0..<12).map(FetchingModel.name))
    }

    @Test(".countResultType returns one NSNumber with the count, unsaved inserts included", arguments: TestStoreKind.allCases)
    func counts(kind: TestStoreKind) throws {
        let stack = try FetchingModel.stack(kind, users: 12)
        let context = stack.context()
        let request = NSFetchRequest<NSNumber>(entityName: "User")
        request.resultType = .countResultType
        request.predicate = NSPredicate(format: "age < 25")
        let expected = (0..<12).filter { FetchingModel.age($0) < 25 }.count
        let saved = try context.performAndWait { try context.fetch(request) }
        #expect(saved.map(\.intValue) == [expected])
        let pending = try context.performAndWait {
            context.make("User", ["name": "young", "age": 3])
            return try context.fetch(request)
        }
        #expect(pending.map(\.intValue) == [expected + 1])
    }

    @Test("includesSubentities = false leaves out Admin rows in every result type", arguments: TestStoreKind.allCases)
    func subentities(kind: TestStoreKind) throws {
        let stack = try FetchingModel.stack(kind, users: 40, admins: true)
        let context = stack.context()
        let plainUsers = (0..<40).filter { !FetchingModel.isAdmin($0) }.count
        let objects = NSFetchRequest<NSManagedObject>(entityName: "User")
        objects.includesSubentities = false
        let ids = NSFetchRequest<NSManagedObjectID>(entityName: "User")
        ids.resultType = .managedObjectIDResultType
        ids.includesSubentities = false
        let dictionaries = NSFetchRequest<NSDictionary>(entityName: "User")
        dictionaries.resultType = .dictionaryResultType
        dictionaries.propertiesToFetch = ["name"]
        dictionaries.includesSubentities = false
        try context.performAndWait { () throws -> Void in
            #expect(try context.fetch(objects).count == plainUsers)
            #expect(try context.fetch(ids).count == plainUsers)
            #expect(try context.fetch(dictionaries).count == plainUsers)
            #expect(try context.count(for: objects) == plainUsers)
            objects.includesSubentities = true
            #expect(try context.fetch(objects).count == 40)
        }
    }

    @Test("includesPropertyValues = false returns faults; returnsObjectsAsFaults = false returns filled objects")
    func propertyValuesAndFaults() throws {
        let stack = try FetchingModel.stack(users: 10)
        let context = try stack.freshContext()
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "User")
            request.includesPropertyValues = false
            let faults = try context.fetch(request)
            #expect(faults.allSatisfy { $0.isFault })
            #expect(context.cachedRowCount == 0)
            context.reset()
            request.includesPropertyValues = true
            request.returnsObjectsAsFaults = false
            let filled = try context.fetch(request)
            #expect(filled.allSatisfy { !$0.isFault })
            #expect(context.cachedRowCount == 10)
        }
    }

    @Test("affectedStores limits a fetch to the stores named")
    func affectedStores() throws {
        let model = FetchingModel.make()
        let entities = model.entities
        model.setEntities(entities.filter { $0.name != "Student" }, forConfigurationName: "Blog")
        model.setEntities(entities.filter { $0.name == "Student" }, forConfigurationName: "School")
        let directory = TemporaryDirectory()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let blog = try coordinator.addPersistentStore(type: .sqlite, configuration: "Blog", at: directory.file("Blog.sqlite"))
        let school = try coordinator.addPersistentStore(type: .sqlite, configuration: "School", at: directory.file("School.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try FetchingModel.populate(context, users: 5, students: 7)
        try context.performAndWait { () throws -> Void in
            let request = NSFetchRequest<NSManagedObject>(entityName: "Student")
            #expect(try context.fetch(request).count == 7)
            request.affectedStores = [school]
            #expect(request.affectedStores?.first === school)
            #expect(try context.fetch(request).count == 7)
            request.affectedStores = [blog]
            #expect(try context.fetch(request).isEmpty)
            let dictionaries = NSFetchRequest<NSDictionary>(entityName: "Student")
            dictionaries.resultType = .dictionaryResultType
            dictionaries.propertiesToFetch = ["name"]
            dictionaries.affectedStores = [blog]
            #expect(try context.fetch(dictionaries).isEmpty)
            dictionaries.affectedStores = [school]
            #expect(try context.fetch(dictionaries).count == 7)
        }
    }
}
