import OpenCoreData
import Testing

@Suite("Predicate evaluation")
struct PredicateEvaluationTests {
    let ann: [String: Any] = [
        "name": "Ann", "age": 31, "score": 4.5, "city": "Zürich",
        "tags": ["swift", "rust"], "nickname": NSNull(),
    ]

    @Test("ordering operators compare numbers by value on dictionaries")
    func orderingOnDictionaries() {
        #expect(Q.compare("age", .lessThan, 40).evaluate(with: ann))
        #expect(!Q.compare("age", .lessThan, 31).evaluate(with: ann))
        #expect(Q.compare("age", .lessThanOrEqualTo, 31).evaluate(with: ann))
        #expect(!Q.compare("age", .lessThanOrEqualTo, 30).evaluate(with: ann))
        #expect(Q.compare("age", .greaterThan, 30).evaluate(with: ann))
        #expect(!Q.compare("age", .greaterThan, 31).evaluate(with: ann))
        #expect(Q.compare("age", .greaterThanOrEqualTo, 31).evaluate(with: ann))
        #expect(!Q.compare("age", .greaterThanOrEqualTo, 32).evaluate(with: ann))
        #expect(Q.compare("age", .equalTo, 31).evaluate(with: ann))
        #expect(!Q.compare("age", .equalTo, 32).evaluate(with: ann))
        #expect(Q.compare("age", .notEqualTo, 32).evaluate(with: ann))
        #expect(!Q.compare("age", .notEqualTo, 31).evaluate(with: ann))
    }

    @Test("every operator works on an object adopting KeyValueCoding")
    func operatorsOnKeyValueCodingObject() {
        let bob = QueryPerson(name: "Bob", age: 40, score: 2.5, tags: ["a", "b"])
        #expect(Q.compare("age", .lessThan, 41).evaluate(with: bob))
        #expect(Q.compare("age", .lessThanOrEqualTo, 40).evaluate(with: bob))
        #expect(Q.compare("age", .greaterThan, 39.5).evaluate(with: bob))
        #expect(Q.compare("score", .greaterThanOrEqualTo, 2.5).evaluate(with: bob))
        #expect(Q.compare("name", .equalTo, "Bob").evaluate(with: bob))
        #expect(Q.compare("name", .notEqualTo, "Rob").evaluate(with: bob))
        #expect(Q.compare("name", .matches, "B.b").evaluate(with: bob))
        #expect(Q.compare("name", .like, "B*").evaluate(with: bob))
        #expect(Q.compare("name", .beginsWith, "Bo").evaluate(with: bob))
        #expect(Q.compare("name", .endsWith, "ob").evaluate(with: bob))
        #expect(Q.compare("name", .in, ["Ann", "Bob"]).evaluate(with: bob))
        #expect(Q.compare("tags", .contains, "a").evaluate(with: bob))
        #expect(Q.compare("age", .between, [30, 40]).evaluate(with: bob))
        #expect(!Q.compare("age", .between, [41, 50]).evaluate(with: bob))
    }

    @Test("numbers of different kinds compare by value")
    func mixedNumericTypes() {
        #expect(Q.values(Int(3), .equalTo, Double(3.0)))
        #expect(Q.values(Int64(3), .equalTo, Int8(3)))
        #expect(Q.values(UInt64(3), .equalTo, Float(3)))
        #expect(Q.values(true, .equalTo, 1))
        #expect(Q.values(false, .equalTo, 0))
        #expect(Q.values(NSNumber(value: 2.5), .equalTo, 2.5))
        #expect(Q.values(NSNumber(value: 7), .greaterThan, Int16(6)))
        #expect(Q.values(Decimal(string: "1.5") as Any, .equalTo, 1.5))
        #expect(Q.values(Decimal(10), .lessThan, 11))
        #expect(Q.values(Int.max, .greaterThan, Double(Int.max) / 2))
        #expect(Q.values(UInt64.max, .greaterThan, Int64.max))
        #expect(Q.values(3, .lessThan, 3.5))
        #expect(!Q.values(4, .lessThan, 3.5))
        #expect(Q.values(Int64.max, .notEqualTo, Int64.max - 1))
    }

