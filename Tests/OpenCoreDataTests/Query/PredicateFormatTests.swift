import OpenCoreData
import Testing

@Suite("Printing predicates in Apple's canonical format")
struct PredicateFormatTests {
    static let canonical: [(String, String)] = [
        ("name == 'Ann'", "name == \"Ann\""),
        ("name = \"Ann\"", "name == \"Ann\""),
        ("name beginswith[cd] 'a'", "name BEGINSWITH[cd] \"a\""),
        ("name contains[n] 'a'", "name CONTAINS[n] \"a\""),
        ("name endswith[dc] 'a'", "name ENDSWITH[cd] \"a\""),
        ("name like[c] 'a*'", "name LIKE[c] \"a*\""),
        ("name matches '[a-z]+'", "name MATCHES \"[a-z]+\""),
        ("any children.age > 10", "ANY children.age > 10"),
        ("some children.age > 10", "ANY children.age > 10"),
        ("all children.age >= 1", "ALL children.age >= 1"),
        ("none children.age == 1", "NOT ANY children.age == 1"),
        ("SUBQUERY(children, $c, $c.age > 10).@count == 1", "SUBQUERY(children, $c, $c.age > 10).@count == 1"),
        ("age between {1,5}", "age BETWEEN {1, 5}"),
        ("name in {'a','b'}", "name IN {\"a\", \"b\"}"),
        ("NOT name == 'x'", "NOT name == \"x\""),
        ("!(name == 'x')", "NOT name == \"x\""),
        ("NOT (a == 1 AND b == 2)", "NOT (a == 1 AND b == 2)"),
        ("NOT NOT a == 1", "NOT NOT a == 1"),
        ("!(!(a == 1))", "NOT NOT a == 1"),
        ("(NOT a == 1) AND b == 2", "NOT a == 1 AND b == 2"),
        ("NOT (a == 1 OR NOT (b == 2 AND c == 3))", "NOT (a == 1 OR NOT (b == 2 AND c == 3))"),
        ("(a == 1 || b == 2) && c == 3", "(a == 1 OR b == 2) AND c == 3"),
        ("a == 1 OR b == 2 AND c == 3", "a == 1 OR (b == 2 AND c == 3)"),
        ("a == 1 AND b == 2 AND c == 3", "a == 1 AND b == 2 AND c == 3"),
        ("flag == YES", "flag == 1"),
        ("flag == false", "flag == 0"),
        ("a = NULL", "a == nil"),
        ("a <> 1", "a != 1"),
        ("a =< 1", "a <= 1"),
        ("a => 1", "a >= 1"),
        ("d > CAST(722908800, 'NSDate')", "d > CAST(722908800.000000, \"NSDate\")"),
        ("s == 'a\"b\\\\c\\n\\t'", "s == \"a\\\"b\\\\c\\n\\t\""),
        ("s == 'é'", "s == \"é\""),
        ("sum:(values) > 1", "sum:(values) > 1"),
        ("sum(values) > 1", "sum:(values) > 1"),
        ("now() > d", "now() > d"),
        ("random() < 2", "random() < 2"),
        ("add:to:(a, 1) == 2", "a + 1 == 2"),
        ("FUNCTION(SELF, 'uppercase:', name) == 'A'", "FUNCTION(SELF, \"uppercase:\", name) == \"A\""),
        ("CAST(x, 'NSNumber') == 1", "CAST(x, \"NSNumber\") == 1"),
        ("TERNARY(a > 1, 'x', 'y') == 'x'", "TERNARY(a > 1, \"x\", \"y\") == \"x\""),
        ("a == $LIMIT", "a == $LIMIT"),
        ("$source.height < 100", "$source.height < 100"),
        ("#IN == 1", "#IN == 1"),
        ("#self.#first == 1", "#self.#first == 1"),
        ("TRUEPREDICATE", "TRUEPREDICATE"),
        ("falsepredicate", "FALSEPREDICATE"),
        ("(a + b) * c == 1", "(a + b) * c == 1"),
        ("a + b * c == 1", "a + b * c == 1"),
        ("a - (b - c) == 1", "a - (b - c) == 1"),
        ("a / (b * c) == 1", "a / (b * c) == 1"),
        ("2 ** 3 ** 2 == 1", "2 ** 3 ** 2 == 1"),
        ("(2 ** 3) ** 2 == 1", "(2 ** 3) ** 2 == 1"),
        ("a == -5", "a == -5"),
        ("a == 2.5", "a == 2.5"),
        ("a == 10.0", "a == 10"),
        ("a == 0x10", "a == 16"),
        ("ANYKEY == 'x'", "ANYKEY == \"x\""),
        ("SELF IN {1, 2}", "SELF IN {1, 2}"),
        ("a IN {b, 2}", "a IN {b, 2}"),
        ("{1, 2} UNION {3} == nil", "{1, 2} UNION {3} == nil"),
        ("a INTERSECT (b MINUS c) == nil", "a INTERSECT (b MINUS c) == nil"),
        ("posts.@count > 5 AND age > 25", "posts.@count > 5 AND age > 25"),
        ("children[SIZE] > 1", "count:(children) > 1"),
        ("children[2] == 'x'", "children[2] == \"x\""),
        ("children[FIRST].name == 'x'", "children[0].name == \"x\""),
        ("children[LAST] == 'x'", "children[-1] == \"x\""),
        ("map['key'] == 1", "map[\"key\"] == 1"),
        ("(a + b)[0] == 1", "(a + b)[0] == 1"),
    ]

