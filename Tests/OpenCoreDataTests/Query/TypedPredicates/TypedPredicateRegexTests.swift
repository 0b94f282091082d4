import OpenCoreData
import Testing

@Suite("A regular expression in #Predicate runs as MATCHES, in SQL and in memory")
struct TypedPredicateRegexTests {
    @Test("contains(regex) converts to MATCHES '.*…*', and the SQL fetch, pending objects, NSPredicate and Predicate agree")
    func matchesEverywhere() throws {
        let stack = try TripStack()
        try stack.seed(today: Date())
        let regex = #/[A-B][a-z]+'s b/#
        let typed = #Predicate<Trip> { $0.name.contains(regex) }
        let converted = try #require(NSPredicate(typed))
        #expect(converted.predicateFormat == "name MATCHES \".*[A-B][a-z]+'s b.*\"")

        let context = stack.context()
        try context.performAndWait {
            let request = NSFetchRequest<Trip>(entityName: "Trip")
            request.predicate = converted
            #expect(try context.fetch(request).map(\.name).sorted() == ["Ann's birthday", "Bob's birthday"])
            let selects = stack.recorder.statements.filter { $0.hasPrefix("SELECT") && $0.contains("ZTRIP") }
            #expect(selects.count == 1)
            #expect(selects.first?.contains("?") == true)

            // An unsaved object is matched in memory by the same predicate.
            let pending = Trip(context: context)
            pending.name = "Ben's bash"
            pending.destination = "Rome"
            pending.startDate = Date()
            #expect(try context.fetch(request).map(\.name).sorted() == ["Ann's birthday", "Ben's bash", "Bob's birthday"])

            let all = try context.fetch(NSFetchRequest<Trip>(entityName: "Trip"))
            #expect(all.count == 6)
            for trip in all {
                #expect(converted.evaluate(with: trip) == (try typed.evaluate(trip)), "\(trip.name)")
            }
        }
    }
}
