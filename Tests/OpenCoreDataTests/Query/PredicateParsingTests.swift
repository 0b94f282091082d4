import OpenCoreData
import Testing

@Suite("Parsing predicate format strings")
struct PredicateParsingTests {
    // MARK: Operators

    static let operators: [(String, NSComparisonPredicate.Operator)] = [
        ("a = 1", .equalTo), ("a == 1", .equalTo), ("a >= 1", .greaterThanOrEqualTo),
        ("a => 1", .greaterThanOrEqualTo), ("a <= 1", .lessThanOrEqualTo), ("a =< 1", .lessThanOrEqualTo),
        ("a > 1", .greaterThan), ("a < 1", .lessThan), ("a != 1", .notEqualTo), ("a <> 1", .notEqualTo),
        ("a BETWEEN {1, 2}", .between), ("a IN {1, 2}", .in), ("a CONTAINS 'x'", .contains),
        ("a BEGINSWITH 'x'", .beginsWith), ("a ENDSWITH 'x'", .endsWith), ("a LIKE 'x*'", .like),
        ("a MATCHES 'x.*'", .matches), ("a between {1, 2}", .between), ("a in {1}", .in),
        ("a contains 'x'", .contains), ("a BeginsWith 'x'", .beginsWith), ("a endswith 'x'", .endsWith),
        ("a like 'x'", .like), ("a matches 'x'", .matches),
    ]

    @Test("every comparison operator, in every spelling, gives its operator type", arguments: operators)
    func comparisonOperators(format: String, expected: NSComparisonPredicate.Operator) throws {
        let predicate = try FormatTest.comparison(format)
        #expect(predicate.predicateOperatorType == expected)
        #expect(predicate.comparisonPredicateModifier == .direct)
        #expect(predicate.leftExpression.expressionType == .keyPath)
        #expect(predicate.leftExpression.keyPath == "a")
    }

    static let optionCases: [(String, NSComparisonPredicate.Options)] = [
        ("name ==[c] 'a'", [.caseInsensitive]), ("name ==[d] 'a'", [.diacriticInsensitive]),
        ("name ==[cd] 'a'", [.caseInsensitive, .diacriticInsensitive]),
        ("name ==[dc] 'a'", [.caseInsensitive, .diacriticInsensitive]), ("name ==[n] 'a'", [.normalized]),
        ("name CONTAINS[cdn] 'a'", [.caseInsensitive, .diacriticInsensitive, .normalized]),
        ("name LIKE[C] 'a'", [.caseInsensitive]), ("name BEGINSWITH[cd] 'a'", [.caseInsensitive, .diacriticInsensitive]),
        ("name != [c] 'a'", [.caseInsensitive]), ("name MATCHES 'a'", []),
    ]

    @Test("comparison options [c], [d], [n] and their combinations", arguments: optionCases)
    func comparisonOptions(format: String, expected: NSComparisonPredicate.Options) throws {
        #expect(try FormatTest.comparison(format).options == expected)
    }

    @Test("ANY and SOME give the any modifier, ALL the all modifier")
    func modifiers() throws {
        #expect(try FormatTest.comparison("ANY children.age > 10").comparisonPredicateModifier == .any)
        #expect(try FormatTest.comparison("some children.age > 10").comparisonPredicateModifier == .any)
        let all = try FormatTest.comparison("ALL children.age > 10")
        #expect(all.comparisonPredicateModifier == .all)
        #expect(all.leftExpression.keyPath == "children.age")
    }

    @Test("NONE is NOT ANY")
    func noneModifier() throws {
        let none = try FormatTest.compound("NONE children.name == 'x'")
        #expect(none.compoundPredicateType == .not)
        let inner = try #require(FormatTest.subpredicates(none).first as? NSComparisonPredicate)
        #expect(inner.comparisonPredicateModifier == .any)
        let data: [String: Any] = ["children": [["name": "a"], ["name": "b"]]]
        #expect(none.evaluate(with: data))
        #expect(!(try FormatTest.predicate("NONE children.name == 'a'").evaluate(with: data)))
    }

    // MARK: Compound predicates

