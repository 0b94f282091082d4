import Testing
import OpenCoreData

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
