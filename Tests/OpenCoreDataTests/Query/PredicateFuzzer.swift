import OpenCoreData

/// A small deterministic pseudo-random generator (SplitMix64), so that fuzzing failures reproduce.
struct FuzzRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (`bound` > 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    mutating func pick<T>(_ values: [T]) -> T { values[below(values.count)] }
}

/// Feeds random, mutated and deeply nested texts to the predicate and expression parsers and checks that
/// each either parses (and then prints text that parses again to the same text, and evaluates on sample
/// objects without crashing) or throws a well-formed `NSFormattingError`.
struct PredicateFuzzer {
    struct Result {
        var parsed = 0
        var rejected = 0
        var problems: [String] = []
    }

    private var random: FuzzRandom

    init(seed: UInt64) { random = FuzzRandom(seed: seed) }

    /// Valid texts to mutate: the round-trip corpus, the seed strings and a few more forms.
    static let validTexts: [String] =
        PredicateFormatTests.roundTrips + SeedPredicateTests.seeds.map(\.format) + [
            "a == %@", "%K == %@", "%K BEGINSWITH[cd] %@", "a IN %@", "a BETWEEN %@", "a == %d AND b == %f",
            "%1$K == %2$@", "FUNCTION(SELF, 'uppercase:', name) == 'A'", "a UNION b == nil",
            "name == 'a\\'b\\u0041\\n'", "a == 0x1F OR b == 0o17 OR c == 0b101", "x == $VAR.y", "ANYKEY == 1",
            "#IN == #SELF", "a[SIZE] > 1", "TERNARY(a > 1, b, c) == 1", "CAST(1000, 'NSDate') < now()",
            "sum:(1, 2, 3) == random()", "SUBQUERY(a, $x, ANY $x.b == 1 AND NOT $x.c == 2).@count > 0",
        ]

    static let vocabulary: [String] = [
        "(", ")", "{", "}", "[", "]", ",", ".", ":", "+", "-", "*", "/", "**", "=", "==", "!=", "<>", "<", "<=",
        "=<", ">", ">=", "=>", "&&", "||", "!", "AND", "OR", "NOT", "ANY", "ALL", "NONE", "SOME", "IN",
        "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES", "BETWEEN", "[c]", "[cd]", "[n]", "[x]", "SELF",
        "nil", "NULL", "YES", "NO", "TRUE", "FALSE", "TRUEPREDICATE", "FALSEPREDICATE", "SUBQUERY(", "FUNCTION(",
        "CAST(", "TERNARY(", "ANYKEY", "FIRST", "LAST", "SIZE", "UNION", "INTERSECT", "MINUS", "%@", "%K", "%d",
        "%f", "%s", "%%", "%1$@", "%2$K", "%", "$x", "$", "@count", "@sum", "@", "#IN", "#", "'", "\"", "'str'",
        "\"dq\"", "\\", "0x1F", "0o7", "0b1", "12", "1.5e3", ".5", "name", "age", "a.b", "sum:", "now()", "add:to:",
        " ", "  ", "\n", "\t", "é", "名", "👍",
    ]

    static var argumentSets: [[Any?]] {
        [
            [], ["name"], ["a.b", 1], ["x", 2.5, nil, [1, 2], true, "k"], [1, 2, 3, 4, 5, 6],
            ["name", "Ann", "age", 30], [Set(["a"]), Date(timeIntervalSinceReferenceDate: 5), "é", -1],
        ]
    }

    /// Objects the parsed predicates are evaluated on: values of every shape evaluation meets.
    static var samples: [Any?] {
        [
            nil, 5, "str", Double.nan, [1, 2, 3], Set([1, 2]),
            [
                "a": 1, "name": "Ann", "age": 30, "values": [1, 2.5], "children": [["age": 3, "name": "Al"]],
                "map": ["k": 2], "d": Date(timeIntervalSinceReferenceDate: 0),
            ],
            FormatTestObject(["a": 0, "b": [1], "x": ["y": 2], "age": Double.infinity]),
        ]
    }

    mutating func run(cases: Int) -> Result {
        var result = Result()
        let argumentSets = Self.argumentSets
        let samples = Self.samples
        for index in 0..<cases {
            let text = makeText()
            let arguments = random.pick(argumentSets)
            check(text, arguments: arguments, samples: samples, case: index, into: &result)
        }
        return result
    }

    private mutating func makeText() -> String {
        switch random.below(100) {
        case 0..<40: return mutate(random.pick(Self.validTexts), times: 1 + random.below(4))
        case 40..<55: return tokenSoup()
        case 55..<70: return randomScalars()
        case 70..<80: return deepNesting()
        case 80..<90:
            let left = random.pick(Self.validTexts), right = random.pick(Self.validTexts)
            return String(left.prefix(random.below(left.count + 1))) + String(right.suffix(random.below(right.count + 1)))
        default:
            return random.pick(Self.validTexts)
        }
    }