    @Test("NOT binds tighter than AND, which binds tighter than OR")
    func precedence() throws {
        let or = try FormatTest.compound("a == 1 OR b == 2 AND c == 3")
        #expect(or.compoundPredicateType == .or)
        let orParts = FormatTest.subpredicates(or)
        #expect(orParts.count == 2)
        #expect((orParts[1] as? NSCompoundPredicate)?.compoundPredicateType == .and)

        let and = try FormatTest.compound("NOT a == 1 AND b == 2")
        #expect(and.compoundPredicateType == .and)
        #expect((FormatTest.subpredicates(and)[0] as? NSCompoundPredicate)?.compoundPredicateType == .not)

        let grouped = try FormatTest.compound("(a == 1 OR b == 2) AND c == 3")
        #expect(grouped.compoundPredicateType == .and)
        #expect((FormatTest.subpredicates(grouped)[0] as? NSCompoundPredicate)?.compoundPredicateType == .or)
    }

    @Test("&&, || and ! are AND, OR and NOT; chains of one operator are flattened")
    func symbolicLogicalOperators() throws {
        let and = try FormatTest.compound("a == 1 && b == 2 && c == 3")
        #expect(and.compoundPredicateType == .and)
        #expect(and.subpredicates.count == 3)
        let or = try FormatTest.compound("a == 1 || b == 2 or c == 3")
        #expect(or.compoundPredicateType == .or)
        #expect(or.subpredicates.count == 3)
        let not = try FormatTest.compound("!(a == 1)")
        #expect(not.compoundPredicateType == .not)
        let nested = try FormatTest.compound("(a == 1 AND b == 2) AND c == 3")
        #expect(nested.subpredicates.count == 2)
        let doubleNot = try FormatTest.compound("not not a == 1")
        #expect((FormatTest.subpredicates(doubleNot)[0] as? NSCompoundPredicate)?.compoundPredicateType == .not)
    }

    @Test("TRUEPREDICATE and FALSEPREDICATE are constant predicates")
    func constantPredicates() throws {
        #expect(try FormatTest.predicate("TRUEPREDICATE").evaluate(with: nil))
        #expect(!(try FormatTest.predicate("falsepredicate").evaluate(with: nil)))
        #expect(try FormatTest.predicate("TRUEPREDICATE").predicateFormat == "TRUEPREDICATE")
        #expect(try FormatTest.predicate("TRUEPREDICATE AND a == 1").evaluate(with: ["a": 1]))
    }

    // MARK: Literals

    @Test("string literals: single and double quotes, escapes, and %% inside quotes")
    func stringLiterals() throws {
        let cases: [(String, String)] = [
            ("'Ann'", "Ann"), ("\"Ann\"", "Ann"), ("'a\\'b'", "a'b"), ("\"a\\\"b\"", "a\"b"),
            ("'tab\\there'", "tab\there"), ("'line\\nbreak'", "line\nbreak"), ("'back\\\\slash'", "back\\slash"),
            ("'\\u0041\\u00e9'", "Aé"), ("'\\u{1F600}'", "😀"), ("'100%%'", "100%"), ("'50%'", "50%"),
            ("'%@ stays'", "%@ stays"), ("'\\d+'", "\\d+"), ("'中文'", "中文"), ("''", ""),
        ]
        for (literal, value) in cases {
            let predicate = try FormatTest.comparison("name == \(literal)")
            #expect(predicate.rightExpression.constantValue as? String == value, "\(literal)")
        }
    }

    @Test("integer literals in decimal, hexadecimal, octal and binary")
    func integerLiterals() throws {
        let cases: [(String, Int)] = [
            ("42", 42), ("0x2A", 42), ("0X2a", 42), ("0o52", 42), ("0b101010", 42),
            ("-7", -7), ("0", 0), ("9223372036854775807", Int.max),
        ]
        for (literal, value) in cases {
            let predicate = try FormatTest.comparison("n == \(literal)")
            #expect(predicate.rightExpression.constantValue as? Int == value, "\(literal)")
        }
    }

    @Test("floating-point literals with fractions and exponents")
    func floatLiterals() throws {
        let cases: [(String, Double)] = [
            ("1.5", 1.5), ("1e3", 1000), ("1.5E-2", 0.015), ("2.5e+1", 25),
            (".5", 0.5), ("-0.25", -0.25), ("18446744073709551616", 18446744073709551616),
        ]
        for (literal, value) in cases {
            let predicate = try FormatTest.comparison("n == \(literal)")
            #expect(predicate.rightExpression.constantValue as? Double == value, "\(literal)")
        }
    }

