import OpenCoreData
import Testing

/// Code written the way Core Data users write it from Apple's documentation, compiled and run against
/// our API: if a name, label or optionality drifts from Apple's, this file stops compiling.
@Suite("Query API as Apple documents it")
struct QueryAPIConformanceTests {
    let people: [[String: Any]] = [
        ["name": "Ann", "age": 31, "city": "Paris"],
        ["name": "bob", "age": 17, "city": "Berlin"],
        ["name": "Cid", "age": 45, "city": "Paris"],
    ]

    // MARK: Predicates from format strings

    @Test("NSPredicate(format:) with variadic Any? arguments filters an array of dictionaries")
    func formatWithArguments() {
        let predicate = NSPredicate(format: "city == %@ AND age > %d", "Paris", 40)
        #expect(people.filter { predicate.evaluate(with: $0) }.compactMap { $0["name"] as? String } == ["Cid"])
    }

    @Test("NSPredicate(format:argumentArray:) takes an optional [Any]")
    func formatArgumentArray() {
        let arguments: [Any]? = ["name", "a"]
        let predicate = NSPredicate(format: "%K BEGINSWITH[c] %@", argumentArray: arguments)
        #expect(predicate.predicateFormat == "name BEGINSWITH[c] \"a\"")
        #expect(NSPredicate(format: "TRUEPREDICATE", argumentArray: nil).evaluate(with: nil))
    }

    @Test("NSPredicate(format:) returns the subclass the text describes")
    func formatSubclasses() throws {
        let comparison = try #require(NSPredicate(format: "age > 3") as? NSComparisonPredicate)
        #expect(comparison.predicateOperatorType == .greaterThan)
        #expect(comparison.comparisonPredicateModifier == .direct)
        let compound = try #require(NSPredicate(format: "a == 1 OR b == 2") as? NSCompoundPredicate)
        #expect(compound.compoundPredicateType == .or)
        #expect(compound.subpredicates.count == 2)
    }

    @Test("A literal {…} is an aggregate expression; a %@ array is a constant; both filter alike")
    func aggregateLiteralVersusArgument() throws {
        let literal = try #require(NSPredicate(format: "age IN {17, 45}") as? NSComparisonPredicate)
        #expect(literal.rightExpression.expressionType == .aggregate)
        let argument = try #require(NSPredicate(format: "age IN %@", [17, 45]) as? NSComparisonPredicate)
        #expect(argument.rightExpression.expressionType == .constantValue)
        #expect(literal.predicateFormat == "age IN {17, 45}")
        #expect(argument.predicateFormat == "age IN {17, 45}")
        let fromLiteral = people.filter { literal.evaluate(with: $0) }.compactMap { $0["name"] as? String }
        let fromArgument = people.filter { argument.evaluate(with: $0) }.compactMap { $0["name"] as? String }
        #expect(fromLiteral == ["bob", "Cid"])
        #expect(fromArgument == fromLiteral)
    }

    @Test("BETWEEN reads {a, b} as an aggregate and prints it back")
    func betweenAggregate() throws {
        let predicate = try #require(NSPredicate(format: "age BETWEEN {18, 40}") as? NSComparisonPredicate)
        #expect(predicate.rightExpression.expressionType == .aggregate)
        #expect(predicate.predicateFormat == "age BETWEEN {18, 40}")
        #expect(people.filter { predicate.evaluate(with: $0) }.count == 1)
        let reparsed = NSPredicate(format: predicate.predicateFormat)
        #expect(people.map { reparsed.evaluate(with: $0) } == people.map { predicate.evaluate(with: $0) })
    }

    @Test("predicateFormat prints Apple's canonical text")
    func canonicalText() {
        let cases: [(String, String)] = [
            ("flag == YES", "flag == 1"),
            ("name = 'Ann'", "name == \"Ann\""),
            ("name IN {'a', 'b'}", "name IN {\"a\", \"b\"}"),
            ("NOT name == 'x'", "NOT name == \"x\""),
            ("age BETWEEN {1, 5}", "age BETWEEN {1, 5}"),
            ("(a == 1 OR b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3"),
            ("SUBQUERY(children, $c, $c.age > 10).@count == 1", "SUBQUERY(children, $c, $c.age > 10).@count == 1"),
            ("any children.age > 10", "ANY children.age > 10"),
            ("name beginswith[cd] 'a'", "name BEGINSWITH[cd] \"a\""),
        ]
        for (text, expected) in cases {
            #expect(NSPredicate(format: text).predicateFormat == expected, "\(text)")
        }
        let date = Date(timeIntervalSinceReferenceDate: 123)
        #expect(NSPredicate(format: "created > %@", date).predicateFormat == "created > CAST(123.000000, \"NSDate\")")
    }

    @Test("NSPredicate(validatingFormat:) throws a Cocoa error for malformed user text")
    func validatingFormat() {
        #expect(throws: NSError.self) { try NSPredicate(validatingFormat: "age >", argumentArray: nil) }
        do {
            _ = try NSPredicate(validatingFormat: "(age > 3", argumentArray: nil)
            Issue.record("expected an error")
        } catch let error as NSError {
            #expect(error.domain == NSCocoaErrorDomain)
        }
    }