    private mutating func mutate(_ text: String, times: Int) -> String {
        var characters = Array(text)
        for _ in 0..<times {
            let position = characters.isEmpty ? 0 : random.below(characters.count + 1)
            switch random.below(6) {
            case 0:  // insert a character
                characters.insert(randomCharacter(), at: position)
            case 1:  // delete a character
                if !characters.isEmpty { characters.remove(at: min(position, characters.count - 1)) }
            case 2:  // swap two neighbours
                if characters.count > 1 {
                    let first = min(position, characters.count - 2)
                    characters.swapAt(first, first + 1)
                }
            case 3:  // insert a token
                characters.insert(contentsOf: Array(random.pick(Self.vocabulary)), at: position)
            case 4:  // duplicate a slice
                if !characters.isEmpty {
                    let start = random.below(characters.count)
                    let length = 1 + random.below(min(12, characters.count - start))
                    characters.insert(contentsOf: characters[start..<(start + length)], at: position)
                }
            default:  // truncate
                characters = Array(characters.prefix(position))
            }
        }
        return String(characters)
    }

    private mutating func randomCharacter() -> Character {
        switch random.below(4) {
        case 0: return random.pick(Array("()[]{},.:+-*/=!<>&|%$@#'\"\\ 0123456789abcxyzACDN_?;`~^"))
        case 1: return Character(Unicode.Scalar(UInt8(random.below(128))))
        default: return Character(randomScalar())
        }
    }

    private mutating func randomScalar() -> Unicode.Scalar {
        while true {
            let ranges: [ClosedRange<UInt32>] = [
                0...0x7F, 0x80...0x7FF, 0x300...0x36F, 0x4E00...0x9FFF, 0x1F300...0x1FAFF,
                0xE000...0xF8FF, 0x10000...0x10FFFF,
            ]
            let range = random.pick(ranges)
            let value = range.lowerBound + UInt32(random.below(Int(range.upperBound - range.lowerBound) + 1))
            if let scalar = Unicode.Scalar(value) { return scalar }
        }
    }

    private mutating func tokenSoup() -> String {
        (0..<(1 + random.below(25))).map { _ in random.pick(Self.vocabulary) }
            .joined(separator: random.below(3) == 0 ? "" : " ")
    }

    private mutating func randomScalars() -> String {
        var view = String.UnicodeScalarView()
        for _ in 0..<random.below(60) { view.append(randomScalar()) }
        return String(view)
    }

    private mutating func deepNesting() -> String {
        let depth = random.below(2) == 0 ? 40 + random.below(70) : 50 + random.below(3_000)
        let openers = [
            "(", "NOT ", "!", "-", "{", "abs:(", "2 ** ", "SUBQUERY(a, $x, ", "TERNARY(", "a[", "FUNCTION(",
            "NOT (a == 1 AND ", "(a == 1 OR ", "a == -(", "x.y == 1 AND NOT ",
        ]
        let opener = random.pick(openers)
        let body = random.pick(["a == 1", "1", "a", "", "$x.a > 1", "NONE a.b == 1", "ALL a < 2"])
        let closer = random.pick([")", "}", "]", ""])
        return String(repeating: opener, count: depth) + body + String(repeating: closer, count: random.below(depth + 1))
    }

    private func check(_ text: String, arguments: [Any?], samples: [Any?], case index: Int, into result: inout Result) {
        let argumentArray = arguments.map { $0 as Any }
        do {
            let predicate = try NSPredicate(validatingFormat: text, argumentArray: argumentArray)
            result.parsed += 1
            for sample in samples { _ = predicate.evaluate(with: sample) }
            let printed = predicate.predicateFormat
            do {
                let again = try NSPredicate(validatingFormat: printed)
                if again.predicateFormat != printed {
                    result.problems.append(
                        "case \(index): \(text.debugDescription) printed \(printed.debugDescription), "
                            + "which prints back as \(again.predicateFormat.debugDescription)")
                }
            } catch {
                result.problems.append(
                    "case \(index): \(text.debugDescription) printed \(printed.debugDescription), "
                        + "which does not parse: \((error as NSError).localizedDescription)")
            }
        } catch let error as NSError {
            result.rejected += 1
            let offset = error.userInfo[NSPredicateFormatOffsetErrorKey] as? Int ?? -1
            if error.domain != NSCocoaErrorDomain || error.code != NSFormattingError || offset < 0 || offset > text.count {
                result.problems.append("case \(index): \(text.debugDescription) threw a malformed error: \(error)")
            }
        }
        _ = try? NSExpression(validatingFormat: text, argumentArray: argumentArray)
    }
}