    @Test("YES, NO, TRUE, FALSE, nil and NULL, in any case")
    func keywordLiterals() throws {
        for word in ["YES", "yes", "TRUE", "true"] {
            #expect(try FormatTest.comparison("flag == \(word)").rightExpression.constantValue as? Bool == true)
        }
        for word in ["NO", "no", "FALSE", "False"] {
            #expect(try FormatTest.comparison("flag == \(word)").rightExpression.constantValue as? Bool == false)
        }
        for word in ["nil", "NIL", "NULL", "null"] {
            let right = try FormatTest.comparison("a == \(word)").rightExpression
            #expect(right.expressionType == .constantValue)
            #expect(right.constantValue == nil)
        }
    }

    @Test("{…} is an aggregate of one expression per element, as on Apple platforms, even of constants")
    func aggregates() throws {
        let literal = try FormatTest.comparison("a IN {1, 'two', 3.5, nil}").rightExpression
        #expect(literal.expressionType == .aggregate)
        let elements = try #require(literal.collection as? [NSExpression])
        #expect(elements.count == 4)
        #expect(elements.allSatisfy { $0.expressionType == .constantValue })
        #expect(elements[0].constantValue as? Int == 1 && elements[1].constantValue as? String == "two")
        #expect(elements[2].constantValue as? Double == 3.5 && elements[3].constantValue == nil)
        let empty = try FormatTest.comparison("a IN {}").rightExpression
        #expect(empty.expressionType == .aggregate)
        #expect((empty.collection as? [NSExpression])?.isEmpty == true)
        let argument = try FormatTest.comparison("a IN %@", [1, 2]).rightExpression
        #expect(argument.expressionType == .constantValue)
        let aggregate = try FormatTest.comparison("a IN {b, 2, $x}").rightExpression
        #expect(aggregate.expressionType == .aggregate)
        #expect((aggregate.collection as? [NSExpression])?.count == 3)
        let between = try FormatTest.comparison("a BETWEEN {1, 5}")
        #expect(between.evaluate(with: ["a": 3]))
        #expect(!between.evaluate(with: ["a": 6]))
    }

    // MARK: Format arguments

    @Test("%@ takes objects as constants: strings, numbers, dates, data, UUIDs, URLs, collections, nil")
    func objectArguments() throws {
        let date = Date(timeIntervalSinceReferenceDate: 12345)
        let uuid = UUID()
        let url = URL(string: "https://example.com/a")!
        let data = Data([1, 2, 3])
        let values: [Any?] = [
            "Ann", 42, 2.5, true, date, data, uuid, url, [1, 2], Set(["x"]), ["k": 1],
            NSNumber(value: 7), Int64(9), nil,
        ]
        for value in values {
            let right = try FormatTest.comparison("a == %@", value).rightExpression
            #expect(right.expressionType == .constantValue)
        }
        #expect(try FormatTest.comparison("a == %@", "Ann").rightExpression.constantValue as? String == "Ann")
        #expect(try FormatTest.comparison("a == %@", date).rightExpression.constantValue as? Date == date)
        #expect(try FormatTest.comparison("a == %@", uuid).rightExpression.constantValue as? UUID == uuid)
        #expect(try FormatTest.comparison("a IN %@", ["x", "y"]).rightExpression.constantValue as? [String] == ["x", "y"])
        #expect(try FormatTest.comparison("a == %@", nil).rightExpression.constantValue == nil)
        let optional: String? = nil
        #expect(try FormatTest.comparison("a == %@", optional).rightExpression.constantValue == nil)
        let object = FormatTestObject(["name": "x"])
        #expect(try FormatTest.comparison("a == %@", object).rightExpression.constantValue as? FormatTestObject === object)
    }

    @Test("%@ with a string is a constant, never a key path; %K is a key path")
    func keyPathArguments() throws {
        let constant = try FormatTest.comparison("%K == %@", "author.name", "name")
        #expect(constant.leftExpression.expressionType == .keyPath)
        #expect(constant.leftExpression.keyPath == "author.name")
        #expect(constant.rightExpression.expressionType == .constantValue)
        #expect(constant.evaluate(with: ["author": ["name": "name"]]))
        let continued = try FormatTest.comparison("author.%K == 1", "age")
        #expect(continued.leftExpression.keyPath == "author.age")
    }

