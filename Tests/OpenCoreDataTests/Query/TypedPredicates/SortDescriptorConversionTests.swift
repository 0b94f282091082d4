import OpenCoreData
import Testing

@Suite("SortDescriptor and NSSortDescriptor convert both ways")
struct SortDescriptorConversionTests {
    @Test(
        "compare:, localizedStandardCompare: and localizedCompare: convert and come back unchanged",
        arguments: ["compare:", "localizedStandardCompare:", "localizedCompare:"])
    func roundTrip(_ selector: String) throws {
        for ascending in [true, false] {
            let object = NSSortDescriptor(key: "traveler.name", ascending: ascending, selector: selector)
            let typed = try #require(SortDescriptor(object, comparing: Trip.self))
            #expect(typed.order == (ascending ? .forward : .reverse))
            let back = NSSortDescriptor(typed)
            #expect(back.key == "traveler.name")
            #expect(back.ascending == ascending)
            #expect(back.selector == selector)
            #expect(back == object)
        }
    }

    @Test("a SortDescriptor made from a key path comes back as the same key, order and selector")
    func fromKeyPath() throws {
        let original = SortDescriptor(\Trip.startDate, order: .reverse)
        let object = NSSortDescriptor(original)
        let typed = try #require(SortDescriptor(object, comparing: Trip.self))
        #expect(NSSortDescriptor(typed) == object)
        #expect(typed.order == .reverse)
    }

    @Test(
        "the selectors Apple's conversion refuses, a missing key and a comparator block give nil",
        arguments: ["caseInsensitiveCompare:", "localizedCaseInsensitiveCompare:"])
    func refused(_ selector: String) {
        #expect(SortDescriptor(NSSortDescriptor(key: "name", ascending: true, selector: selector), comparing: Trip.self) == nil)
        #expect(SortDescriptor(NSSortDescriptor(key: nil, ascending: true), comparing: Trip.self) == nil)
        let block = NSSortDescriptor(key: "name", ascending: true) { _, _ in .orderedSame }
        #expect(SortDescriptor(block, comparing: Trip.self) == nil)
    }

    @Test("a converted sort descriptor orders managed objects in memory as the object does, nil first")
    func ordersInMemory() throws {
        let stack = try TripStack()
        try stack.seed(today: Date())
        let context = stack.context()
        try context.performAndWait {
            let trips = try context.fetch(NSFetchRequest<Trip>(entityName: "Trip"))
            for (key, ascending) in [("nights", false), ("name", true), ("traveler.name", true), ("startDate", false)] {
                let object = NSSortDescriptor(key: key, ascending: ascending)
                let typed = try #require(SortDescriptor(object, comparing: Trip.self))
                let expected = (trips as NSArray).sortedArray(using: [object]).map { ($0 as! Trip).objectID }
                #expect(trips.sorted(using: typed).map(\.objectID) == expected, "\(key)")
            }
        }
    }

    @Test("a converted sort descriptor fetches through SQL as the object it came from")
    func fetchesInSQL() throws {
        let stack = try TripStack()
        try stack.seed(today: Date())
        let context = stack.context()
        let typed = try #require(SortDescriptor(NSSortDescriptor(key: "nights", ascending: false), comparing: Trip.self))
        let request = NSFetchRequest<Trip>(entityName: "Trip")
        request.sortDescriptors = [NSSortDescriptor(typed)]
        let nights = try context.performAndWait { try context.fetch(request).map(\.nights) }
        #expect(nights == [5, 4, 3, 2, 1])
        let selects = stack.recorder.statements.filter { $0.hasPrefix("SELECT") && $0.contains("ZTRIP") }
        #expect(selects.contains { $0.contains("ORDER BY") && $0.contains("ZNIGHTS DESC") })
    }
}
