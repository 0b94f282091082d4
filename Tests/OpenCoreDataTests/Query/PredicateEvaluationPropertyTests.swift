import OpenCoreData
import Testing

/// A small deterministic generator (SplitMix64), so failures reproduce.
private struct SplitMix {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

    mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }
}

@Suite("Predicate evaluation properties")
struct PredicateEvaluationPropertyTests {
    private static let strings = ["", "a", "A", "é", "e\u{301}", "Crème", "creme", "ß", "SS", "*", "a*b", "[", "(x", "中文"]

    private func randomValue(_ g: inout SplitMix, depth: Int = 0) -> Any? {
        switch g.below(depth > 1 ? 12 : 15) {
        case 0: return nil
        case 1: return NSNull()
        case 2: return g.below(7) - 3
        case 3:
            return g.below(4) == 0
                ? g.pick([Double.nan, .infinity, -.infinity, 9_223_372_036_854_775_808.0, -9_223_372_036_854_775_808.0])
                : Double(g.below(9)) / 2 - 2
        case 4: return g.below(2) == 0
        case 5: return g.pick([Int64.max, Int64.max - 1, Int64.min])
        case 6: return UInt64.max
        case 7: return Decimal(g.below(5))
        case 8: return NSNumber(value: Double(g.below(4)))
        case 9: return g.pick(Self.strings)
        case 10: return Date(timeIntervalSinceReferenceDate: Double(g.below(3)))
        case 11: return g.pick([Data(), Data([1]), Data([1, 2])]) as Any
        case 12: return (0..<g.below(4)).map { _ in randomValue(&g, depth: depth + 1) ?? NSNull() }
        case 13: return Set((0..<g.below(3)).map { _ in g.pick(Self.strings) })
        default: return ["k": randomValue(&g, depth: depth + 1) ?? NSNull(), "n": g.below(3)] as [String: Any]
        }
    }

