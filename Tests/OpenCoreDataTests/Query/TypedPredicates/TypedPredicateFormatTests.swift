import OpenCoreData
import Testing

@Suite("Typed predicates convert to Apple's predicate formats")
struct TypedPredicateFormatTests {
    @Test("each supported node prints as Apple's conversion prints it")
    func formats() throws {
        let cases: [(NSPredicate?, String)] = [
            (NSPredicate(#Predicate<Trip> { $0.nights == 2 }), "nights == 2"),
            (NSPredicate(#Predicate<Trip> { $0.nights != 0 }), "nights != 0"),
            (NSPredicate(#Predicate<Trip> { $0.nights > 2 }), "nights > 2"),
            (NSPredicate(#Predicate<Trip> { $0.nights <= 2 }), "nights <= 2"),
            (NSPredicate(#Predicate<Trip> { $0.name.contains("birthday") }), "name CONTAINS \"birthday\""),
            (NSPredicate(#Predicate<Trip> { $0.name.starts(with: "foo") }), "name BEGINSWITH \"foo\""),
            (NSPredicate(#Predicate<Trip> { $0.note == nil }), "note == nil"),
            (NSPredicate(#Predicate<Trip> { $0.nights == 3 && $0.nights > 2 }), "nights == 3 AND nights > 2"),
            (NSPredicate(#Predicate<Trip> { $0.nights == 3 || $0.nights > 2 }), "nights == 3 OR nights > 2"),
            (NSPredicate(#Predicate<Trip> { !($0.nights == 3) }), "NOT nights == 3"),
            (NSPredicate(#Predicate<Trip> { $0.traveler?.name == "Ann" }), "TERNARY(traveler != nil, traveler.name, nil) == \"Ann\""),
        ]
        for (predicate, expected) in cases {
            #expect(predicate?.predicateFormat == expected)
        }
    }

    @Test("arithmetic, optionals, conditionals, ranges, membership and to-many nodes print as Apple's conversion prints them")
    func moreFormats() throws {
        let limit: Int64 = 5
        let choices: [Int64] = [1, 2, 3]
        let same = ComparisonResult.orderedSame
        let cases: [(NSPredicate?, String)] = [
            (NSPredicate(#Predicate<Trip> { $0.nights + 2 == 4 }), "nights + 2 == 4"),
            (NSPredicate(#Predicate<Trip> { $0.nights - 1 > 0 }), "nights - 1 > 0"),
            (NSPredicate(#Predicate<Trip> { $0.nights * 2 > 4 }), "nights * 2 > 4"),
            (NSPredicate(#Predicate<Trip> { -$0.nights < 0 }), "nights * -1 < 0"),
            (NSPredicate(#Predicate<Trip> { ($0.note ?? "").isEmpty }), "TERNARY(note != nil, note, \"\").length == 0"),
            (NSPredicate(#Predicate<Trip> { choices.contains($0.nights) }), "nights IN {1, 2, 3}"),
            (NSPredicate(#Predicate<Trip> { (1...3).contains($0.nights) }), "nights BETWEEN {1, 3}"),
            (NSPredicate(#Predicate<Trip> { (1..<3).contains($0.nights) }), "nights >= 1 AND nights < 3"),
            (NSPredicate(#Predicate<Trip> { $0.name.count > 3 }), "name.length > 3"),
            (
                NSPredicate(#Predicate<Trip> { ($0.nights > 3 ? $0.name : $0.destination) == "x" }),
                "TERNARY(nights > 3, name, destination) == \"x\""
            ),
            (
                NSPredicate(#Predicate<Trip> { $0.name.caseInsensitiveCompare("ANN") == same }),
                "TERNARY(name ==[c] \"ANN\", 0, TERNARY(name <[c] \"ANN\", -1, 1)) == 0"
            ),
            (NSPredicate(#Predicate<Trip> { $0.nights > limit / 2 }), "nights > 2"),
            (
                NSPredicate(#Predicate<Traveler> { $0.trips.contains { $0.nights > 3 } }),
                "SUBQUERY(trips, $_local_1, $_local_1.nights > 3).@count != 0"
            ),
            (
                NSPredicate(#Predicate<Traveler> { $0.trips.allSatisfy { $0.nights > 3 } }),
                "SUBQUERY(trips, $_local_1, NOT $_local_1.nights > 3).@count == 0"
            ),
            (
                NSPredicate(#Predicate<Traveler> { $0.trips.filter { $0.nights > 3 }.count > 1 }),
                "SUBQUERY(trips, $_local_1, $_local_1.nights > 3).@count > 1"
            ),
            (NSPredicate(#Predicate<Traveler> { $0.trips.count > 1 }), "trips.@count > 1"),
            (NSPredicate(#Predicate<Traveler> { $0.trips.isEmpty }), "trips.@count == 0"),
            (
                NSPredicate(#Predicate<Traveler> { $0.trips.contains { $0.nights > 3 } && $0.trips.contains { $0.nights < 2 } }),
                "SUBQUERY(trips, $_local_1, $_local_1.nights > 3).@count != 0 AND SUBQUERY(trips, $_local_2, $_local_2.nights < 2).@count != 0"
            ),
        ]
        for (predicate, expected) in cases {
            #expect(predicate?.predicateFormat == expected)
        }
    }

    @Test("a node with no conversion makes the failable initializer return nil and the throwing one throw")
    func unsupported() throws {
        let division = #Predicate<Trip> { $0.nights / 2 == 1 }
        #expect(NSPredicate(division) == nil)
        #expect(throws: NSError.self) { try NSPredicate(converting: division) }
    }

    @Test("a sort descriptor converts to a key, an order and compare:")
    func sortDescriptor() {
        let descriptor = NSSortDescriptor(SortDescriptor(\Trip.startDate, order: .reverse))
        #expect(descriptor.key == "startDate")
        #expect(descriptor.ascending == false)
        #expect(descriptor.selector == "compare:")
        #expect(NSSortDescriptor(SortDescriptor(\Trip.name)).ascending)
    }
}

@Suite("Typed expressions convert to NSExpression")
struct TypedExpressionConversionTests {
    @Test("a key path expression becomes a key path; an unconvertible one gives nil")
    func expressions() {
        #expect(NSExpression(#Expression<Trip, Int64> { $0.nights })?.keyPath == "nights")
        #expect(NSExpression(#Expression<Trip, Int64> { $0.nights / 2 }) == nil)
    }
}
