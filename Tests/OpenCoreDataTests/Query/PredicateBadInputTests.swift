import OpenCoreData
import Testing

/// A malformed format string, the arguments passed with it, what the message must say and where.
struct BadFormat: Sendable, CustomTestStringConvertible {
    let text: String
    let arguments: [any Sendable]
    let mentions: String
    let offset: Int?

    init(_ text: String, _ arguments: [any Sendable] = [], mentions: String, at offset: Int?) {
        self.text = text
        self.arguments = arguments
        self.mentions = mentions
        self.offset = offset
    }

    var testDescription: String { text.count > 60 ? String(text.prefix(60)) + "…" : text }
}

@Suite("Malformed predicate format strings")
struct PredicateBadInputTests {
    static let corpus: [BadFormat] = [
        BadFormat("age >", mentions: "expected an expression after '>'", at: 5),
        BadFormat("name == 'unterminated", mentions: "unterminated string literal", at: 8),
        BadFormat("AND age > 3", mentions: "'AND'", at: 0),
        BadFormat("(age > 3", mentions: "expected ')'", at: 8),
        BadFormat("name BEGINSWITH[q] 'a'", mentions: "unknown comparison option 'q'", at: 16),
        BadFormat("name BEGINSWITH[cq] 'a'", mentions: "unknown comparison option 'q'", at: 17),
        BadFormat("%K == 1", mentions: "missing argument 1 for '%K'", at: 0),
        BadFormat("SUBQUERY(children, c, c.age > 1)", mentions: "expected a variable such as $x", at: 19),
        BadFormat("", mentions: "empty string", at: 0),
        BadFormat("   ", mentions: "empty string", at: 0),
        BadFormat("age > 3)", mentions: "expected the end of the predicate, found ')'", at: 7),
        BadFormat("a == 1 AND", mentions: "expected a predicate after 'AND'", at: 10),
        BadFormat("a == 1 OR OR b == 2", mentions: "'OR'", at: 10),
        BadFormat("NOT", mentions: "expected a predicate after 'NOT'", at: 3),
        BadFormat("a == 1 b == 2", mentions: "expected the end of the predicate, found 'b'", at: 7),
        BadFormat("name == 'x' 'y'", mentions: "expected the end of the predicate", at: 12),
        BadFormat("a", mentions: "expected a comparison operator, found the end of the string", at: 1),
        BadFormat("a + == 1", mentions: "expected an expression after '+'", at: 4),
        BadFormat("a IN", mentions: "expected an expression after 'IN'", at: 4),
        BadFormat("a ==[cd 'x'", mentions: "expected ']'", at: 8),
        BadFormat("a ==[] 'x'", mentions: "expected comparison options", at: 5),
        BadFormat("{1, 2 == 1", mentions: "expected ',' or '}'", at: 6),
        BadFormat("(a == 1) + 2 == 3", mentions: "expected an expression before '+', found a predicate", at: 9),
        BadFormat("a == 'x' ?", mentions: "unexpected character '?'", at: 9),
        BadFormat("a = & b", mentions: "expected '&&'", at: 4),
        BadFormat("a | b", mentions: "expected '||'", at: 2),
        BadFormat("a # b", mentions: "expected a key after '#'", at: 2),
        BadFormat("a == $", mentions: "expected a variable name after '$'", at: 5),
        BadFormat("a.@ == 1", mentions: "expected a collection operator name", at: 2),
        BadFormat("a. == 1", mentions: "expected a key after '.'", at: 3),
        BadFormat("a == 0x", mentions: "expected digits after '0x'", at: 5),
        BadFormat("a == 0b102", mentions: "invalid or too large base-2 integer literal", at: 5),
        BadFormat("a == 0xFFFFFFFFFFFFFFFFFF", mentions: "too large", at: 5),
        BadFormat("a == 12abc", mentions: "unexpected character 'a' in a number", at: 7),
        BadFormat("a == 1e999", mentions: "out of range", at: 5),
        BadFormat("a == 'bad \\u12'", mentions: "expected four hexadecimal digits", at: 10),
        BadFormat("a == '\\u{110000}'", mentions: "invalid Unicode escape", at: 6),
        BadFormat("a == 'x\\", mentions: "unterminated string literal", at: 5),
        BadFormat("a == %y", mentions: "unknown format specifier '%y'", at: 5),
        BadFormat("a == %lK", mentions: "unknown format specifier '%lK'", at: 5),
        BadFormat("a == %", mentions: "expected a format specifier after '%'", at: 5),
        BadFormat("a == %%", mentions: "'%%' is a percent sign only inside a string literal", at: 5),
        BadFormat("a == %@", mentions: "missing argument 1 for '%@' (0 given)", at: 5),
        BadFormat("a == %@ AND b == %@", ["x"], mentions: "missing argument 2", at: 17),
        BadFormat("a == %3$@", ["x", "y"], mentions: "missing argument 3", at: 5),
        BadFormat("%K == 1", [5], mentions: "expected a key path string for '%K'", at: 0),
        BadFormat("%K == 1", [""], mentions: "expected a key path string for '%K'", at: 0),
        BadFormat("a == %d", ["x"], mentions: "expected an integer for '%d'", at: 5),
        BadFormat("a == %f", ["x"], mentions: "expected a number for '%f'", at: 5),
        BadFormat("a == %s", [1], mentions: "expected a string for '%s'", at: 5),
        BadFormat("FUNCTION(a) == 1", mentions: "expected ',' after the receiver of FUNCTION", at: 10),
        BadFormat("FUNCTION(a, b) == 1", mentions: "expected a selector name string", at: 12),
        BadFormat("FUNCTION(a, '') == 1", mentions: "selector name of FUNCTION is empty", at: 8),
        BadFormat("foo:(1) == 1", mentions: "unknown function 'foo:'", at: 0),
        BadFormat("frobnicate(1) == 1", mentions: "unknown function 'frobnicate'", at: 0),
        BadFormat("sqrt:(1, 2) == 1", mentions: "the function 'sqrt:' takes 1 argument, not 2", at: 0),
        BadFormat("now(1) == 1", mentions: "the function 'now' takes 0 arguments, not 1", at: 0),
        BadFormat("sum:() == 1", mentions: "takes one or more arguments, not 0", at: 0),
        BadFormat("add:to: == 1", mentions: "expected '(' after the function name 'add:to:'", at: 8),
        BadFormat("CAST(a, '') == 1", mentions: "type name of CAST is empty", at: 8),
        BadFormat("CAST(a) == 1", mentions: "expected ',' after the value of CAST", at: 6),
        BadFormat("TERNARY(a, 1, 2) == 1", mentions: "expected a comparison operator, found ','", at: 9),
        BadFormat("TERNARY(a == 1, 2) == 1", mentions: "expected ',' after the second argument of TERNARY", at: 17),
        BadFormat("SUBQUERY(a, $x) == 1", mentions: "expected ',' after the variable of SUBQUERY", at: 14),
        BadFormat("SUBQUERY(a, $x, $x) == 1", mentions: "expected a predicate in SUBQUERY, found an expression", at: 16),
        BadFormat("SUBQUERY(a, $x, ) == 1", mentions: "expected a predicate in SUBQUERY", at: 16),
        BadFormat("FETCH(a, b) == 1", mentions: "expected ',' after the context of FETCH", at: 10),
        BadFormat("ANY a", mentions: "expected a comparison operator after 'ANY'", at: 5),
        BadFormat("a == ()", mentions: "expected a predicate or an expression after '('", at: 6),
        BadFormat("a == IN", mentions: "reserved word 'IN'", at: 5),
        BadFormat("a == NOT", mentions: "reserved word 'NOT'", at: 5),
        BadFormat("名字 == 'x' AND", mentions: "expected a predicate after 'AND'", at: 13),
        BadFormat("e\u{301} >", mentions: "expected an expression after '>'", at: 3),
        BadFormat("'👍🏽' == 1 )", mentions: "found ')'", at: 9),
        BadFormat("👍 == 1", mentions: "unexpected character '👍'", at: 0),
        BadFormat(String(repeating: "(", count: 10_000), mentions: "nests more than 100 levels deep", at: 100),
        BadFormat(
            String(repeating: "(", count: 101) + "a == 1" + String(repeating: ")", count: 101),
            mentions: "nests more than 100 levels deep", at: 100),
        BadFormat(String(repeating: "NOT ", count: 10_000) + "a == 1", mentions: "nests more than 100 levels", at: nil),
        BadFormat(String(repeating: "!", count: 10_000), mentions: "nests more than 100 levels", at: nil),
        BadFormat("a == " + String(repeating: "-", count: 10_000) + "1", mentions: "nests more than 100", at: nil),
        BadFormat("a == " + String(repeating: "{", count: 10_000), mentions: "nests more than 100", at: nil),
        BadFormat("a == " + String(repeating: "2 ** ", count: 10_000) + "2", mentions: "nests more than 100", at: nil),
        BadFormat("a == " + String(repeating: "abs:(", count: 10_000), mentions: "nests more than 100", at: nil),
        BadFormat(String(repeating: "SUBQUERY(a, $x, ", count: 10_000), mentions: "nests more than 100", at: nil),
        BadFormat("a == " + String(repeating: "\0", count: 3), mentions: "unexpected character '\\u{0}'", at: 5),
    ]

