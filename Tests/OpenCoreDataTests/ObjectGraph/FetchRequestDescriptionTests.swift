import OpenCoreData
import Testing

@Suite("Fetch request descriptions")
struct FetchRequestDescriptionTests {
    @Test("A new fetch request has Core Data's defaults")
    func defaults() {
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Note")
        #expect(request.entityName == "Note")
        #expect(request.entity == nil)
        #expect(request.predicate == nil)
        #expect(request.sortDescriptors == nil)
        #expect(request.fetchLimit == 0)
        #expect(request.fetchOffset == 0)
        #expect(request.fetchBatchSize == 0)
        #expect(request.resultType == .managedObjectResultType)
        #expect(request.includesSubentities)
        #expect(request.includesPendingChanges)
        #expect(request.includesPropertyValues)
        #expect(request.returnsObjectsAsFaults)
        #expect(!request.returnsDistinctResults)
        #expect(!request.shouldRefreshRefetchedObjects)
        #expect(request.relationshipKeyPathsForPrefetching == nil)
        #expect(request.propertiesToFetch == nil)
        #expect(request.propertiesToGroupBy == nil)
        #expect(request.havingPredicate == nil)
        #expect(request.requestType == .fetchRequestType)
    }

    @Test("Result types and request types have Core Data's raw values")
    func rawValues() {
        #expect(NSFetchRequestResultType.managedObjectResultType.rawValue == 0)
        #expect(NSFetchRequestResultType.managedObjectIDResultType.rawValue == 1)
        #expect(NSFetchRequestResultType.dictionaryResultType.rawValue == 2)
        #expect(NSFetchRequestResultType.countResultType.rawValue == 4)
        #expect(NSPersistentStoreRequestType.fetchRequestType.rawValue == 1)
        #expect(NSPersistentStoreRequestType.saveRequestType.rawValue == 2)
        #expect(NSPersistentStoreRequestType.batchInsertRequestType.rawValue == 5)
        #expect(NSPersistentStoreRequestType.batchUpdateRequestType.rawValue == 6)
        #expect(NSPersistentStoreRequestType.batchDeleteRequestType.rawValue == 7)
    }

    @Test("Setting the entity sets the entity name")
    func entity() {
        let request = NSFetchRequest<NSDictionary>()
        #expect(request.entityName == nil)
        request.entity = ModelKit.entity("Folder")
        #expect(request.entityName == "Folder")
    }

    @Test("A copy has every setting and changes independently")
    func copying() throws {
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Note")
        request.predicate = NSPredicate(format: "title BEGINSWITH %@", "A")
        request.sortDescriptors = [NSSortDescriptor(key: "title", ascending: true)]
        request.fetchLimit = 10
        request.fetchOffset = 5
        request.fetchBatchSize = 20
        request.resultType = .dictionaryResultType
        request.includesSubentities = false
        request.includesPendingChanges = false
        request.returnsDistinctResults = true
        request.propertiesToFetch = ["title"]
        request.propertiesToGroupBy = ["title"]
        request.havingPredicate = NSPredicate(value: true)
        request.relationshipKeyPathsForPrefetching = ["folder"]
        let copy = try #require(request.copy() as? NSFetchRequest<NSFetchRequestResult>)
        #expect(copy !== request)
        #expect(copy.entityName == "Note")
        #expect(copy.predicate?.predicateFormat == "title BEGINSWITH \"A\"")
        #expect(copy.sortDescriptors?.first?.key == "title")
        #expect(copy.fetchLimit == 10)
        #expect(copy.fetchOffset == 5)
        #expect(copy.fetchBatchSize == 20)
        #expect(copy.resultType == .dictionaryResultType)
        #expect(!copy.includesSubentities)
        #expect(!copy.includesPendingChanges)
        #expect(copy.returnsDistinctResults)
        #expect(copy.propertiesToFetch?.first as? String == "title")
        #expect(copy.propertiesToGroupBy?.first as? String == "title")
        #expect(copy.havingPredicate != nil)
        #expect(copy.relationshipKeyPathsForPrefetching == ["folder"])
        copy.fetchLimit = 1
        #expect(request.fetchLimit == 10)
    }
}
