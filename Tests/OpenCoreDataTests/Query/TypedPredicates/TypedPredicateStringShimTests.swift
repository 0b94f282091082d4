import OpenCoreData
import Testing

@Suite("String operators Foundation on Linux lacks in #Predicate")
struct TypedPredicateStringShimTests {
    @Test("localizedStandardContains compiles, evaluates, and converts to CONTAINS[cd]")
    func localizedStandardContains() throws {
        let stack = try TripStack()
        try stack.seed(today: .now)
        let typed = #Predicate<Trip> { $0.name.localizedStandardContains("BIRTHDAY") }
        let converted = try #require(NSPredicate(typed))
        #expect(converted.predicateFormat == "name CONTAINS[cd] \"BIRTHDAY\"")
        let context = stack.context()
        let request = NSFetchRequest<Trip>(entityName: "Trip")
        request.predicate = converted
        let count = try context.performAndWait {
            let trips = try context.fetch(request)
            for trip in trips { #expect(try typed.evaluate(trip)) }
            return trips.count
        }
        #expect(count == 4)
    }

    @Test("caseInsensitiveCompare and localizedCompare compile and evaluate in memory")
    func comparisons() throws {
        let same = ComparisonResult.orderedSame
        let insensitive = #Predicate<String> { $0.caseInsensitiveCompare("PARIS") == same }
        #expect(try insensitive.evaluate("paris"))
        #expect(try !insensitive.evaluate("rome"))
        let localized = #Predicate<String> { $0.localizedCompare("b") == same }
        #expect(try localized.evaluate("b"))
        #expect(try !localized.evaluate("a"))
    }
}
