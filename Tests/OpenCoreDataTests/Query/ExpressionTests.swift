import OpenCoreData
import Testing

@Suite("Expressions")
struct ExpressionTests {
    private func value(_ expression: NSExpression, _ object: Any? = nil) -> Any? {
        expression.expressionValue(with: object, context: nil)
    }

    private func function(_ name: String, _ arguments: Any?...) -> Any? {
        value(NSExpression(forFunction: name, arguments: arguments.map { NSExpression(forConstantValue: $0) }))
    }

    private func number(_ value: Any?) -> Double? {
        switch value {
        case let v as Int: return Double(v)
        case let v as Double: return v
        case let v as Decimal: return NSDecimalNumber(decimal: v).doubleValue
        default: return nil
        }
    }

    @Test("every constructor gives its expression type and accessors")
    func constructors() {
        let constant = NSExpression(forConstantValue: 42)
        #expect(constant.expressionType == .constantValue)
        #expect(constant.constantValue as? Int == 42)
        #expect(NSExpression.expressionForEvaluatedObject().expressionType == .evaluatedObject)
        let variable = NSExpression(forVariable: "limit")
        #expect(variable.expressionType == .variable && variable.variable == "limit")
        let keyPath = NSExpression(forKeyPath: "author.name")
        #expect(keyPath.expressionType == .keyPath && keyPath.keyPath == "author.name")
        #expect(keyPath.operand.expressionType == .evaluatedObject)
        let sum = NSExpression(forFunction: "sum:", arguments: [NSExpression(forKeyPath: "values")])
        #expect(sum.expressionType == .function && sum.function == "sum:" && sum.arguments?.count == 1)
        let method = NSExpression(
            forFunction: NSExpression(forKeyPath: "name"), selectorName: "uppercaseString",
            arguments: nil)
        #expect(method.expressionType == .function && method.function == "uppercaseString")
        #expect(method.operand.keyPath == "name")
        let aggregate = NSExpression(forAggregate: [constant, keyPath])
        #expect(aggregate.expressionType == .aggregate && (aggregate.collection as? [NSExpression])?.count == 2)
        let union = NSExpression(forUnionSet: constant, with: keyPath)
        #expect(union.expressionType == .unionSet && union.leftExpression === constant && union.rightExpression === keyPath)
        #expect(NSExpression(forIntersectSet: constant, with: keyPath).expressionType == .intersectSet)
        #expect(NSExpression(forMinusSet: constant, with: keyPath).expressionType == .minusSet)
        let predicate = NSPredicate(value: true)
        let subquery = NSExpression(forSubquery: keyPath, usingIteratorVariable: "x", predicate: predicate)
        #expect(subquery.expressionType == .subquery && subquery.variable == "x")
        #expect(subquery.predicate === predicate && (subquery.collection as? NSExpression) === keyPath)
        #expect(NSExpression.expressionForAnyKey().expressionType == .anyKey)
        let block = NSExpression(block: { _, _, _ in 1 }, arguments: [constant])
        #expect(block.expressionType == .block && block.arguments?.count == 1)
        #expect(block.expressionBlock(nil, [], nil) as? Int == 1)
        let conditional = NSExpression(forConditional: predicate, trueExpression: constant, falseExpression: keyPath)
        #expect(conditional.expressionType == .conditional && conditional.trueExpression === constant)
        #expect(conditional.falseExpression === keyPath && conditional.predicate === predicate)
    }

