import OpenCoreData
import Testing

@Suite("Typed predicates fetch through SQL")
struct TypedPredicateFetchTests {
    @Test("the issue's example runs unchanged, as one bound SELECT")
    func issueExample() throws {
        let stack = try TripStack()
        let today = Date()
        try stack.seed(today: today)
        let context = stack.context()

        let p = #Predicate<Trip> { $0.destination == "New York" && $0.name.contains("birthday") && $0.startDate > today }
        let request = NSFetchRequest<Trip>(entityName: "Trip")
        request.predicate = NSPredicate(p)
        request.sortDescriptors = [NSSortDescriptor(SortDescriptor(\Trip.startDate, order: .reverse))]
        let names = try context.performAndWait { try context.fetch(request).map(\.name) }

        #expect(names == ["Bob's birthday", "Ann's birthday"])
        let selects = stack.recorder.statements.filter { $0.hasPrefix("SELECT") && $0.contains("ZTRIP") }
        #expect(selects.count == 1)
        #expect(selects.first?.contains("?") == true)
        #expect(selects.first?.contains("birthday") == false)
    }

    @Test("a ?. chain runs in SQL as a CASE expression and agrees with in-memory evaluation")
    func optionalChain() throws {
        let stack = try TripStack()
        try stack.seed(today: Date())
        let context = stack.context()
        let typed = #Predicate<Trip> { $0.traveler?.name == "Ann" && $0.note == nil }
        let converted = try #require(NSPredicate(typed))
        let request = NSFetchRequest<Trip>(entityName: "Trip")
        request.predicate = converted
        let fetched = try context.performAndWait { try context.fetch(request).map(\.nights).sorted() }
        #expect(fetched == [3, 4, 5])
        let selects = stack.recorder.statements.filter { $0.hasPrefix("SELECT") && $0.contains("ZTRIP") }
        #expect(selects.contains { $0.contains("CASE WHEN") })
        let nights = try context.performAndWait {
            let all = try context.fetch(NSFetchRequest<Trip>(entityName: "Trip"))
            return all.filter { converted.evaluate(with: $0) }.map(\.nights).sorted()
        }
        #expect(nights == [3, 4, 5])
    }

    @Test("a TERNARY whose branches give values of different kinds is refused with an error, not a wrong fetch")
    func mixedBranches() throws {
        let stack = try TripStack()
        try stack.seed(today: Date())
        let context = stack.context()
        let request = NSFetchRequest<Trip>(entityName: "Trip")
        request.predicate = NSPredicate(format: "TERNARY(nights > 2, name, nights) == 'x'")
        let error = #expect(throws: NSError.self) { try context.performAndWait { try context.fetch(request) } }
        #expect(error?.code == 134091)
    }

    @Test("a converted predicate evaluates in memory as Foundation's Predicate does")
    func evaluatesInMemory() throws {
        let stack = try TripStack()
        try stack.seed(today: Date())
        let context = stack.context()
        let typed = #Predicate<Trip> { $0.name.starts(with: "Ann") || !($0.nights < 5) }
        let converted = try #require(NSPredicate(typed))
        try context.performAndWait {
            let trips = try context.fetch(NSFetchRequest<Trip>(entityName: "Trip"))
            #expect(trips.count == 5)
            for trip in trips {
                #expect(converted.evaluate(with: trip) == (try typed.evaluate(trip)), "\(trip.name)")
            }
        }
    }
}