    @Test("integer, floating-point and C-string specifiers")
    func printfSpecifiers() throws {
        for spec in ["%d", "%i", "%ld", "%lld", "%lu", "%u", "%hd", "%qd", "%x"] {
            let right = try FormatTest.comparison("a == \(spec)", 20).rightExpression
            #expect(right.constantValue as? Int == 20, "\(spec)")
        }
        for spec in ["%f", "%lf", "%e", "%g"] {
            let right = try FormatTest.comparison("a == \(spec)", 2.5).rightExpression
            #expect(right.constantValue as? Double == 2.5, "\(spec)")
        }
        #expect(try FormatTest.comparison("a == %f", 3).rightExpression.constantValue as? Double == 3)
        #expect(try FormatTest.comparison("a == %s", "text").rightExpression.constantValue as? String == "text")
        #expect(try FormatTest.comparison("a == %c", "x").rightExpression.constantValue as? String == "x")
    }

    @Test("positional specifiers %1$@ pick arguments by position")
    func positionalArguments() throws {
        let predicate = try FormatTest.compound("a == %2$@ AND b == %1$@ AND c == %2$@", "one", "two")
        let parts = FormatTest.subpredicates(predicate).compactMap { $0 as? NSComparisonPredicate }
        #expect(parts.map { $0.rightExpression.constantValue as? String } == ["two", "one", "two"])
        #expect(try FormatTest.comparison("%1$K == %2$d", "age", 3).leftExpression.keyPath == "age")
    }

    @Test("an NSExpression passed for %@ is inserted as itself")
    func expressionArgument() throws {
        let predicate = try FormatTest.comparison("a == %@", NSExpression(forKeyPath: "b"))
        #expect(predicate.rightExpression.expressionType == .keyPath)
        #expect(predicate.rightExpression.keyPath == "b")
    }

    // MARK: Expressions

    @Test("SELF, $VARIABLE, key paths and collection operators")
    func basicExpressions() throws {
        #expect(try FormatTest.comparison("SELF == 1").leftExpression.expressionType == .evaluatedObject)
        #expect(try FormatTest.comparison("self == 1").leftExpression.expressionType == .evaluatedObject)
        let variable = try FormatTest.comparison("a == $LIMIT").rightExpression
        #expect(variable.expressionType == .variable)
        #expect(variable.variable == "LIMIT")
        #expect(try FormatTest.comparison("a.b.c == 1").leftExpression.keyPath == "a.b.c")
        #expect(try FormatTest.comparison("SELF.name == 1").leftExpression.keyPath == "name")
        #expect(try FormatTest.comparison("posts.@count > 5").leftExpression.keyPath == "posts.@count")
        #expect(try FormatTest.comparison("items.@sum.price > 5").leftExpression.keyPath == "items.@sum.price")
        #expect(try FormatTest.comparison("@avg.age > 5").leftExpression.keyPath == "@avg.age")
        for op in [
            "@min", "@max", "@distinctUnionOfObjects", "@unionOfObjects", "@distinctUnionOfArrays",
            "@unionOfArrays", "@distinctUnionOfSets", "@unionOfSets",
        ] {
            #expect(try FormatTest.comparison("kids.\(op).age == 1").leftExpression.keyPath == "kids.\(op).age")
        }
        let variablePath = try FormatTest.comparison("$source.height < 100").leftExpression
        #expect(variablePath.expressionType == .keyPath)
        #expect(variablePath.keyPath == "height")
        #expect(variablePath.operand.expressionType == .variable)
        #expect(try FormatTest.comparison("ANYKEY == 'x'").leftExpression.expressionType == .anyKey)
    }

    @Test("reserved words are case-insensitive and become keys with #")
    func escapedReservedWords() throws {
        #expect(try FormatTest.comparison("#IN == 1").leftExpression.keyPath == "IN")
        #expect(try FormatTest.comparison("#SELF == 1").leftExpression.keyPath == "SELF")
        #expect(try FormatTest.comparison("#and.#or == 1").leftExpression.keyPath == "and.or")
        #expect(try FormatTest.comparison("a.in == 1").leftExpression.keyPath == "a.in")
        #expect(try FormatTest.predicate("#size == 3").evaluate(with: ["size": 3]))
    }