    @Test("expression types have Apple's raw values")
    func rawValues() {
        let pairs: [(NSExpression.ExpressionType, UInt)] = [
            (.constantValue, 0), (.evaluatedObject, 1), (.variable, 2), (.keyPath, 3), (.function, 4),
            (.unionSet, 5), (.intersectSet, 6), (.minusSet, 7), (.subquery, 13), (.aggregate, 14),
            (.anyKey, 15), (.block, 19), (.conditional, 20),
        ]
        for (type, raw) in pairs { #expect(type.rawValue == raw) }
    }

    @Test("constants, SELF and key paths evaluate against the object")
    func basicEvaluation() {
        #expect(value(NSExpression(forConstantValue: "x")) as? String == "x")
        #expect(value(NSExpression(forConstantValue: nil)) == nil)
        #expect(value(NSExpression.expressionForEvaluatedObject(), 7) as? Int == 7)
        let person = QueryPerson(name: "Ann", age: 3, boss: QueryPerson(name: "Boss", age: 50))
        #expect(value(NSExpression(forKeyPath: "boss.name"), person) as? String == "Boss")
        #expect(value(NSExpression(forKeyPath: "boss.boss.name"), person) == nil)
    }

    @Test("statistics functions take a collection or a list of values")
    func statistics() {
        #expect(function("sum:", [1, 2, 3]) as? Int == 6)
        #expect(number(function("sum:", [1, 2.5])) == 3.5)
        #expect(function("count:", [1, 2, 3]) as? Int == 3)
        #expect(function("min:", [4, 2, 9]) as? Int == 2)
        #expect(function("max:", [4, 2, 9]) as? Int == 9)
        #expect(function("average:", [1, 2, 3, 4]) as? Double == 2.5)
        #expect(number(function("median:", [5, 1, 3])) == 3)
        #expect(number(function("median:", [4, 1, 3, 2])) == 2.5)
        #expect((function("mode:", [1, 2, 2, 3]) as? [Any])?.compactMap { $0 as? Int } == [2])
        #expect(function("stddev:", [2, 4, 4, 4, 5, 5, 7, 9]) as? Double == 2)
        #expect(function("sum:", 1, 2, 3) as? Int == 6)
        #expect(function("average:", [Int]()) == nil)
        #expect(function("sum:", [Int.max, 1]) as? Double != nil)
    }

    @Test("arithmetic keeps integers, divides as doubles and never overflows")
    func arithmetic() {
        #expect(function("add:to:", 2, 3) as? Int == 5)
        #expect(function("from:subtract:", 2, 3) as? Int == -1)
        #expect(function("multiply:by:", 4, 2.5) as? Double == 10)
        #expect(function("divide:by:", 7, 2) as? Double == 3.5)
        #expect(function("modulus:by:", 7, 3) as? Int == 1)
        #expect(function("modulus:by:", 7, 0) == nil)
        #expect(function("add:to:", Int.max, 1) as? Double == Double(Int.max) + 1)
        #expect(function("multiply:by:", Int.max, Int.max) as? Double != nil)
        #expect(function("add:to:", "a", 1) == nil)
        #expect(number(function("add:to:", Decimal(string: "0.1") as Any, Decimal(string: "0.2") as Any)) == 0.3)
        let start = Date(timeIntervalSinceReferenceDate: 100)
        #expect(function("add:to:", start, 50) as? Date == Date(timeIntervalSinceReferenceDate: 150))
        #expect(function("from:subtract:", start, 50) as? Date == Date(timeIntervalSinceReferenceDate: 50))
        #expect(function("from:subtract:", start, Date(timeIntervalSinceReferenceDate: 40)) as? Double == 60)
    }

    @Test("math, rounding and string functions")
    func mathAndStrings() {
        #expect(function("sqrt:", 16) as? Double == 4)
        #expect(function("log:", 1000) as? Double == 3)
        #expect(function("ln:", 1) as? Double == 0)
        #expect(function("exp:", 0) as? Double == 1)
        #expect(function("raise:toPower:", 2, 10) as? Double == 1024)
        #expect(function("ceiling:", 1.2) as? Double == 2)
        #expect(function("floor:", -1.2) as? Double == -2)
        #expect(function("trunc:", -1.7) as? Double == -1)
        #expect(function("abs:", -5) as? Int == 5)
        #expect(function("abs:", -2.5) as? Double == 2.5)
        #expect(function("uppercase:", "straße") as? String == "STRASSE")
        #expect(function("lowercase:", "ÀB") as? String == "àb")
        #expect(function("uppercase:", 3) == nil)
        #expect(function("canonical:", "Crème BRÛLÉE") as? String == "creme brulee")
    }

    @Test("bitwise functions")
    func bitwise() {
        #expect(function("bitwiseAnd:with:", 0b1100, 0b1010) as? Int == 0b1000)
        #expect(function("bitwiseOr:with:", 0b1100, 0b1010) as? Int == 0b1110)
        #expect(function("bitwiseXor:with:", 0b1100, 0b1010) as? Int == 0b0110)
        #expect(function("leftshift:by:", 1, 4) as? Int == 16)
        #expect(function("rightshift:by:", 16, 2) as? Int == 4)
        #expect(function("leftshift:by:", 1, 200) as? Int == 0)
        #expect(function("onesComplement:", 0) as? Int == -1)
    }

    @Test("random, now, noindex, distinct and casts")
    func miscellaneous() {
        for _ in 0..<20 {
            let r = function("random") as? Double
            #expect(r.map { $0 >= 0 && $0 < 1 } == true)
            let n = function("randomn:", 5) as? Int
            #expect(n.map { (0..<5).contains($0) } == true)
        }
        #expect(function("randomn:", 0) == nil)
        #expect(function("now") is Date)
        #expect(function("noindex:", "x") as? String == "x")
        #expect((function("distinct:", [1, 2, 1, 3, 2]) as? [Any])?.compactMap { $0 as? Int } == [1, 2, 3])
        #expect(function("castObject:toType:", 0, "NSDate") as? Date == Date(timeIntervalSinceReferenceDate: 0))
        #expect(function("castObject:toType:", "42", "NSNumber") as? Int == 42)
        #expect(function("castObject:toType:", 42, "NSString") as? String == "42")
        #expect(function("castObject:toType:", Date(timeIntervalSinceReferenceDate: 9), "NSNumber") as? Double == 9)
        #expect(function("castObject:toType:", "nope", "NSDate") == nil)
    }

    @Test("aggregates evaluate to arrays and set expressions combine collections")
    func aggregatesAndSets() {
        let aggregate = NSExpression(forAggregate: [NSExpression(forConstantValue: 1), NSExpression(forKeyPath: "age")])
        let values = value(aggregate, ["age": 5]) as? [Any]
        #expect(values?.compactMap { $0 as? Int } == [1, 5])
        let a = NSExpression(forConstantValue: [1, 2, 3]), b = NSExpression(forConstantValue: [3, 4])
        let union = value(NSExpression(forUnionSet: a, with: b)) as? [Any]
        #expect(Set(union?.compactMap { $0 as? Int } ?? []) == [1, 2, 3, 4])
        let intersection = value(NSExpression(forIntersectSet: a, with: b)) as? [Any]
        #expect(intersection?.compactMap { $0 as? Int } == [3])
        let minus = value(NSExpression(forMinusSet: a, with: b)) as? [Any]
        #expect(minus?.compactMap { $0 as? Int } == [1, 2])
        #expect(value(NSExpression(forUnionSet: NSExpression(forConstantValue: 1), with: b)) == nil)
    }

    @Test("conditional and block expressions")
    func conditionalAndBlock() {
        let adult = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "age"),
            rightExpression: NSExpression(forConstantValue: 18),
            modifier: .direct, type: .greaterThanOrEqualTo)
        let label = NSExpression(
            forConditional: adult, trueExpression: NSExpression(forConstantValue: "adult"),
            falseExpression: NSExpression(forConstantValue: "minor"))
        #expect(value(label, ["age": 30]) as? String == "adult")
        #expect(value(label, ["age": 3]) as? String == "minor")
        let block = NSExpression(
            block: { object, arguments, _ in
                ((object as? [String: Int])?["age"] ?? 0) + ((arguments.first as? Int) ?? 0)
            }, arguments: [NSExpression(forConstantValue: 10)])
        #expect(value(block, ["age": 5]) as? Int == 15)
    }

    @Test("variables come from the context or from substitution")
    func variables() {
        let variable = NSExpression(forVariable: "limit")
        let context = NSMutableDictionary()
        context["limit"] = 7
        #expect(variable.expressionValue(with: nil, context: context) as? Int == 7)
        #expect(variable.expressionValue(with: nil, context: nil) == nil)
        let predicate = NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "age"),
            rightExpression: variable, modifier: .direct, type: .lessThan)
        #expect(predicate.evaluate(with: ["age": 3], substitutionVariables: ["limit": 5]))
        #expect(!predicate.evaluate(with: ["age": 6], substitutionVariables: ["limit": 5]))
        let bound = predicate.withSubstitutionVariables(["limit": 10])
        #expect(bound.rightExpression.expressionType == .constantValue)
        #expect(bound.rightExpression.constantValue as? Int == 10)
        #expect(bound.evaluate(with: ["age": 6]))
        #expect(predicate.rightExpression.expressionType == .variable)
    }

    @Test("substitution leaves SUBQUERY iteration variables alone")
    func substitutionRespectsSubqueryVariables() {
        let inner = NSComparisonPredicate(
            leftExpression: NSExpression(
                forFunction: NSExpression(forVariable: "x"), selectorName: "valueForKey:",
                arguments: [NSExpression(forConstantValue: "age")]),
            rightExpression: NSExpression(forVariable: "min"), modifier: .direct, type: .greaterThan)
        let subquery = NSExpression(
            forSubquery: NSExpression(forKeyPath: "friends"), usingIteratorVariable: "x",
            predicate: inner)
        let count = NSComparisonPredicate(
            leftExpression: NSExpression(forFunction: "count:", arguments: [subquery]),
            rightExpression: NSExpression(forConstantValue: 1),
            modifier: .direct, type: .equalTo)
        let substituted = count.withSubstitutionVariables(["x": 999, "min": 10])
        let newInner = (substituted.leftExpression.arguments?.first?.predicate as? NSComparisonPredicate)
        #expect(newInner?.leftExpression.operand.expressionType == .variable)
        #expect(newInner?.rightExpression.constantValue as? Int == 10)
        let person = QueryPerson(name: "P", age: 1, friends: [QueryPerson(name: "a", age: 5), QueryPerson(name: "b", age: 50)])
        #expect(substituted.evaluate(with: person))
    }

    @Test("FUNCTION calls valueForKey:, string methods and built-in functions")
    func methodCalls() {
        let person = QueryPerson(name: "ann", age: 3)
        let upper = NSExpression(
            forFunction: NSExpression(forKeyPath: "name"), selectorName: "uppercaseString",
            arguments: nil)
        #expect(value(upper, person) as? String == "ANN")
        let append = NSExpression(
            forFunction: NSExpression(forKeyPath: "name"), selectorName: "stringByAppendingString:",
            arguments: [NSExpression(forConstantValue: "!")])
        #expect(value(append, person) as? String == "ann!")
        let add = NSExpression(
            forFunction: NSExpression(forKeyPath: "age"), selectorName: "add:to:",
            arguments: [NSExpression(forConstantValue: 4)])
        #expect(value(add, person) as? Int == 7)
        let key = NSExpression(
            forFunction: NSExpression.expressionForEvaluatedObject(), selectorName: "name",
            arguments: nil)
        #expect(value(key, person) as? String == "ann")
        let unknown = NSExpression(
            forFunction: NSExpression.expressionForEvaluatedObject(),
            selectorName: "launchRockets:", arguments: [NSExpression(forConstantValue: 1)])
        #expect(value(unknown, person) == nil)
    }

    @Test("subscripts read arrays by index and dictionaries by key")
    func subscripts() {
        let list = NSExpression(forConstantValue: ["a", "b", "c"])
        func at(_ index: Any) -> Any? {
            value(NSExpression(forFunction: "objectFrom:withIndex:", arguments: [list, NSExpression(forConstantValue: index)]))
        }
        #expect(at(0) as? String == "a")
        #expect(at(-1) as? String == "c")
        #expect(at(3) == nil)
        let dictionary = NSExpression(forConstantValue: ["k": 1])
        #expect(
            value(
                NSExpression(
                    forFunction: "objectFrom:withIndex:",
                    arguments: [dictionary, NSExpression(forConstantValue: "k")])) as? Int == 1)
    }

    @Test("ANYKEY matches any value of the object")
    func anyKey() {
        let predicate = NSComparisonPredicate(
            leftExpression: NSExpression.expressionForAnyKey(),
            rightExpression: NSExpression(forConstantValue: "x"),
            modifier: .direct, type: .equalTo)
        #expect(predicate.evaluate(with: ["a": "y", "b": "x"]))
        #expect(!predicate.evaluate(with: ["a": "y"]))
    }

    @Test("equal structures are equal and hash alike; copies are equal")
    func equality() {
        let a = NSExpression(forFunction: "add:to:", arguments: [NSExpression(forKeyPath: "x"), NSExpression(forConstantValue: 1)])
        let b = NSExpression(forFunction: "add:to:", arguments: [NSExpression(forKeyPath: "x"), NSExpression(forConstantValue: 1.0)])
        let c = NSExpression(forFunction: "add:to:", arguments: [NSExpression(forKeyPath: "y"), NSExpression(forConstantValue: 1)])
        #expect(a.isEqual(b) && a.hash == b.hash)
        #expect(!a.isEqual(c))
        #expect(!NSExpression(forConstantValue: 1).isEqual(NSExpression(forConstantValue: "1")))
        #expect(a.isEqual(a.copy()))
    }
}
