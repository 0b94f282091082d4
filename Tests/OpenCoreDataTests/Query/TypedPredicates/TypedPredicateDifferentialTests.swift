import Foundation
import OpenCoreData
import Testing

/// For each typed predicate: the SQLite store's fetch, the converted `NSPredicate` evaluated in memory, and
/// Foundation's own `Predicate.evaluate` select the same objects.
@Suite("Typed predicates: SQL, in-memory NSPredicate and Predicate.evaluate agree")
struct TypedPredicateDifferentialTests {
    static let same = ComparisonResult.orderedSame

    static func gadgetPredicates(_ n: Int64, _ s: String, _ x: Double, _ day: Int) -> [(String, Predicate<Gadget>)] {
        let date = GadgetStack.epoch.addingTimeInterval(Double(day) * 86_400)
        let code = GadgetStack.codes[abs(day) % GadgetStack.codes.count]
        let low = n - 2
        let count = Int(n)
        let choices = [n, n + 3, 12]
        let same = Self.same
        return [
            ("stock == n", #Predicate<Gadget> { $0.stock == n }),
            ("stock != n", #Predicate<Gadget> { $0.stock != n }),
            ("stock > n", #Predicate<Gadget> { $0.stock > n }),
            ("stock <= n && active", #Predicate<Gadget> { $0.stock <= n && $0.active }),
            ("price >= x", #Predicate<Gadget> { $0.price >= x }),
            ("title == s", #Predicate<Gadget> { $0.title == s }),
            ("title.contains(s)", #Predicate<Gadget> { $0.title.contains(s) }),
            ("title.starts(with: s)", #Predicate<Gadget> { $0.title.starts(with: s) }),
            ("title.localizedStandardContains(s)", #Predicate<Gadget> { $0.title.localizedStandardContains(s) }),
            ("title.caseInsensitiveCompare(s) == same", #Predicate<Gadget> { $0.title.caseInsensitiveCompare(s) == same }),
            ("detail == nil", #Predicate<Gadget> { $0.detail == nil }),
            ("(detail ?? \"\").contains(s)", #Predicate<Gadget> { ($0.detail ?? "").contains(s) }),
            ("(detail?.count ?? 0) > count", #Predicate<Gadget> { ($0.detail?.count ?? 0) > count }),
            ("maker?.name == s", #Predicate<Gadget> { $0.maker?.name == s }),
            ("maker == nil || !active", #Predicate<Gadget> { $0.maker == nil || !$0.active }),
            ("(maker?.gadgets.count ?? 0) > count", #Predicate<Gadget> { ($0.maker?.gadgets.count ?? 0) > count }),
            ("added > date", #Predicate<Gadget> { $0.added > date }),
            ("added < date || !active", #Predicate<Gadget> { $0.added < date || !$0.active }),
            ("(low...n).contains(stock)", #Predicate<Gadget> { (low...n).contains($0.stock) }),
            ("(low..<n).contains(stock)", #Predicate<Gadget> { (low..<n).contains($0.stock) }),
            ("choices.contains(stock)", #Predicate<Gadget> { choices.contains($0.stock) }),
            ("stock + n > 10", #Predicate<Gadget> { $0.stock + n > 10 }),
            ("stock * 2 - n >= 3", #Predicate<Gadget> { $0.stock * 2 - n >= 3 }),
            ("-stock < -n", #Predicate<Gadget> { -$0.stock < -n }),
            ("price / 2 > x", #Predicate<Gadget> { $0.price / 2 > x }),
            ("active ? stock > n : price < x", #Predicate<Gadget> { $0.active ? $0.stock > n : $0.price < x }),
            ("!title.isEmpty && title.count < count", #Predicate<Gadget> { !$0.title.isEmpty && $0.title.count < count }),
            ("code == code", #Predicate<Gadget> { $0.code == code }),
            ("place.latitude > x", #Predicate<Gadget> { $0.place.latitude > x }),
            ("place.longitude <= -x / 5 || place.label == s", #Predicate<Gadget> { $0.place.longitude <= -x / 5 || $0.place.label == s }),
            ("(spot?.latitude ?? -1) >= x / 2", #Predicate<Gadget> { ($0.spot?.latitude ?? -1) >= x / 2 }),
            ("spot?.label?.contains(s) == true", #Predicate<Gadget> { $0.spot?.label?.contains(s) == true }),
            ("spot == nil", #Predicate<Gadget> { $0.spot == nil }),
        ]
    }

    static func makerPredicates(_ n: Int64, _ s: String, _ k: Int) -> [(String, Predicate<Maker>)] {
        [
            ("gadgets.contains { stock > n }", #Predicate<Maker> { $0.gadgets.contains { $0.stock > n } }),
            ("gadgets.allSatisfy { stock > n }", #Predicate<Maker> { $0.gadgets.allSatisfy { $0.stock > n } }),
            (
                "gadgets.filter { title.contains(s) }.count > 1",
                #Predicate<Maker> { $0.gadgets.filter { $0.title.contains(s) }.count > 1 }
            ),
            ("gadgets.isEmpty", #Predicate<Maker> { $0.gadgets.isEmpty }),
            ("gadgets.count > k", #Predicate<Maker> { $0.gadgets.count > k }),
            ("(country ?? \"\") == s", #Predicate<Maker> { ($0.country ?? "") == s }),
        ]
    }

    /// An empty search string is left out: `"abc".contains("")` is true in Swift, while `CONTAINS ""` and
    /// `BEGINSWITH ""` match nothing, in Apple's predicates as in these (`emptySearchString` shows it).
    static let parameters: [(Int64, String, Double, Int)] = [
        (3, "caf", 5.0, 0), (7, "e", 10.0, -5), (0, "Ä", 0.0, 12),
        (12, "Zebra", 17.5, -30),
    ]

    @Test("gadget predicates agree, at least 100 of them")
    func gadgets() throws {
        let stack = try GadgetStack()
        let context = stack.context()
        var checked = 0
        try context.performAndWait {
            let all = try context.fetch(NSFetchRequest<Gadget>(entityName: "Gadget"))
            #expect(all.count == 40)
            for (n, s, x, day) in Self.parameters {
                for (label, typed) in Self.gadgetPredicates(n, s, x, day) {
                    try Self.check(label, typed, all: all, in: context, entity: "Gadget")
                    checked += 1
                }
            }
        }
        #expect(checked >= 100)
    }

    @Test("maker predicates over to-many relationships agree")
    func makers() throws {
        let stack = try GadgetStack()
        let context = stack.context()
        try context.performAndWait {
            let all = try context.fetch(NSFetchRequest<Maker>(entityName: "Maker"))
            for (n, s, _, day) in Self.parameters {
                for (label, typed) in Self.makerPredicates(n, s, abs(day) % 12) {
                    try Self.check(label, typed, all: all, in: context, entity: "Maker")
                }
            }
        }
    }

    @Test("a composite attribute declared as a Swift type: its elements' key paths, its values read back as the type")
    func compositeElements() throws {
        let limit = 3.0
        #expect(try NSPredicate(converting: #Predicate<Gadget> { $0.place.latitude > limit }).predicateFormat == "place.latitude > 3")
        #expect(
            try NSPredicate(converting: #Predicate<Gadget> { $0.spot?.longitude == limit }).predicateFormat
                == "TERNARY(spot != nil, spot.longitude, nil) == 3")
        let stack = try GadgetStack()
        let context = stack.context()
        try context.performAndWait {
            let request = NSFetchRequest<Gadget>(entityName: "Gadget")
            request.sortDescriptors = [NSSortDescriptor(key: "code", ascending: true)]
            let gadgets = try context.fetch(request)
            #expect(gadgets[1].spot == Spot(latitude: 1.5, longitude: -0.5, label: GadgetStack.titles[3]))
            #expect(gadgets[0].spot == nil)
            #expect(gadgets[2].place == Spot(latitude: 6, longitude: -2, label: nil))
            let stored = try #require(gadgets[1].value(forKey: "spot") as? [String: Any])
            #expect(stored["latitude"] as? Double == 1.5 && stored["label"] as? String == GadgetStack.titles[3])
        }
    }

    @Test("an empty search string converts to CONTAINS \"\", which matches nothing, as Apple's predicates do")
    func emptySearchString() throws {
        let stack = try GadgetStack()
        let context = stack.context()
        let empty = ""
        let typed = #Predicate<Gadget> { $0.title.contains(empty) }
        let converted = try NSPredicate(converting: typed)
        #expect(converted.predicateFormat == "title CONTAINS \"\"")
        let request = NSFetchRequest<Gadget>(entityName: "Gadget")
        request.predicate = converted
        try context.performAndWait {
            #expect(try context.fetch(request).isEmpty)
            let all = try context.fetch(NSFetchRequest<Gadget>(entityName: "Gadget"))
            #expect(all.filter { converted.evaluate(with: $0) }.isEmpty)
            #expect(try all.allSatisfy { try typed.evaluate($0) })
        }
    }

    static func check<T: NSManagedObject>(
        _ label: String, _ typed: Predicate<T>, all: [T],
        in context: NSManagedObjectContext, entity: String
    ) throws {
        let converted = try NSPredicate(converting: typed)
        let request = NSFetchRequest<T>(entityName: entity)
        request.predicate = converted
        let fetched = Set(try context.fetch(request).map(\.objectID))
        let inMemory = Set(all.filter { converted.evaluate(with: $0) }.map(\.objectID))
        let foundation = Set(try all.filter { try typed.evaluate($0) }.map(\.objectID))
        #expect(fetched == foundation, "SQL and Predicate.evaluate differ for \(label): \(converted.predicateFormat)")
        #expect(inMemory == foundation, "NSPredicate.evaluate and Predicate.evaluate differ for \(label): \(converted.predicateFormat)")
    }
}
