import OpenCoreData
import Testing

@Suite("NSFetchRequest takes Predicate and SortDescriptor directly (OpenCoreData's own)")
struct FetchRequestTypedConveniencesTests {
    @Test("init(entityName:predicate:sortBy:) fetches as the converted predicate and sort descriptors do")
    func initializer() throws {
        let stack = try TripStack()
        let today = Date()
        try stack.seed(today: today)
        let context = stack.context()
        let request = try NSFetchRequest<Trip>(
            entityName: "Trip",
            predicate: #Predicate { $0.name.contains("birthday") && $0.startDate > today },
            sortBy: [SortDescriptor(\.startDate, order: .reverse)])
        #expect(request.predicate?.predicateFormat.contains("name CONTAINS \"birthday\"") == true)
        #expect(request.sortDescriptors?.map(\.key) == ["startDate"])
        let names = try context.performAndWait { try context.fetch(request).map(\.name) }
        #expect(names == ["Another birthday", "Bob's birthday", "Ann's birthday"])
    }

    @Test("setPredicate and setSortDescriptors replace the request's predicate and order")
    func setters() throws {
        let stack = try TripStack()
        try stack.seed(today: Date())
        let context = stack.context()
        let request = NSFetchRequest<Trip>(entityName: "Trip")
        try request.setPredicate(#Predicate { $0.nights >= 3 })
        try request.setSortDescriptors([SortDescriptor(\.nights)])
        #expect(try context.performAndWait { try context.fetch(request).map(\.nights) } == [3, 4, 5])
        try request.setPredicate(nil)
        #expect(request.predicate == nil)
    }

    @Test("a predicate with no conversion throws an NSError naming the node and leaves the request unchanged")
    func unconvertiblePredicate() throws {
        let request = NSFetchRequest<Trip>(entityName: "Trip")
        try request.setPredicate(#Predicate { $0.nights > 1 })
        let error = #expect(throws: NSError.self) { try request.setPredicate(#Predicate { $0.nights % 2 == 0 }) }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == NSFormattingError)
        #expect(error?.localizedDescription.contains("IntRemainder") == true)
        #expect(request.predicate?.predicateFormat == "nights > 1")
        #expect(throws: NSError.self) {
            _ = try NSFetchRequest<Trip>(entityName: "Trip", predicate: #Predicate { $0.nights / 2 == 1 })
        }
    }

    @Test("a sort descriptor whose key path names no property throws instead of sorting by nothing")
    func unnamedSortKey() throws {
        let request = NSFetchRequest<Trip>(entityName: "Trip")
        let error = #expect(throws: NSError.self) { try request.setSortDescriptors([SortDescriptor(\.unstoredLabel)]) }
        #expect(error?.code == NSFormattingError)
        #expect(request.sortDescriptors == nil)
    }
}

extension Trip {
    /// A computed property that reads no managed property: its key path names nothing.
    var unstoredLabel: String { "label" }
}