    @Test("numbers at the edges of Int64 and Double compare without trapping")
    func numericEdges() {
        let twoTo63 = 9_223_372_036_854_775_808.0
        #expect(Q.values(Int64.max, .lessThan, twoTo63))
        #expect(Q.values(Int64.min, .equalTo, -twoTo63))
        #expect(Q.values(Int64.min, .greaterThan, -twoTo63 * 2))
        #expect(Q.values(30, .lessThan, Double(Int64.max)))
        #expect(Q.values(1, .lessThan, Double.infinity))
        #expect(Q.values(1, .greaterThan, -Double.infinity))
        #expect(Q.values(Decimal(1), .lessThan, Double.infinity))
        #expect(Q.values(Decimal(1), .greaterThan, -Double.infinity))
        #expect(!Q.values(Double.nan, .equalTo, Double.nan))
        #expect(!Q.values(Double.nan, .lessThan, 1))
        #expect(!Q.values(1, .greaterThanOrEqualTo, Double.nan))
        #expect(!Q.values(Decimal.nan, .equalTo, 1))
        #expect(Q.values(UInt64.max, .greaterThan, twoTo63))
        let overflowing = NSComparisonPredicate(
            leftExpression: NSExpression(forFunction: "add:to:", arguments: [Q.key("age"), Q.const(Int64.max - 14)]),
            rightExpression: Q.const(6), modifier: .direct, type: .greaterThan)
        #expect(overflowing.evaluate(with: ["age": 30]))
        let division = NSComparisonPredicate(
            leftExpression: NSExpression(forFunction: "divide:by:", arguments: [Q.const(Int64.min), Q.const(-1)]),
            rightExpression: Q.const(1), modifier: .direct, type: .equalTo)
        #expect(!division.evaluate(with: nil))
        let sorted = [["n": 2.0], ["n": Double.nan], ["n": -Double.infinity]]
            .sortedArray(using: [NSSortDescriptor(key: "n", ascending: true)])
        #expect(sorted[0]["n"]?.isNaN == true && sorted[1]["n"] == -Double.infinity && sorted[2]["n"] == 2)
    }

    @Test("nil equals only nil and is never ordered")
    func nilRules() {
        #expect(Q.values(nil, .equalTo, nil))
        #expect(!Q.values(nil, .equalTo, 0))
        #expect(!Q.values(0, .equalTo, nil))
        #expect(Q.values(nil, .notEqualTo, 0))
        #expect(!Q.values(nil, .lessThan, 1))
        #expect(!Q.values(nil, .greaterThan, 1))
        #expect(!Q.values(1, .greaterThan, nil))
        #expect(!Q.values(nil, .lessThanOrEqualTo, nil))
        #expect(Q.values(NSNull(), .equalTo, nil))
        #expect(Q.compare("nickname", .equalTo, nil).evaluate(with: ann))
        #expect(Q.compare("nickname", .equalTo, nil).evaluate(with: QueryPerson(name: "A", age: 1)))
        #expect(!Q.compare("nickname", .equalTo, nil).evaluate(with: QueryPerson(name: "A", age: 1, nickname: "a")))
        let optional: [String: Any?] = ["nickname": nil, "name": "Zed"]
        #expect(Q.compare("nickname", .equalTo, nil).evaluate(with: optional))
        #expect(Q.compare("name", .equalTo, "Zed").evaluate(with: optional))
    }

    @Test("objects compare by identity, or by isEqual for NSObjects")
    func objectIdentity() {
        let boss = QueryPerson(name: "Boss", age: 50), other = QueryPerson(name: "Boss", age: 50)
        let person = QueryPerson(name: "Ann", age: 30, boss: boss)
        #expect(Q.compare("boss", .equalTo, boss).evaluate(with: person))
        #expect(!Q.compare("boss", .equalTo, other).evaluate(with: person))
        #expect(Q.compare("boss", .in, [other, boss]).evaluate(with: person))
        #expect(Q.values(NSString(string: "a"), .equalTo, "a"))
        #expect(Q.values(NSNumber(value: 3), .in, NSSet(array: [NSNumber(value: 3.0)])))
    }