    @Test("malformed text throws NSFormattingError naming what was expected and where", arguments: corpus)
    func malformed(_ bad: BadFormat) {
        let arguments = bad.arguments.map { $0 as Any }
        do {
            let predicate = try NSPredicate(validatingFormat: bad.text, argumentArray: arguments)
            Issue.record("parsed to \(predicate.predicateFormat)")
        } catch let error as NSError {
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSFormattingError)
            #expect(error.code == 2048)
            #expect(error.localizedDescription.contains(bad.mentions), "\(error.localizedDescription)")
            #expect(error.localizedDescription.hasPrefix("Unable to parse the format string \""))
            #expect(error.userInfo[NSPredicateFormatStringErrorKey] as? String == bad.text)
            let offset = error.userInfo[NSPredicateFormatOffsetErrorKey] as? Int
            #expect(offset != nil)
            if let expected = bad.offset {
                #expect(offset == expected, "\(error.localizedDescription)")
                #expect(error.localizedDescription.hasSuffix("at offset \(expected)"))
            }
        }
    }

    @Test("the message reads like Apple's, quoting the text")
    func messageShape() throws {
        let error = try #require(throws: NSError.self) { try NSPredicate(validatingFormat: "age >") }
        #expect(
            error.localizedDescription
                == "Unable to parse the format string \"age >\": expected an expression after '>' at offset 5")
    }

    @Test("malformed expression text throws too")
    func malformedExpressions() {
        for text in ["", "a +", "a == 1", "(a", "sum:(", "a b", "%K", "SUBQUERY(a, x, $x == 1)"] {
            #expect(throws: NSError.self, "\(text)") { try NSExpression(validatingFormat: text) }
        }
    }

    @Test("long but flat texts parse without deep recursion")
    func longFlatTexts() throws {
        let chain = (0..<5_000).map { "a\($0) == \($0)" }.joined(separator: " AND ")
        let predicate = try NSPredicate(validatingFormat: chain)
        #expect((predicate as? NSCompoundPredicate)?.subpredicates.count == 5_000)
        let sum = "a == " + (0..<5_000).map(String.init).joined(separator: " + ")
        _ = try NSPredicate(validatingFormat: sum)
        let path = "a == " + (0..<5_000).map { "k\($0)" }.joined(separator: ".")
        _ = try NSPredicate(validatingFormat: path)
        let nested = String(repeating: "(", count: 90) + "a == 1" + String(repeating: ")", count: 90)
        #expect(try NSPredicate(validatingFormat: nested).predicateFormat == "a == 1")
        // Printing never nests deeper than the text it came from, so deep but legal texts print
        // text that parses again.
        let nots = String(repeating: "NOT ", count: 99) + "a == 1"
        #expect(try FormatTest.reparsed(try NSPredicate(validatingFormat: nots)).predicateFormat == nots)
        let mixed = String(repeating: "NOT (a == 1 AND ", count: 49) + "b == 2" + String(repeating: ")", count: 49)
        #expect(try FormatTest.reparsed(try NSPredicate(validatingFormat: mixed)).predicateFormat == mixed)
    }

    // MARK: Fuzzing

    @Test("fuzz: a few thousand random and mutated inputs each parse or throw", .tags(.fuzz), .timeLimit(.minutes(2)))
    func fuzz() {
        var fuzzer = PredicateFuzzer(seed: 0x0C0D_EDA7A)
        let result = fuzzer.run(cases: 4_000)
        #expect(result.parsed > 0)
        #expect(result.rejected > 0)
        #expect(result.problems.isEmpty, "\(result.problems.prefix(5))")
    }

    @Test(
        "fuzz: one million inputs (set OPENCOREDATA_FUZZ=1)", .tags(.fuzz),
        .enabled(if: ProcessInfo.processInfo.environment["OPENCOREDATA_FUZZ"] == "1"))
    func fuzzMillion() {
        var fuzzer = PredicateFuzzer(seed: 0x5EED_F0CC)
        let result = fuzzer.run(cases: 1_000_000)
        #expect(result.problems.isEmpty, "\(result.problems.prefix(5))")
        print("fuzzed 1000000 inputs: \(result.parsed) parsed, \(result.rejected) rejected")
    }
}