    @Test("arithmetic: + - * / ** with precedence, right-associative **, unary minus")
    func arithmetic() throws {
        let cases: [(String, Double)] = [
            ("2 + 3 * 4", 14), ("(2 + 3) * 4", 20), ("10 - 4 - 3", 3), ("100 / 10 / 5", 2), ("2 ** 3 ** 2", 512),
            ("-2 ** 2", -4), ("2 ** -1", 0.5), ("-a + 10", 7), ("- - 3", 3), ("2 * -a", -6), ("a * a - 1", 8),
        ]
        for (text, value) in cases {
            let expression = try FormatTest.expression(text)
            let result = expression.expressionValue(with: ["a": 3], context: nil)
            let number = (result as? Double) ?? (result as? Int).map(Double.init)
            #expect(number == value, "\(text) gave \(String(describing: result))")
        }
        let sum = try FormatTest.expression("a + 1")
        #expect(sum.expressionType == .function)
        #expect(sum.function == "add:to:")
        #expect(try FormatTest.expression("a - 1").function == "from:subtract:")
        #expect(try FormatTest.expression("a * 1").function == "multiply:by:")
        #expect(try FormatTest.expression("a / 1").function == "divide:by:")
        #expect(try FormatTest.expression("a ** 2").function == "raise:toPower:")
        #expect(try FormatTest.expression("-5").constantValue as? Int == -5)
        #expect(try FormatTest.predicate("age + 1 > 3 * 2").evaluate(with: ["age": 6]))
    }

    static let functionCallCases: [(String, String, Int)] = [
        ("sum:(values)", "sum:", 1), ("sum(values)", "sum:", 1), ("count:(values)", "count:", 1),
        ("min:(values)", "min:", 1), ("max:(values)", "max:", 1), ("average:(values)", "average:", 1),
        ("median:(values)", "median:", 1), ("mode:(values)", "mode:", 1), ("stddev:(values)", "stddev:", 1),
        ("add:to:(1, 2)", "add:to:", 2), ("from:subtract:(1, 2)", "from:subtract:", 2),
        ("multiply:by:(1, 2)", "multiply:by:", 2), ("divide:by:(1, 2)", "divide:by:", 2),
        ("modulus:by:(7, 2)", "modulus:by:", 2), ("sqrt:(4)", "sqrt:", 1), ("log:(100)", "log:", 1),
        ("ln:(1)", "ln:", 1), ("raise:toPower:(2, 3)", "raise:toPower:", 2), ("exp:(0)", "exp:", 1),
        ("ceiling:(1.2)", "ceiling:", 1), ("abs:(-1)", "abs:", 1), ("trunc:(1.7)", "trunc:", 1),
        ("floor:(1.7)", "floor:", 1), ("uppercase:('a')", "uppercase:", 1), ("lowercase:('A')", "lowercase:", 1),
        ("random()", "random", 0), ("randomn:(10)", "randomn:", 1), ("now()", "now", 0),
        ("bitwiseAnd:with:(6, 3)", "bitwiseAnd:with:", 2), ("bitwiseOr:with:(6, 3)", "bitwiseOr:with:", 2),
        ("bitwiseXor:with:(6, 3)", "bitwiseXor:with:", 2), ("leftshift:by:(1, 3)", "leftshift:by:", 2),
        ("rightshift:by:(8, 3)", "rightshift:by:", 2), ("onesComplement:(0)", "onesComplement:", 1),
        ("noindex:(a)", "noindex:", 1), ("distinct:(values)", "distinct:", 1),
        ("castObject:toType:(a, 'NSString')", "castObject:toType:", 2), ("sum:(1, 2, 3)", "sum:", 3),
    ]

    @Test("Apple's function call syntax names every built-in function", arguments: functionCallCases)
    func functionCalls(text: String, name: String, argumentCount: Int) throws {
        let expression = try FormatTest.expression(text)
        #expect(expression.expressionType == .function)
        #expect(expression.function == name)
        #expect(expression.arguments?.count == argumentCount)
    }

