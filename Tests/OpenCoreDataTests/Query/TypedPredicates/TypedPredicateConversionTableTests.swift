import OpenCoreData
import Testing

/// The fields of the object Apple's conversion tests use (`/work/shared/TYPED-PREDICATES.md`, §1.2):
/// a:Int, b:String, f:Bool, g:[Int], h:[String:Int], i:Date, j:String?, k:UUID, l:Data, m:URL.
final class ConversionSubject: NSObject {
    var a = 1
    var b = "Hello"
    var d = 4
    var f = true
    var g = [5, 6, 7, 8, 9]
    var h = ["A": 1, "B": 2]
    var i = Date.distantFuture
    var j: String? = nil
    var k = UUID()
    var l = Data([1, 2, 3])
    var m = URL(string: "http://apple.com")!
}

/// Each row of the table of conversions: the predicate Apple's conversion makes, compared as Apple's own
/// tests compare it (with `NSPredicate(format:)` of the expected text), and its in-memory result.
@Suite("The table of conversions in TYPED-PREDICATES.md")
struct TypedPredicateConversionTableTests {
    /// The converted predicate printing as `NSPredicate(format: expected)` prints, and its result on a
    /// fresh subject agreeing with Foundation's own evaluation.
    private func check(
        _ predicate: Predicate<ConversionSubject>, _ expected: NSPredicate,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let converted = try #require(NSPredicate(predicate), sourceLocation: sourceLocation)
        #expect(converted.predicateFormat == expected.predicateFormat, sourceLocation: sourceLocation)
        let subject = ConversionSubject()
        #expect(
            converted.evaluate(with: subject) == (try predicate.evaluate(subject)),
            "\(converted.predicateFormat)", sourceLocation: sourceLocation)
    }

    @Test("comparisons, AND, OR, NOT and arithmetic")
    func comparisonsAndArithmetic() throws {
        try check(#Predicate { $0.a == 2 }, NSPredicate(format: "a == 2"))
        try check(#Predicate { $0.a != 0 }, NSPredicate(format: "a != 0"))
        try check(#Predicate { $0.a > 2 }, NSPredicate(format: "a > 2"))
        try check(#Predicate { $0.a == 3 && $0.a > 2 }, NSPredicate(format: "a == 3 AND a > 2"))
        try check(#Predicate { $0.a == 3 || !($0.a > 2) }, NSPredicate(format: "a == 3 OR NOT a > 2"))
        try check(#Predicate { $0.a + 2 == 4 }, NSPredicate(format: "a + 2 == 4"))
        try check(#Predicate { -$0.a < 0 }, NSPredicate(format: "a * -1 < 0"))
    }

    @Test("string searches, counts and regular expressions")
    func strings() throws {
        try check(#Predicate { $0.b.contains("foo") }, NSPredicate(format: "b CONTAINS 'foo'"))
        try check(#Predicate { $0.b.starts(with: "foo") }, NSPredicate(format: "b BEGINSWITH 'foo'"))
        try check(#Predicate { $0.b.count == 5 }, NSPredicate(format: "b.length == 5"))
        try check(#Predicate { $0.b.isEmpty }, NSPredicate(format: "b.length == 0"))
        let regex = #/[e-f][l-m]/#
        try check(#Predicate { $0.b.contains(regex) }, NSPredicate(format: "b MATCHES '.*[e-f][l-m].*'"))
        let same = ComparisonResult.orderedSame
        try check(
            #Predicate { $0.b.caseInsensitiveCompare("ABC") == same },
            NSPredicate(format: "TERNARY(b ==[c] 'ABC', 0, TERNARY(b <[c] 'ABC', -1, 1)) == 0"))
        // Apple prints `==[l]`, `<[l]` and `CONTAINS[cdl]`: OpenCoreData's predicates have no locale option.
        try check(
            #Predicate { $0.b.localizedCompare("ABC") == same },
            NSPredicate(format: "TERNARY(b == 'ABC', 0, TERNARY(b < 'ABC', -1, 1)) == 0"))
        try check(#Predicate { $0.b.localizedStandardContains("ABC") }, NSPredicate(format: "b CONTAINS[cd] 'ABC'"))
    }

    @Test("collections: count, first, last, subscripts, SUBQUERY, IN, max and min")
    func collections() throws {
        try check(#Predicate { $0.g.count == 5 }, NSPredicate(format: "g.@count == 5"))
        try check(#Predicate { $0.g.isEmpty }, NSPredicate(format: "g.@count == 0"))
        try check(#Predicate { $0.g.first == 5 }, NSPredicate(format: "g[FIRST] == 5"))
        try check(#Predicate { $0.g.last == 9 }, NSPredicate(format: "g[LAST] == 9"))
        try check(#Predicate { $0.g[0] == 2 }, NSPredicate(format: "(SELF.g)[0] == 2"))
        try check(#Predicate { $0.h["A"] == 1 }, NSPredicate(format: "(SELF.h)['A'] == 1"))
        try check(
            #Predicate { $0.g.contains { $0 == 2 } },
            NSPredicate(format: "SUBQUERY(g, $_local_1, $_local_1 == 2).@count != 0"))
        try check(
            #Predicate { $0.g.allSatisfy { $0 == 2 } },
            NSPredicate(format: "SUBQUERY(g, $_local_1, NOT ($_local_1 == 2)).@count == 0"))
        try check(
            #Predicate { object in object.g.filter { $0 == object.d }.count > 0 },
            NSPredicate(format: "SUBQUERY(g, $_local_1, $_local_1 == d).@count > 0"))
        try check(#Predicate { [1, 2, 3].contains($0.a) }, NSPredicate(format: "a IN {1, 2, 3}"))
        try check(#Predicate { $0.g.max() == $0.g.min() }, NSPredicate(format: "g.@max.#self == g.@min.#self"))
        try check(#Predicate { $0.g.max() == 9 && $0.g.min() == 5 }, NSPredicate(format: "g.@max.#self == 9 AND g.@min.#self == 5"))
    }

    @Test("ranges of dates")
    func ranges() throws {
        let now = Date.now
        let later = now.addingTimeInterval(60)
        try check(
            #Predicate { (now...later).contains($0.i) },
            NSPredicate(format: "i BETWEEN %@", [now, later]))
        try check(
            #Predicate { (now..<later).contains($0.i) },
            NSPredicate(format: "i >= %@ AND i < %@", now, later))
        // The macro takes partial ranges only as captured values.
        let from = now..., through = ...now, upTo = ..<now
        try check(#Predicate { from.contains($0.i) }, NSPredicate(format: "i >= %@", now))
        try check(#Predicate { through.contains($0.i) }, NSPredicate(format: "i <= %@", now))
        try check(#Predicate { upTo.contains($0.i) }, NSPredicate(format: "i < %@", now))
    }

    @Test("Booleans, conditionals and optionals")
    func booleansAndOptionals() throws {
        try check(#Predicate { _ in true }, NSPredicate(format: "YES == YES"))
        try check(#Predicate { _ in true && false }, NSPredicate(format: "(YES == YES) && (NO == YES)"))
        try check(#Predicate { $0.f }, NSPredicate(format: "f == YES"))
        try check(#Predicate { ($0.f && true) == false }, NSPredicate(format: "TERNARY(f == YES AND YES == YES, YES, NO) == NO"))
        try check(#Predicate { $0.f ? true : false }, NSPredicate(format: "TERNARY(f == YES, YES, NO) == YES"))
        try check(#Predicate { ($0.j ?? "").isEmpty }, NSPredicate(format: "TERNARY(j != NULL, j, '').length == 0"))
        try check(
            #Predicate { ($0.j?.count ?? -1) > 1 },
            NSPredicate(format: "TERNARY(TERNARY(j != nil, j.length, nil) != nil, TERNARY(j != nil, j.length, nil), 1 * -1) > 1"))
        try check(#Predicate { $0.j == nil }, NSPredicate(format: "j == nil"))
    }

    @Test("constants: UUID, Date, Data, URL, and subtrees folded to constants")
    func constants() throws {
        let subject = ConversionSubject()
        let uuid = subject.k
        let converted = try #require(NSPredicate(#Predicate<ConversionSubject> { $0.k == uuid }))
        #expect(converted.predicateFormat == NSPredicate(format: "k == %@", uuid).predicateFormat)
        #expect(converted.evaluate(with: subject))
        let now = Date.now
        try check(#Predicate { $0.i > now }, NSPredicate(format: "i > %@", now))
        let data = Data([1, 2, 3])
        try check(#Predicate { $0.l == data }, NSPredicate(format: "l == %@", data))
        let url = URL(string: "http://apple.com")!
        try check(#Predicate { $0.m == url }, NSPredicate(format: "m == %@", url))
    }

    @Test("nodes with no conversion give nil: integer division, remainders, forced unwraps, casts")
    func noConversion() {
        #expect(NSPredicate(#Predicate<ConversionSubject> { $0.a / 2 == 1 }) == nil)
        #expect(NSPredicate(#Predicate<ConversionSubject> { $0.a % 2 == 1 }) == nil)
        #expect(NSPredicate(#Predicate<ConversionSubject> { $0.j! == "x" }) == nil)
        #expect(NSPredicate(#Predicate<ConversionSubject> { $0.g[1..<2].count == 1 }) == nil)
    }
}