    @Test("a predicate is Sendable and evaluates concurrently from many tasks")
    func concurrentEvaluation() async {
        let predicate: NSPredicate = NSCompoundPredicate(andPredicateWithSubpredicates: [
            Q.compare("code", .matches, "[A-Z]{2}-\\d+"),
            Q.compare("code", .like, "*-?*", .caseInsensitive),
        ])
        let counts = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    (0..<300).filter { i in
                        predicate.evaluate(with: ["code": i % 2 == 0 ? "AB-\(i + task)" : "ab-\(i)"])
                    }.count
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 150, count: 8))
    }

    @Test("missing keys evaluate as nil and never crash")
    func missingKeys() {
        #expect(Q.compare("nothing", .equalTo, nil).evaluate(with: ann))
        #expect(!Q.compare("nothing", .greaterThan, 1).evaluate(with: ann))
        #expect(Q.compare("nothing.deeper.still", .equalTo, nil).evaluate(with: ann))
        #expect(Q.compare("missing", .equalTo, nil).evaluate(with: QueryPerson(name: "A", age: 1)))
        #expect(!Q.compare("name", .beginsWith, "a").evaluate(with: 42))
        #expect(!Q.compare("name", .like, "a").evaluate(with: nil))
        #expect(!Q.compare("name.@sum", .greaterThan, 1).evaluate(with: ann))
        #expect(!Q.compare("name.@bogus", .equalTo, 1).evaluate(with: ann))
    }

    @Test("strings compare with Unicode canonical equivalence and [c], [d], [cd] folding")
    func stringOptions() {
        #expect(Q.values("caf\u{E9}", .equalTo, "cafe\u{301}"))
        #expect(!Q.values("Café", .equalTo, "café"))
        #expect(Q.values("Café", .equalTo, "café", .caseInsensitive))
        #expect(!Q.values("Café", .equalTo, "Cafe", .caseInsensitive))
        #expect(Q.values("Café", .equalTo, "Cafe", .diacriticInsensitive))
        #expect(Q.values("CAFÉ", .equalTo, "cafe", [.caseInsensitive, .diacriticInsensitive]))
        #expect(Q.values("Zürich", .beginsWith, "zu", [.caseInsensitive, .diacriticInsensitive]))
        #expect(!Q.values("Zürich", .beginsWith, "zu", .caseInsensitive))
        #expect(Q.values("STRASSE", .endsWith, "sse", .caseInsensitive))
        #expect(Q.values("ÅNGSTRÖM", .contains, "gstro", [.caseInsensitive, .diacriticInsensitive]))
        #expect(Q.values("apple", .lessThan, "banana"))
        #expect(Q.values("Apple", .lessThan, "banana", .caseInsensitive))
        #expect(Q.values("b", .greaterThan, "A", .caseInsensitive))
    }

    @Test("[n] compares strings as they are, without folding")
    func normalizedOption() {
        #expect(Q.values("abc", .equalTo, "abc", .normalized))
        #expect(!Q.values("ABC", .equalTo, "abc", [.normalized, .caseInsensitive]))
    }

    @Test("LIKE matches * and ? wildcards over the whole string")
    func like() {
        #expect(Q.values("Harry Potter", .like, "Harry*"))
        #expect(Q.values("Harry Potter", .like, "*Pot?er"))
        #expect(Q.values("Harry Potter", .like, "H?rry*r"))
        #expect(!Q.values("Harry Potter", .like, "Harry"))
        #expect(!Q.values("Harry", .like, "Harry?"))
        #expect(Q.values("", .like, "*"))
        #expect(Q.values("a*b", .like, "a\\*b"))
        #expect(!Q.values("axb", .like, "a\\*b"))
        #expect(Q.values("HARRY", .like, "h*y", .caseInsensitive))
        #expect(Q.values("Ärger", .like, "a*", [.caseInsensitive, .diacriticInsensitive]))
        let long = String(repeating: "a", count: 2000)
        #expect(!Q.values(long, .like, String(repeating: "*a", count: 50) + "b"))
    }

    @Test("MATCHES is an ICU regular expression over the whole string")
    func matches() {
        #expect(Q.values("abc123", .matches, "[a-z]+\\d+"))
        #expect(!Q.values("abc123x", .matches, "[a-z]+\\d+"))
        #expect(!Q.values("-abc123", .matches, "[a-z]+\\d+"))
        #expect(Q.values("a|b", .matches, "a\\|b"))
        #expect(Q.values("ab", .matches, "a|ab"))
        #expect(Q.values("ABC", .matches, "abc", .caseInsensitive))
        #expect(!Q.values("ABC", .matches, "abc"))
        #expect(Q.values("résumé", .matches, "resume", .diacriticInsensitive))
        #expect(Q.values("john@example.com", .matches, "[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}"))
        #expect(!Q.values("abc", .matches, "(unclosed"))
    }

    @Test("IN and CONTAINS work on arrays, sets, NSArray, dictionaries and strings")
    func inAndContains() {
        #expect(Q.values(2, .in, [1, 2, 3]))
        #expect(Q.values(2.0, .in, [1, 2, 3]))
        #expect(!Q.values(4, .in, [1, 2, 3]))
        #expect(Q.values("b", .in, Set(["a", "b"])))
        #expect(Q.values("B", .in, ["a", "b"], .caseInsensitive))
        #expect(Q.values(3, .in, NSArray(array: [3, 4])))
        #expect(Q.values("x", .in, NSSet(array: ["x"])))
        #expect(Q.values("one", .in, ["k": "one"]))
        #expect(Q.values("ell", .in, "Hello"))
        #expect(Q.values("ELL", .in, "Hello", .caseInsensitive))
        #expect(!Q.values("", .in, "Hello"))
        #expect(Q.values([1, 2, 3], .contains, 2))
        #expect(Q.values(Set([1, 2]), .contains, 1))
        #expect(Q.values(NSOrderedSet(array: ["p", "q"]), .contains, "q"))
        #expect(Q.values("Hello", .contains, "llo"))
        #expect(!Q.values("Hello", .contains, "LLO"))
        #expect(Q.values("Hello", .contains, "LLO", .caseInsensitive))
        #expect(!Q.values(nil, .contains, 1))
        #expect(!Q.values(1, .in, nil))
        #expect(Q.compare("tags", .contains, "swift").evaluate(with: ann))
        #expect(Q.compare("city", .contains, "ur", .diacriticInsensitive).evaluate(with: ann))
    }

    @Test("BETWEEN takes a two-element collection and is inclusive")
    func between() {
        #expect(Q.values(5, .between, [1, 10]))
        #expect(Q.values(1, .between, [1, 10]))
        #expect(Q.values(10, .between, [1, 10.0]))
        #expect(!Q.values(11, .between, [1, 10]))
        #expect(Q.values("m", .between, ["a", "z"]))
        let now = Date()
        #expect(Q.values(now, .between, [now.addingTimeInterval(-1), now.addingTimeInterval(1)]))
        #expect(!Q.values(5, .between, [1]))
        #expect(!Q.values(5, .between, 3))
        #expect(!Q.values(nil, .between, [1, 10]))
    }

    @Test("dates, data, UUIDs and URLs compare as their types do")
    func otherValueTypes() {
        let early = Date(timeIntervalSinceReferenceDate: 0), late = Date(timeIntervalSinceReferenceDate: 10)
        #expect(Q.values(early, .lessThan, late))
        #expect(Q.values(late, .equalTo, Date(timeIntervalSinceReferenceDate: 10)))
        #expect(!Q.values(early, .equalTo, 0))
        #expect(Q.values(Data([1, 2]), .equalTo, Data([1, 2])))
        #expect(Q.values(Data([1, 2]), .lessThan, Data([1, 3])))
        let id = UUID()
        #expect(Q.values(id, .equalTo, UUID(uuidString: id.uuidString)))
        #expect(!Q.values(id, .equalTo, id.uuidString))
        #expect(Q.values(URL(string: "https://a.example/x"), .equalTo, URL(string: "https://a.example/x")))
        #expect(Q.values(URL(string: "https://a.example/a"), .lessThan, URL(string: "https://a.example/b")))
    }

    @Test("ANY and ALL apply the comparison to the elements of a to-many key path")
    func anyAllModifiers() {
        let kid1 = QueryPerson(name: "Kid1", age: 5), kid2 = QueryPerson(name: "Kid2", age: 12)
        let parent = QueryPerson(name: "Parent", age: 40, friends: [kid1, kid2])
        let lonely = QueryPerson(name: "Lonely", age: 50)
        #expect(Q.compare("friends.age", .greaterThan, 10, modifier: .any).evaluate(with: parent))
        #expect(!Q.compare("friends.age", .greaterThan, 10, modifier: .all).evaluate(with: parent))
        #expect(Q.compare("friends.age", .greaterThan, 1, modifier: .all).evaluate(with: parent))
        #expect(!Q.compare("friends.age", .greaterThan, 1, modifier: .any).evaluate(with: lonely))
        #expect(Q.compare("friends.age", .greaterThan, 1, modifier: .all).evaluate(with: lonely))
        #expect(Q.compare("friends.name", .beginsWith, "kid", .caseInsensitive, modifier: .any).evaluate(with: parent))
        let none = NSCompoundPredicate(
            notPredicateWithSubpredicate:
                Q.compare("friends.age", .greaterThan, 20, modifier: .any))
        #expect(none.evaluate(with: parent))
        let dict: [String: Any] = ["scores": [1, 5, 9]]
        #expect(Q.compare("scores", .equalTo, 5, modifier: .any).evaluate(with: dict))
        #expect(Q.compare("scores", .lessThan, 10, modifier: .all).evaluate(with: dict))
        #expect(Q.compare("scores", .in, [1, 5, 9, 11], modifier: .all).evaluate(with: dict))
    }

    @Test("SUBQUERY returns the elements satisfying its predicate, with the iteration variable bound")
    func subquery() {
        let parent = QueryPerson(
            name: "P", age: 40,
            friends: [
                QueryPerson(name: "a", age: 5),
                QueryPerson(name: "b", age: 15),
                QueryPerson(name: "c", age: 25),
            ])
        let inner = NSComparisonPredicate(
            leftExpression: NSExpression(
                forFunction: NSExpression(forVariable: "f"), selectorName: "valueForKeyPath:",
                arguments: [Q.const("age")]),
            rightExpression: Q.const(10), modifier: .direct, type: .greaterThan)
        let sub = NSExpression(forSubquery: Q.key("friends"), usingIteratorVariable: "f", predicate: inner)
        let result = sub.expressionValue(with: parent, context: nil) as? [Any]
        #expect(result?.count == 2)
        let count = NSComparisonPredicate(
            leftExpression: NSExpression(forFunction: "count:", arguments: [sub]),
            rightExpression: Q.const(2), modifier: .direct, type: .equalTo)
        #expect(count.evaluate(with: parent))
    }

    @Test("collection operators in key paths")
    func collectionOperators() {
        let kids = [QueryPerson(name: "a", age: 4), QueryPerson(name: "b", age: 8), QueryPerson(name: "a", age: 6)]
        let parent = QueryPerson(name: "P", age: 40, friends: kids)
        #expect(Q.compare("friends.@count", .equalTo, 3).evaluate(with: parent))
        #expect(Q.compare("friends.@sum.age", .equalTo, 18).evaluate(with: parent))
        #expect(Q.compare("friends.@avg.age", .equalTo, 6).evaluate(with: parent))
        #expect(Q.compare("friends.@min.age", .equalTo, 4).evaluate(with: parent))
        #expect(Q.compare("friends.@max.age", .equalTo, 8).evaluate(with: parent))
        let names = Q.key("friends.@distinctUnionOfObjects.name").expressionValue(with: parent, context: nil) as? [Any]
        #expect(names?.compactMap { $0 as? String } == ["a", "b"])
        let all = Q.key("friends.@unionOfObjects.name").expressionValue(with: parent, context: nil) as? [Any]
        #expect(all?.count == 3)
        #expect(Q.compare("@avg.age", .equalTo, 6).evaluate(with: kids))
        #expect(Q.compare("@count", .equalTo, 3).evaluate(with: kids))
        let dict: [String: Any] = ["items": [["price": 2.5], ["price": 1.5]]]
        #expect(Q.compare("items.@sum.price", .equalTo, 4).evaluate(with: dict))
    }

    @Test("comparison predicates keep their parts; enums have Apple's raw values")
    func comparisonAccessors() {
        let predicate = Q.compare("name", .beginsWith, "a", [.caseInsensitive, .diacriticInsensitive], modifier: .any)
        #expect(predicate.leftExpression.keyPath == "name")
        #expect(predicate.rightExpression.constantValue as? String == "a")
        #expect(predicate.comparisonPredicateModifier == .any)
        #expect(predicate.predicateOperatorType == .beginsWith)
        #expect(predicate.options == [.caseInsensitive, .diacriticInsensitive])
        #expect(predicate.customSelector == nil)
        let operators: [(NSComparisonPredicate.Operator, UInt)] = [
            (.lessThan, 0), (.lessThanOrEqualTo, 1), (.greaterThan, 2), (.greaterThanOrEqualTo, 3), (.equalTo, 4),
            (.notEqualTo, 5), (.matches, 6), (.like, 7), (.beginsWith, 8), (.endsWith, 9), (.in, 10),
            (.customSelector, 11), (.contains, 99), (.between, 100),
        ]
        for (op, raw) in operators { #expect(op.rawValue == raw) }
        #expect(NSComparisonPredicate.Modifier.direct.rawValue == 0)
        #expect(NSComparisonPredicate.Modifier.all.rawValue == 1)
        #expect(NSComparisonPredicate.Modifier.any.rawValue == 2)
        #expect(NSComparisonPredicate.Options.caseInsensitive.rawValue == 1)
        #expect(NSComparisonPredicate.Options.diacriticInsensitive.rawValue == 2)
        #expect(NSComparisonPredicate.Options.normalized.rawValue == 4)
    }

    @Test("custom selector comparisons call Foundation's comparison methods by name")
    func customSelectors() {
        func custom(_ lhs: Any?, _ selector: String, _ rhs: Any?) -> Bool {
            NSComparisonPredicate(
                leftExpression: Q.const(lhs), rightExpression: Q.const(rhs),
                customSelector: selector
            ).evaluate(with: nil)
        }
        let predicate = NSComparisonPredicate(
            leftExpression: Q.key("name"), rightExpression: Q.const("Ann"),
            customSelector: "isEqualToString:")
        #expect(predicate.predicateOperatorType == .customSelector)
        #expect(predicate.customSelector == "isEqualToString:")
        #expect(predicate.evaluate(with: ["name": "Ann"]))
        #expect(custom(3, "isEqual:", 3.0))
        #expect(custom("abc", "hasPrefix:", "ab"))
        #expect(!custom("abc", "hasSuffix:", "ab"))
        #expect(custom("abc", "containsString:", "b"))
        #expect(custom("ABC", "caseInsensitiveCompare:", "abc"))
        #expect(!custom("ABC", "compare:", "abc"))
        #expect(custom("Café au lait", "localizedStandardContainsString:", "CAFE"))
        #expect(custom("Café", "localizedCaseInsensitiveContainsString:", "CAF"))
        #expect(!custom(nil, "hasPrefix:", "a"))
    }

    /// String operator cases: operator raw value, right-hand side, and the expected result for the options
    /// `[]`, `[c]`, `[d]`, `[cd]`, with "Crème Brûlée" on the left.
    static let stringMatrix: [(UInt, String, [Bool])] = [
        (4, "Crème Brûlée", [true, true, true, true]),
        (4, "crème brûlée", [false, true, false, true]),
        (4, "CREME BRULEE", [false, false, false, true]),
        (5, "crème brûlée", [true, false, true, false]),
        (8, "Crème", [true, true, true, true]),
        (8, "creme", [false, false, false, true]),
        (8, "CRÈME", [false, true, false, true]),
        (9, "BRULEE", [false, false, false, true]),
        (9, "Brulee", [false, false, true, true]),
        (99, "ème b", [false, true, false, true]),
        (99, "eme B", [false, false, true, true]),
        (7, "cr?me*", [false, true, false, true]),
        (7, "C*e", [true, true, true, true]),
        (7, "C*x", [false, false, false, false]),
        (6, "cr.me.*", [false, true, false, true]),
        (6, "Cr[e]me.*", [false, false, true, true]),
        (0, "crème", [true, false, true, false]),
        (2, "CRÈME BRÛLÉE", [true, false, true, false]),
    ]

    @Test(
        "string operators × [c]/[d]/[cd] agree on dictionaries, KeyValueCoding objects and ANY/ALL collections",
        arguments: stringMatrix)
    func stringOperatorMatrix(_ operatorRaw: UInt, _ rhs: String, _ expected: [Bool]) throws {
        let op = try #require(NSComparisonPredicate.Operator(rawValue: operatorRaw))
        let optionSets: [NSComparisonPredicate.Options] = [
            [], .caseInsensitive, .diacriticInsensitive,
            [.caseInsensitive, .diacriticInsensitive],
        ]
        let lhs = "Crème Brûlée"
        for (options, want) in zip(optionSets, expected) {
            let dictionary: [String: Any] = ["name": lhs]
            let person = QueryPerson(name: lhs, age: 1)
            #expect(Q.compare("name", op, rhs, options).evaluate(with: dictionary) == want, "\(op) \(options) dict")
            #expect(Q.compare("name", op, rhs, options).evaluate(with: person) == want, "\(op) \(options) object")
            let group = ["names": [lhs, lhs]] as [String: Any]
            #expect(Q.compare("names", op, rhs, options, modifier: .any).evaluate(with: group) == want)
            #expect(Q.compare("names", op, rhs, options, modifier: .all).evaluate(with: group) == want)
            let mixed = ["names": [lhs, "zzz"]] as [String: Any]
            let other = Q.values("zzz", op, rhs, options)
            #expect(Q.compare("names", op, rhs, options, modifier: .any).evaluate(with: mixed) == (want || other))
            #expect(Q.compare("names", op, rhs, options, modifier: .all).evaluate(with: mixed) == (want && other))
        }
    }
}