    private let operators: [NSComparisonPredicate.Operator] = [
        .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .equalTo, .notEqualTo, .matches, .like,
        .beginsWith, .endsWith, .in, .contains, .between,
    ]
    private let optionSets: [NSComparisonPredicate.Options] = [
        [], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive], .normalized,
    ]

    @Test("random comparisons of random values never crash, and obey Apple's algebra")
    func algebra() {
        var g = SplitMix(state: 0x51DE_C0DE)
        for _ in 0..<4_000 {
            let a = randomValue(&g), b = randomValue(&g)
            let op = g.pick(operators), options = g.pick(optionSets)
            let modifier = g.pick([NSComparisonPredicate.Modifier.direct, .any, .all])
            let object: [String: Any?] = ["a": a, "b": b]
            let predicate = NSComparisonPredicate(
                leftExpression: NSExpression(forKeyPath: "a"),
                rightExpression: NSExpression(forKeyPath: "b"),
                modifier: modifier, type: op, options: options)
            let result = predicate.evaluate(with: object)
            #expect(NSCompoundPredicate(notPredicateWithSubpredicate: predicate).evaluate(with: object) == !result)
            #expect(
                NSCompoundPredicate(andPredicateWithSubpredicates: [predicate, NSPredicate(value: true)])
                    .evaluate(with: object) == result)
            let ca = NSExpression(forConstantValue: a), cb = NSExpression(forConstantValue: b)
            if ca.isEqual(cb) { #expect(ca.hash == cb.hash && cb.isEqual(ca)) }
            guard modifier == .direct else { continue }
            let eq = Q.values(a, .equalTo, b, options), ne = Q.values(a, .notEqualTo, b, options)
            #expect(eq == Q.values(b, .equalTo, a, options), "== is symmetric for \(String(describing: a)), \(String(describing: b))")
            #expect(ne == !eq)
            #expect(Q.values(a, .in, b, options) == Q.values(b, .contains, a, options))
            let lt = Q.values(a, .lessThan, b, options), gt = Q.values(a, .greaterThan, b, options)
            #expect(!(lt && gt))
            #expect(lt == Q.values(b, .greaterThan, a, options))
            #expect(Q.values(a, .lessThanOrEqualTo, b, options) == Q.values(b, .greaterThanOrEqualTo, a, options))
            if lt || gt { #expect(!eq) }
            let between = Q.values(a, .between, [b, b], options)
            #expect(
                between
                    == (Q.values(a, .greaterThanOrEqualTo, b, options)
                        && Q.values(a, .lessThanOrEqualTo, b, options)))
        }
    }

    @Test("random expressions over random values never crash")
    func expressionsNeverCrash() {
        var g = SplitMix(state: 0xFEED)
        let functions = [
            "sum:", "count:", "min:", "max:", "average:", "median:", "mode:", "stddev:", "sqrt:",
            "log:", "ln:", "exp:", "ceiling:", "abs:", "trunc:", "floor:", "uppercase:",
            "lowercase:", "onesComplement:", "noindex:", "distinct:", "randomn:", "canonical:",
        ]
        let binary = [
            "add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:", "raise:toPower:",
            "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:", "rightshift:by:",
            "castObject:toType:", "objectFrom:withIndex:",
        ]
        var evaluated = 0
        for _ in 0..<3_000 {
            let a = NSExpression(forConstantValue: randomValue(&g)), b = NSExpression(forConstantValue: randomValue(&g))
            let expression =
                g.below(2) == 0
                ? NSExpression(forFunction: g.pick(functions), arguments: [a])
                : NSExpression(forFunction: g.pick(binary), arguments: [a, b])
            _ = expression.expressionValue(with: nil, context: nil)
            _ = NSExpression(forKeyPath: g.pick(["k", "k.k", "@count", "@sum.n", "@max.k", "k.@avg.n", "@distinctUnionOfObjects.k"]))
                .expressionValue(with: randomValue(&g), context: nil)
            evaluated += 1
        }
        #expect(evaluated == 3_000)
    }

    @Test("ANY, ALL and NONE agree with SUBQUERY counts over random object graphs")
    func modifiersAgreeWithSubqueries() {
        var g = SplitMix(state: 0xA11)
        for _ in 0..<500 {
            let friends = (0..<g.below(5)).map { _ in
                QueryPerson(name: g.pick(Self.strings), age: g.below(10), nickname: g.below(3) == 0 ? nil : "n")
            }
            let person = QueryPerson(name: "root", age: 50, friends: friends)
            let op = g.pick(operators), options = g.pick(optionSets)
            let key = g.pick(["age", "name", "nickname"])
            let rhs: Any? =
                key == "age"
                ? (op == .between ? [g.below(5), g.below(10)] : g.below(10)) as Any
                : (op == .in ? [g.pick(Self.strings), "n"] : g.pick(Self.strings)) as Any
            let any = Q.compare("friends." + key, op, rhs, options, modifier: .any)
            let all = Q.compare("friends." + key, op, rhs, options, modifier: .all)
            let inner = NSComparisonPredicate(
                leftExpression: NSExpression(
                    forFunction: NSExpression(forVariable: "f"), selectorName: "valueForKey:",
                    arguments: [NSExpression(forConstantValue: key)]),
                rightExpression: NSExpression(forConstantValue: rhs), modifier: .direct, type: op, options: options)
            let subquery = NSExpression(
                forSubquery: NSExpression(forKeyPath: "friends"), usingIteratorVariable: "f",
                predicate: inner)
            let matching = (subquery.expressionValue(with: person, context: nil) as? [Any])?.count ?? -1
            #expect(any.evaluate(with: person) == (matching > 0), "ANY \(op) \(options) \(key)")
            #expect(all.evaluate(with: person) == (matching == friends.count), "ALL \(op) \(options) \(key)")
            let none = NSCompoundPredicate(notPredicateWithSubpredicate: any)
            #expect(none.evaluate(with: person) == (matching == 0))
        }
    }
}