    @Test("functions evaluate through the parsed text")
    func functionResults() throws {
        let data: [String: Any] = ["values": [1, 2, 3, 6]]
        #expect(try FormatTest.predicate("sum:(values) == 12").evaluate(with: data))
        #expect(try FormatTest.predicate("average:(values) == 3").evaluate(with: data))
        #expect(try FormatTest.predicate("max:(values) == 6 AND min:(values) == 1").evaluate(with: data))
        #expect(try FormatTest.predicate("modulus:by:(7, 4) == 3").evaluate(with: nil))
        #expect(try FormatTest.predicate("uppercase:('abc') == 'ABC'").evaluate(with: nil))
        #expect(try FormatTest.predicate("now() > %@", Date(timeIntervalSinceReferenceDate: 0)).evaluate(with: nil))
    }

    @Test("FUNCTION(receiver, 'selector:', args) is a method call on the receiver")
    func methodCall() throws {
        let expression = try FormatTest.expression("FUNCTION(SELF, 'uppercase:', name)")
        #expect(expression.expressionType == .function)
        #expect(expression.function == "uppercase:")
        #expect(expression.operand.expressionType == .evaluatedObject)
        #expect(expression.arguments?.count == 1)
        let selector = try FormatTest.expression("FUNCTION(name, %@)", "lowercaseString")
        #expect(selector.function == "lowercaseString")
        #expect(selector.arguments?.isEmpty == true)
    }