    @Test("predicateFormat is Apple's canonical text", arguments: canonical)
    func canonicalText(input: String, expected: String) throws {
        let predicate = try FormatTest.predicate(input)
        #expect(predicate.predicateFormat == expected)
        #expect(predicate.description == expected)
    }

    @Test("arguments print as the constants they became")
    func argumentsPrint() throws {
        #expect(try FormatTest.predicate("a IN %@", ["x", "y"]).predicateFormat == "a IN {\"x\", \"y\"}")
        #expect(try FormatTest.predicate("%K == %@", "size", 3).predicateFormat == "#size == 3")
        #expect(try FormatTest.predicate("a == %@", nil).predicateFormat == "a == nil")
        #expect(try FormatTest.predicate("a == %@", true).predicateFormat == "a == 1")
        #expect(try FormatTest.predicate("a == %f", 10.0).predicateFormat == "a == 10")
        #expect(
            try FormatTest.predicate("a == %@", Date(timeIntervalSinceReferenceDate: 0.5)).predicateFormat
                == "a == CAST(0.500000, \"NSDate\")")
        #expect(try FormatTest.predicate("a == %@", "100%").predicateFormat == "a == \"100%\"")
    }

    @Test("programmatic predicates print like parsed ones")
    func programmaticPredicates() {
        let name = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "name"),
            rightExpression: NSExpression(forConstantValue: "Ann"),
            modifier: .direct, type: .beginsWith, options: [.caseInsensitive, .diacriticInsensitive])
        #expect(name.predicateFormat == "name BEGINSWITH[cd] \"Ann\"")
        let any = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "children.age"),
            rightExpression: NSExpression(forConstantValue: 10),
            modifier: .any, type: .greaterThan, options: [])
        let either = NSCompoundPredicate(orPredicateWithSubpredicates: [name, any])
        let both = NSCompoundPredicate(andPredicateWithSubpredicates: [either, NSPredicate(value: true)])
        #expect(both.predicateFormat == "(name BEGINSWITH[cd] \"Ann\" OR ANY children.age > 10) AND TRUEPREDICATE")
        #expect(
            NSCompoundPredicate(notPredicateWithSubpredicate: both).predicateFormat
                == "NOT ((name BEGINSWITH[cd] \"Ann\" OR ANY children.age > 10) AND TRUEPREDICATE)")
        #expect(NSCompoundPredicate(andPredicateWithSubpredicates: []).predicateFormat == "TRUEPREDICATE")
        #expect(NSCompoundPredicate(orPredicateWithSubpredicates: []).predicateFormat == "FALSEPREDICATE")
        let subquery = NSExpression(
            forSubquery: NSExpression(forKeyPath: "children"), usingIteratorVariable: "c",
            predicate: NSPredicate(format: "$c.age > 10"))
        #expect(subquery.description == "SUBQUERY(children, $c, $c.age > 10)")
    }

    @Test("expressions print as Apple prints them")
    func expressionDescriptions() {
        let values = NSExpression(forKeyPath: "values")
        #expect(NSExpression(forFunction: "sum:", arguments: [values]).description == "sum:(values)")
        #expect(NSExpression(forFunction: "now", arguments: []).description == "now()")
        #expect(
            NSExpression(
                forFunction: "multiply:by:",
                arguments: [
                    NSExpression(forFunction: "add:to:", arguments: [values, NSExpression(forConstantValue: 1)]),
                    NSExpression(forConstantValue: 2),
                ]
            ).description == "(values + 1) * 2")
        #expect(NSExpression.expressionForEvaluatedObject().description == "SELF")
        #expect(NSExpression(forVariable: "x").description == "$x")
        #expect(NSExpression(forConstantValue: nil).description == "nil")
        #expect(NSExpression(forConstantValue: "a\"b").description == "\"a\\\"b\"")
        #expect(NSExpression(forAggregate: [values, NSExpression(forConstantValue: 1)]).description == "{values, 1}")
        #expect(NSExpression(forUnionSet: values, with: NSExpression(forKeyPath: "other")).description == "values UNION other")
        #expect(
            NSExpression(
                forConditional: NSPredicate(value: true), trueExpression: values,
                falseExpression: NSExpression(forConstantValue: 0)
            ).description == "TERNARY(TRUEPREDICATE, values, 0)")
        #expect(NSExpression(forKeyPath: "in.size").description == "#in.#size")
        #expect(
            NSExpression(format: "%@", Date(timeIntervalSinceReferenceDate: 722908800)).description
                == "CAST(722908800.000000, \"NSDate\")")
    }

    // MARK: Round trip

    static let sampleDate = Date(timeIntervalSinceReferenceDate: 700_000_000)

    static var samples: [[String: Any]] {
        [
            [
                "name": "Ann", "age": 30, "flag": true, "score": 2.5, "values": [1, 2, 3], "d": sampleDate,
                "tags": Set(["a", "b"]), "children": [["name": "Al", "age": 12], ["name": "Bo", "age": 4]],
                "author": ["name": "J.K. Rowling"], "in": 1, "size": 3, "s": "a\"b\\c\n%%",
            ],
            [
                "name": "bob", "age": 5, "flag": false, "score": -1.0, "values": [10], "d": Date(timeIntervalSinceReferenceDate: 0),
                "tags": Set<String>(), "children": [[String: Any]](), "author": ["name": "x"], "in": 2, "size": 0,
            ],
            ["name": "Émile", "age": 18],
            [:],
        ]
    }

    static let roundTrips: [String] = [
        "name == 'Ann'", "name ==[cd] 'ann'", "name BEGINSWITH[c] 'a' OR name ENDSWITH 'b'",
        "name CONTAINS[d] 'mil'", "name LIKE[c] '?o*'", "name MATCHES '[A-Z].*'", "age BETWEEN {18, 40}",
        "age IN {5, 30}", "NOT age IN {5}", "flag == YES", "flag == NO AND age < 10", "score > -2.5e0",
        "ANY children.age > 10", "ALL children.age > 3", "NONE children.name == 'Bo'",
        "SUBQUERY(children, $c, $c.age > 10).@count == 1", "children.@count == 2", "values.@sum > 5",
        "values.@avg >= 2", "values.@max == 10", "sum:(values) == 6", "count:(values) == 1",
        "d > CAST(600000000, 'NSDate')", "d < now()", "age + 1 > 2 * 3", "(age - 1) * 2 ** 2 >= 100",
        "-age < -10", "age / 2 == 15", "modulus:by:(age, 7) == 2", "TERNARY(age > 18, 'a', 'b') == 'a'",
        "uppercase:(name) == 'ANN'", "FUNCTION(name, 'uppercase:', name) == 'ANN'", "#in == 1 AND #size == 3",
        "author.name == 'J.K. Rowling'", "tags CONTAINS 'a'", "'a' IN tags", "name != nil", "name == nil",
        "s == 'a\"b\\\\c\\n%%%%'", "(age > 1 OR age < 0) AND (name != 'x' OR flag == NO)",
        "NOT (age > 1 AND NOT flag == YES)", "TRUEPREDICATE", "FALSEPREDICATE OR age == 30",
        "SELF.age == 30", "values[SIZE] == 3", "{1, 2} UNION values == nil", "ANYKEY == 'Ann'",
        "name IN {'Ann', 'bob'} AND age BETWEEN {1, 100}", "lowercase:(name) BEGINSWITH 'a'",
        "abs:(score) == 2.5", "CAST('30', 'NSNumber') == age",
        "children[0].name == 'Al'", "values[LAST] == 3", "author['name'] BEGINSWITH 'J'",
    ]

    @Test("parse, print, parse again gives an equal predicate that evaluates the same", arguments: roundTrips)
    func roundTrip(format: String) throws {
        let parsed = try FormatTest.predicate(format)
        let printed = parsed.predicateFormat
        let again = try NSPredicate(validatingFormat: printed)
        #expect(again == parsed, "\(format) printed as \(printed)")
        #expect(again.predicateFormat == printed)
        for sample in Self.samples {
            #expect(again.evaluate(with: sample) == parsed.evaluate(with: sample), "\(printed) on \(sample)")
        }
    }

    @Test("predicates with arguments round-trip through their printed text")
    func argumentRoundTrip() throws {
        let uuid = UUID()
        let arguments: [(String, Any?)] = [
            ("a == %@", "Ann"), ("a == %@", 42), ("a == %@", 2.75), ("a == %@", true), ("a == %@", Self.sampleDate),
            ("a == %@", Date(timeIntervalSinceReferenceDate: 1.0 / 3.0)), ("a == %@", uuid),
            ("a == %@", URL(string: "https://example.com/x?y=1")!), ("a == %@", Data([0, 255, 7])),
            ("a IN %@", [1, 2, 3]), ("a IN %@", ["x", "y"]), ("a == %@", nil), ("a == %@", "quote\" back\\"),
            ("a == %@", "%% and %"), ("a == %@", "tab\tnewline\ncontrol\u{01}"), ("a == %@", -0.5),
            ("a == %@", Int64.max), ("a == %@", 1e-7), ("a == %@", 123456789.123),
        ]
        for (format, argument) in arguments {
            let parsed = try FormatTest.predicate(format, argument)
            let again = try NSPredicate(validatingFormat: parsed.predicateFormat)
            // A `%@` array is one constant while its printed `{…}` reads back as an aggregate, as on Apple
            // platforms: the two print and evaluate alike without being equal objects.
            if argument is [Any] {
                #expect(again.predicateFormat == parsed.predicateFormat)
            } else {
                #expect(again == parsed, "\(format) with \(String(describing: argument)) printed as \(parsed.predicateFormat)")
            }
            let sample: [String: Any] = ["a": argument ?? 0]
            #expect(again.evaluate(with: sample) == parsed.evaluate(with: sample))
        }
    }
}