    // MARK: Programmatic predicates

    @Test("NSComparisonPredicate built with Apple's initializer matches the format equivalent")
    func programmaticComparison() {
        let predicate = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "name"),
            rightExpression: NSExpression(forConstantValue: "BOB"),
            modifier: .direct, type: .equalTo, options: [.caseInsensitive])
        #expect(predicate.predicateFormat == "name ==[c] \"BOB\"")
        #expect(people.filter { predicate.evaluate(with: $0) }.count == 1)
        #expect(predicate == NSPredicate(format: "name ==[c] 'BOB'"))
    }

    @Test("NSComparisonPredicate.Operator keeps Apple's raw values")
    func operatorRawValues() {
        let expected: [(NSComparisonPredicate.Operator, UInt)] = [
            (.lessThan, 0), (.lessThanOrEqualTo, 1), (.greaterThan, 2), (.greaterThanOrEqualTo, 3), (.equalTo, 4),
            (.notEqualTo, 5), (.matches, 6), (.like, 7), (.beginsWith, 8), (.endsWith, 9), (.in, 10),
            (.customSelector, 11), (.contains, 99), (.between, 100),
        ]
        for (op, raw) in expected { #expect(op.rawValue == raw, "\(op)") }
        #expect(NSComparisonPredicate.Modifier.any.rawValue == 2)
        #expect(NSCompoundPredicate.LogicalType.not.rawValue == 0)
        #expect(NSCompoundPredicate.LogicalType.and.rawValue == 1)
        #expect(NSCompoundPredicate.LogicalType.or.rawValue == 2)
    }

    @Test("NSCompoundPredicate composes predicates and prints nested parentheses")
    func compoundComposition() {
        let young = NSPredicate(format: "age < 20")
        let old = NSPredicate(format: "age > 40")
        let either = NSCompoundPredicate(orPredicateWithSubpredicates: [young, old])
        let inParis = NSPredicate(format: "city == 'Paris'")
        let both = NSCompoundPredicate(andPredicateWithSubpredicates: [either, inParis])
        #expect(both.predicateFormat == "(age < 20 OR age > 40) AND city == \"Paris\"")
        #expect(people.filter { both.evaluate(with: $0) }.compactMap { $0["name"] as? String } == ["Cid"])
        let notParis = NSCompoundPredicate(notPredicateWithSubpredicate: inParis)
        #expect(notParis.compoundPredicateType == .not)
        #expect(people.filter { notParis.evaluate(with: $0) }.count == 1)
        let typed = NSCompoundPredicate(type: .and, subpredicates: [])
        #expect(typed.evaluate(with: people[0]))
        #expect(!NSCompoundPredicate(type: .or, subpredicates: []).evaluate(with: people[0]))
    }

    @Test("NSPredicate(block:) and NSPredicate(value:) evaluate without a format")
    func blockAndValue() {
        let block = NSPredicate { object, _ in ((object as? [String: Any])?["age"] as? Int ?? 0) > 30 }
        #expect(people.filter { block.evaluate(with: $0) }.count == 2)
        #expect(NSPredicate(value: true).predicateFormat == "TRUEPREDICATE")
        #expect(!NSPredicate(value: false).evaluate(with: people[0]))
    }

    // MARK: Variables

    @Test("evaluate(with:substitutionVariables:) reads $VARIABLES from the bindings")
    func substitutionVariablesAtEvaluation() {
        let template = NSPredicate(format: "age > $minimum AND city == $city")
        let matches = people.filter {
            template.evaluate(with: $0, substitutionVariables: ["minimum": 20, "city": "Paris"])
        }
        #expect(matches.count == 2)
    }

    @Test("withSubstitutionVariables(_:) returns a predicate with the variables replaced by constants")
    func withSubstitutionVariables() {
        let template = NSPredicate(format: "name == $NAME")
        let bound = template.withSubstitutionVariables(["NAME": "Ann"])
        #expect(bound.predicateFormat == "name == \"Ann\"")
        #expect(bound.evaluate(with: people[0]))
        #expect(!bound.evaluate(with: people[1]))
    }

    // MARK: Expressions

    @Test("NSExpression(forFunction:arguments:) statistics via expressionValue(with:context:)")
    func expressionFunctions() throws {
        let numbers = NSExpression(forConstantValue: [2, 4, 4, 4, 5, 5, 7, 9])
        func value(_ name: String) -> Any? {
            NSExpression(forFunction: name, arguments: [numbers]).expressionValue(with: nil, context: nil)
        }
        #expect(value("sum:") as? Int == 40)
        #expect(value("count:") as? Int == 8)
        #expect(value("min:") as? Int == 2)
        #expect(value("max:") as? Int == 9)
        #expect(value("average:") as? Double == 5)
        #expect(value("median:") as? Double == 4.5)
        #expect(value("stddev:") as? Double == 2)
        let mode = try #require(value("mode:") as? [Any])
        #expect(mode.compactMap { $0 as? Int } == [4])
    }

    @Test("Functions in format text take a literal aggregate: sum:({1, 2, 3}) evaluates to 6")
    func functionsOfLiteralAggregates() throws {
        let sum = NSExpression(format: "sum:({1, 2, 3})")
        #expect(sum.expressionType == .function)
        #expect(sum.function == "sum:")
        let argument = try #require(sum.arguments?.first)
        #expect(argument.expressionType == .aggregate)
        #expect((sum.expressionValue(with: nil, context: nil) as? NSNumber)?.intValue == 6)
        let maximum = NSExpression(format: "max:({age, 40})")
        #expect((maximum.expressionValue(with: people[2], context: nil) as? NSNumber)?.intValue == 45)
        #expect((maximum.expressionValue(with: people[0], context: nil) as? NSNumber)?.intValue == 40)
    }

    @Test("Arithmetic functions take expressions and return numbers")
    func arithmeticFunctions() {
        let sum = NSExpression(
            forFunction: "add:to:",
            arguments: [
                NSExpression(forConstantValue: 2),
                NSExpression(forConstantValue: 3),
            ])
        #expect(sum.expressionValue(with: nil, context: nil) as? Int == 5)
        let power = NSExpression(format: "2 ** 10")
        #expect((power.expressionValue(with: nil, context: nil) as? NSNumber)?.intValue == 1024)
        let ageNextYear = NSExpression(format: "age + 1")
        #expect((ageNextYear.expressionValue(with: people[0], context: nil) as? NSNumber)?.intValue == 32)
    }

    @Test("expressionValue(with:context:) reads variables from a mutable dictionary context")
    func expressionContext() {
        let context = NSMutableDictionary()
        context["factor"] = 3
        let expression = NSExpression(format: "age * $factor")
        #expect((expression.expressionValue(with: people[1], context: context) as? NSNumber)?.intValue == 51)
    }

    @Test("Key path expressions expose keyPath, and collection operators work on key paths")
    func keyPathExpressions() {
        let expression = NSExpression(forKeyPath: "address.city")
        #expect(expression.expressionType == .keyPath)
        #expect(expression.keyPath == "address.city")
        let root: [String: Any] = ["items": [["price": 2], ["price": 5]]]
        #expect(
            (NSExpression(forKeyPath: "items.@sum.price").expressionValue(with: root, context: nil) as? NSNumber)?
                .intValue == 7)
        #expect(NSPredicate(format: "items.@count == 2").evaluate(with: root))
    }

    // MARK: Sort descriptors

    @Test("NSSortDescriptor sorts arrays of dictionaries by key, with selector-style string comparison")
    func sortDescriptorsOnDictionaries() {
        let byCity = NSSortDescriptor(key: "city", ascending: true)
        let byName = NSSortDescriptor(
            key: "name", ascending: true,
            selector: "caseInsensitiveCompare:")
        let sorted = NSArray(array: people).sortedArray(using: [byCity, byName])
        #expect(sorted.compactMap { ($0 as? NSDictionary)?["name"] as? String } == ["bob", "Ann", "Cid"])
        let optionalKey: String? = byCity.key
        #expect(optionalKey == "city")
        #expect(byCity.ascending)
    }

    @Test("compare(_:to:) returns a ComparisonResult and reversedSortDescriptor flips it")
    func compareAndReverse() throws {
        let byAge = NSSortDescriptor(key: "age", ascending: true)
        let result: ComparisonResult = byAge.compare(people[0], to: people[1])
        #expect(result == .orderedDescending)
        let reversed = try #require(byAge.reversedSortDescriptor as? NSSortDescriptor)
        #expect(!reversed.ascending)
        #expect(reversed.compare(people[0], to: people[1]) == .orderedAscending)
    }

    @Test("NSSortDescriptor(key:ascending:comparator:) uses the comparator")
    func comparatorDescriptor() {
        let byLength = NSSortDescriptor(key: "name", ascending: true) { a, b in
            let x = (a as? String)?.count ?? 0, y = (b as? String)?.count ?? 0
            return x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
        }
        let words: [[String: Any]] = [["name": "ccc"], ["name": "a"], ["name": "bb"]]
        let sorted = NSArray(array: words).sortedArray(using: [byLength])
        #expect(sorted.compactMap { ($0 as? NSDictionary)?["name"] as? String } == ["a", "bb", "ccc"])
    }

    // MARK: Filtering helpers

    @Test("NSArray.filtered(using:) filters with a format predicate")
    func nsArrayFiltered() {
        let array = NSArray(array: people)
        let filtered = array.filtered(using: NSPredicate(format: "name CONTAINS[c] %@", "B"))
        #expect(filtered.count == 1)
        #expect(((filtered.first as? NSDictionary)?["name"] as? String) == "bob")
        let names = NSArray(array: ["Harry Potter", "The Hobbit", "harry's friend"])
        #expect(names.filtered(using: NSPredicate(format: "SELF CONTAINS[cd] %@", "Harry")).count == 2)
    }
}