    @Test("CAST of a number to NSDate is a date constant; other casts are castObject:toType:")
    func casts() throws {
        let date = try FormatTest.expression("CAST(722908800.000000, \"NSDate\")")
        #expect(date.expressionType == .constantValue)
        #expect(date.constantValue as? Date == Date(timeIntervalSinceReferenceDate: 722908800))
        #expect(
            try FormatTest.expression("CAST(-10, 'NSDate')").constantValue as? Date
                == Date(timeIntervalSinceReferenceDate: -10))
        let uuid = UUID()
        #expect(try FormatTest.expression("CAST('\(uuid.uuidString)', 'NSUUID')").constantValue as? UUID == uuid)
        let runtime = try FormatTest.expression("CAST(seconds, 'NSDate')")
        #expect(runtime.expressionType == .function)
        #expect(runtime.function == "castObject:toType:")
        let number = try FormatTest.expression("CAST('42', 'NSNumber')")
        #expect(number.function == "castObject:toType:")
        #expect(number.expressionValue(with: nil, context: nil) as? Int == 42)
        #expect(
            try FormatTest.predicate("CAST(seconds, 'NSDate') > %@", Date(timeIntervalSinceReferenceDate: 5))
                .evaluate(with: ["seconds": 10]))
    }

    @Test("TERNARY(predicate, a, b) is a conditional expression")
    func ternary() throws {
        let expression = try FormatTest.expression("TERNARY(age >= 18, 'adult', 'minor')")
        #expect(expression.expressionType == .conditional)
        #expect(expression.predicate is NSComparisonPredicate)
        #expect(expression.expressionValue(with: ["age": 20], context: nil) as? String == "adult")
        #expect(expression.expressionValue(with: ["age": 2], context: nil) as? String == "minor")
    }

    @Test("SUBQUERY(collection, $x, predicate) with a key path on its result")
    func subquery() throws {
        let predicate = try FormatTest.comparison("SUBQUERY(children, $c, $c.age > 10 AND $c.name BEGINSWITH 'A').@count == 1")
        let left = predicate.leftExpression
        #expect(left.expressionType == .keyPath)
        #expect(left.keyPath == "@count")
        let subquery = left.operand
        #expect(subquery.expressionType == .subquery)
        #expect(subquery.variable == "c")
        #expect((subquery.collection as? NSExpression)?.keyPath == "children")
        #expect(subquery.predicate is NSCompoundPredicate)
        let data: [String: Any] = ["children": [["age": 12, "name": "Ann"], ["age": 14, "name": "Bob"], ["age": 3, "name": "Al"]]]
        #expect(predicate.evaluate(with: data))
    }

    @Test("UNION, INTERSECT and MINUS build set expressions")
    func setExpressions() throws {
        #expect(try FormatTest.expression("a UNION b").expressionType == .unionSet)
        #expect(try FormatTest.expression("a INTERSECT b").expressionType == .intersectSet)
        #expect(try FormatTest.expression("a minus b").expressionType == .minusSet)
        let left = try FormatTest.expression("{1, 2} UNION {2, 3} MINUS {1}")
        #expect(left.expressionType == .minusSet)
        #expect(left.leftExpression.expressionType == .unionSet)
    }

    @Test("[index], [FIRST], [LAST] and [key] subscripts read elements and dictionary values")
    func indexSubscripts() throws {
        let data: [String: Any] = ["children": ["a", "b", "c"], "map": ["k": 5]]
        let index = try FormatTest.expression("children[1]")
        #expect(index.function == "objectFrom:withIndex:")
        #expect(index.arguments?.count == 2)
        #expect(index.expressionValue(with: data, context: nil) as? String == "b")
        #expect(try FormatTest.expression("children[FIRST]").expressionValue(with: data, context: nil) as? String == "a")
        #expect(try FormatTest.expression("children[last]").expressionValue(with: data, context: nil) as? String == "c")
        #expect(try FormatTest.expression("children[%d]", 2).expressionValue(with: data, context: nil) as? String == "c")
        #expect(try FormatTest.predicate("map['k'] == 5").evaluate(with: data))
        #expect(try FormatTest.predicate("children[7] == nil").evaluate(with: data))
        #expect(try FormatTest.expression("children[0].length").expressionType == .keyPath)
    }

    @Test("[SIZE] is the count of a collection")
    func sizeSubscript() throws {
        let expression = try FormatTest.expression("children[SIZE]")
        #expect(expression.function == "count:")
        #expect(try FormatTest.predicate("children[SIZE] == 2").evaluate(with: ["children": [1, 2]]))
    }

    @Test("NSExpression(format:) parses expressions such as posts.@count and @sum.height")
    func expressionFormat() throws {
        #expect(try FormatTest.expression("posts.@count").keyPath == "posts.@count")
        #expect(try FormatTest.expression("@sum.height").keyPath == "@sum.height")
        #expect(try FormatTest.expression("%K", "name").keyPath == "name")
        #expect(try FormatTest.expression("%@", 5).constantValue as? Int == 5)
        #expect(NSExpression(format: "posts.@count").keyPath == "posts.@count")
    }

    @Test("parenthesized expressions on either side of a comparison")
    func parenthesizedExpressions() throws {
        #expect(try FormatTest.predicate("(a) == 1").evaluate(with: ["a": 1]))
        #expect(try FormatTest.predicate("((a + 1)) * 2 == (6)").evaluate(with: ["a": 2]))
        #expect(try FormatTest.predicate("((a == 1))").evaluate(with: ["a": 1]))
        #expect(try FormatTest.predicate("(a + 1).description == nil").evaluate(with: ["a": 1]) == true)
    }

    @Test("predicate and derivation strings found in the fixture model files parse and print back")
    func modelFileStrings() throws {
        let predicates = [
            "humanName == $humanName", "uuid == $UUID", "true == true", "parent.parentName == $parentName",
            "parent == $parent", "oneToOne.name == $NAME OR string == $NEEDLE",
            "booleanAttribute == 1 AND floatAttribute > 5", "booleanAttribute = YES",
        ]
        for text in predicates {
            let predicate = try FormatTest.predicate(text)
            #expect(try FormatTest.reparsed(predicate) == predicate, "\(text)")
        }
        #expect(try FormatTest.predicate("true == true").evaluate(with: nil))
        #expect(
            try FormatTest.predicate("oneToOne.name == $NAME OR string == $NEEDLE")
                .evaluate(with: ["string": "x"], substitutionVariables: ["NAME": "n", "NEEDLE": "x"]))
        for text in ["canonical:(optionalString)", "now()", "oneToMany.@count", "photos.@count"] {
            let expression = try FormatTest.expression(text)
            #expect(expression.description == text)
        }
        let canonical = try FormatTest.expression("canonical:(optionalString)")
        #expect(canonical.function == "canonical:")
        #expect(
            canonical.expressionValue(with: ["optionalString": "Crème BRÛLÉE"], context: nil) as? String
                == "creme brulee")
    }

    @Test("NSPredicate(format:) returns the subclass the text describes")
    func classCluster() {
        #expect(NSPredicate(format: "a == 1") is NSComparisonPredicate)
        #expect(NSPredicate(format: "a == 1 AND b == %@", 2) is NSCompoundPredicate)
        #expect(NSPredicate(format: "name CONTAINS[cd] %@", "Harry").evaluate(with: ["name": "harry potter"]))
    }
}
