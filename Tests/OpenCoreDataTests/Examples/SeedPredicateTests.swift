import OpenCoreData
import Testing

/// One predicate string found in the seed articles (/work/shared/seeds), with the arguments the article
/// passes and an object that satisfies it and one that does not.
///
/// Not included: the two `#Predicate` macro bodies of seed 003 (lines 103 and 114,
/// `$0.destination == "New York" && $0.name.contains("birthday") && $0.startDate > today` and
/// `$0.rating > 3.5`): they are Swift macro code, not format strings.
struct SeedPredicate: Sendable, CustomTestStringConvertible {
    /// The seed file and line(s) the string appears on.
    let source: String
    let format: String
    /// Builds the arguments, a matching object, a non-matching object and substitution variables.
    let make: @Sendable () -> (arguments: [Any?], match: Any?, miss: Any?, variables: [String: Any]?)

    var testDescription: String { "\(format) [\(source)]" }

    init(
        _ source: String, _ format: String, _ arguments: [any Sendable] = [],
        match: @escaping @Sendable () -> Any?, miss: @escaping @Sendable () -> Any?,
        variables: (@Sendable () -> [String: Any])? = nil
    ) {
        self.source = source
        self.format = format
        self.make = { (arguments.map { $0 as Any? }, match(), miss(), variables?()) }
    }

    init(
        _ source: String, _ format: String,
        make: @escaping @Sendable () -> (arguments: [Any?], match: Any?, miss: Any?, variables: [String: Any]?)
    ) {
        self.source = source
        self.format = format
        self.make = make
    }
}

@Suite("Every predicate string of the seed articles")
struct SeedPredicateTests {
    static let now = Date(timeIntervalSinceReferenceDate: 800_000_000)
    static let thirtyDaysAgo = now.addingTimeInterval(-30 * 24 * 60 * 60)
    static let yesterday = now.addingTimeInterval(-24 * 60 * 60)
    static let emailRegex = "[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,64}"
    static let mobileRegex = "^1(3[0-9]|5[0-35-9]|8[025-9])\\d{8}$"

    static let seeds: [SeedPredicate] = [
        SeedPredicate(
            "000:319,664,707,1246,1344,1583", "email == %@", ["test@example.com"],
            match: { ["email": "test@example.com"] }, miss: { ["email": "other@example.com"] }),
        SeedPredicate(
            "000:328", "posts.@count > 5 AND age > 25",
            match: { ["posts": Array(1...6), "age": 30] }, miss: { ["posts": [1, 2], "age": 30] }),
        SeedPredicate(
            "000:1126", "SELF MATCHES %@", [emailRegex],
            match: { "ann.lee+tag@example.co" }, miss: { "not an email" }),
        SeedPredicate(
            "000:1360", "age >= %ld AND age <= %ld", [18, 30],
            match: { ["age": 18] }, miss: { ["age": 31] }),
        SeedPredicate(
            "000:1383", "SUBQUERY(posts, $post, $post != nil).@count > 0",
            match: { ["posts": [["title": "a"]]] }, miss: { ["posts": [Any]()] }),
        SeedPredicate(
            "000:1430", "name == %@ AND email == %@", ["Ann", "ann@example.com"],
            match: { ["name": "Ann", "email": "ann@example.com"] },
            miss: { ["name": "Ann", "email": "bob@example.com"] }),
        SeedPredicate(
            "000:1447", "publishedAt != nil",
            match: { ["publishedAt": now] }, miss: { ["title": "draft"] }),
        SeedPredicate(
            "000:1474", "name CONTAINS[cd] %@", ["joh"],
            match: { ["name": "Jóhn Smith"] }, miss: { ["name": "Mary"] }),
        SeedPredicate("000:1508", "author == %@") {
            let user = FormatTestObject(["name": "Ann"])
            return ([user], ["author": user], ["author": FormatTestObject(["name": "Bob"])], nil)
        },
        SeedPredicate(
            "000:1604", "SUBQUERY(posts, $post, $post.publishedAt > %@).@count == 0", [thirtyDaysAgo],
            match: { ["posts": [["publishedAt": thirtyDaysAgo.addingTimeInterval(-10)]]] },
            miss: { ["posts": [["publishedAt": yesterday]]] }),
        SeedPredicate(
            "001:136,169", "title CONTAINS[cd] %@", ["Harry"],
            match: { ["title": "The Story of HARRY"] }, miss: { ["title": "Dune"] }),
        SeedPredicate(
            "001:152", "title BEGINSWITH[cd] %@", ["Harry"],
            match: { ["title": "harry Potter"] }, miss: { ["title": "Potter, Harry"] }),
        SeedPredicate(
            "001:153", "title ENDSWITH[cd] %@", ["Potter"],
            match: { ["title": "Harry PÖTTER"] }, miss: { ["title": "Potter, Harry"] }),
        SeedPredicate(
            "001:154", "title CONTAINS[cd] %@", ["and"],
            match: { ["title": "Pride ÄND Prejudice"] }, miss: { ["title": "Dune"] }),
        SeedPredicate("001:158", "price > %f", [10.0], match: { ["price": 10.5] }, miss: { ["price": 10] }),
        SeedPredicate("001:159", "price BETWEEN {10.0, 50.0}", match: { ["price": 50] }, miss: { ["price": 50.01] }),
        SeedPredicate(
            "001:162", "publishDate > %@", [yesterday],
            match: { ["publishDate": now] }, miss: { ["publishDate": thirtyDaysAgo] }),
        SeedPredicate(
            "001:165", "author.name == %@", ["J.K. Rowling"],
            match: { ["author": ["name": "J.K. Rowling"]] }, miss: { ["author": ["name": "Tolkien"]] }),
        SeedPredicate(
            "001:166", "SUBQUERY(books, $book, $book.price > 20).@count > 0",
            match: { ["books": [["price": 5], ["price": 25]]] }, miss: { ["books": [["price": 5]]] }),
        SeedPredicate("001:170", "price < %f", [20.0], match: { ["price": 19.99] }, miss: { ["price": 20] }),
        SeedPredicate(
            "001:306", "publishDate < %@", [thirtyDaysAgo],
            match: { ["publishDate": thirtyDaysAgo.addingTimeInterval(-1)] }, miss: { ["publishDate": now] }),
        SeedPredicate("001:313", "price == 0", match: { ["price": 0.0] }, miss: { ["price": 1] }),
        SeedPredicate(
            "002:81,82,107 004:91,120", "name = %@", ["lxz"],
            match: { ["name": "lxz"] }, miss: { ["name": "LXZ"] }),
        SeedPredicate(
            "002:82,90", "(age < 25) AND (firstName = XiaoZhuang)",
            match: { ["age": 20, "firstName": "X", "XiaoZhuang": "X"] },
            miss: { ["age": 20, "firstName": "X", "XiaoZhuang": "Y"] }),
        SeedPredicate("002:86", "age >= 30", match: { ["age": 30] }, miss: { ["age": 29] }),
        SeedPredicate(
            "002:94,119", "SELF MATCHES %@", [mobileRegex],
            match: { "13812345678" }, miss: { "12812345678" }),
        SeedPredicate(
            "002:96,119,125,362", "name LIKE %@", ["*lxz*"],
            match: { ["name": "a-lxz-b"] }, miss: { ["name": "lx z"] }),
        SeedPredicate(
            "002:98,110", "employee.name = %@", ["lxz"],
            match: { ["employee": ["name": "lxz"]] }, miss: { ["employee": ["name": "abc"]] }),
        SeedPredicate(
            "002:119", "name BEGINSWITH %@", ["lxz"],
            match: { ["name": "lxz1"] }, miss: { ["name": "1lxz"] }),
        SeedPredicate(
            "002:119", "name ENDSWITH %@", ["lxz"],
            match: { ["name": "1lxz"] }, miss: { ["name": "lxz1"] }),
        SeedPredicate(
            "002:119", "name contains %@", ["lxz"],
            match: { ["name": "alxzb"] }, miss: { ["name": "LXZ"] }),
        SeedPredicate("002:130,133", "age < 24", match: { ["age": 23] }, miss: { ["age": 24] }),
        SeedPredicate("002:154", "age < %ld", [20], match: { ["age": 19] }, miss: { ["age": 20] }),
        SeedPredicate(
            "002:235 (migration filter predicate, prose)", "$source.height < 100",
            match: { nil }, miss: { nil }, variables: { ["source": ["height": 50]] }),
        SeedPredicate(
            "002:78 (fetch request template EmployeeFR, prose: height under 2 m)", "height < 2",
            match: { ["height": 1.8] }, miss: { ["height": 2.1] }),
        SeedPredicate(
            "003:85", "location.latitude > %f AND location.latitude < %f", [31.3, 40.0],
            match: { ["location": ["latitude": 39.9, "longitude": 116.4]] },
            miss: { ["location": ["latitude": 22.5, "longitude": 114.1]] }),
        SeedPredicate(
            "003:368", "flightData != nil",
            match: { ["flightData": [1, 2]] }, miss: { ["flightData": NSNull()] }),
    ]

    @Test("parses, prints, re-parses to an equal predicate, and evaluates as the article expects", arguments: seeds)
    func seed(_ seed: SeedPredicate) throws {
        let (arguments, match, miss, variables) = seed.make()
        let parsed = try NSPredicate(validatingFormat: seed.format, argumentArray: arguments.map { $0 as Any })
        let printed = parsed.predicateFormat
        if arguments.contains(where: { $0 is FormatTestObject }) {
            // An object constant prints as its description, which is not format text (as on Apple
            // platforms); only the parsed predicate is checked.
            #expect(printed.hasPrefix("author == "))
            #expect(parsed.evaluate(with: match))
            #expect(!parsed.evaluate(with: miss))
            return
        }
        let again = try NSPredicate(validatingFormat: printed)
        #expect(again == parsed, "printed as \(printed)")
        #expect(again.predicateFormat == printed)
        if let variables {
            #expect(parsed.evaluate(with: nil, substitutionVariables: variables))
            #expect(again.evaluate(with: nil, substitutionVariables: variables))
            #expect(!parsed.evaluate(with: nil, substitutionVariables: ["source": ["height": 150]]))
            return
        }
        #expect(parsed.evaluate(with: match), "\(printed) should match \(String(describing: match))")
        #expect(again.evaluate(with: match))
        #expect(!parsed.evaluate(with: miss), "\(printed) should not match \(String(describing: miss))")
        #expect(!again.evaluate(with: miss))
    }

    @Test("the seed expressions posts.@count (000:1406,1552) and @sum.height (002:142)")
    func seedExpressions() throws {
        let count = try NSExpression(validatingFormat: "posts.@count")
        #expect(count.description == "posts.@count")
        #expect(count.expressionValue(with: ["posts": [1, 2, 3]], context: nil) as? Int == 3)
        let sum = try NSExpression(validatingFormat: "@sum.height")
        #expect(sum.description == "@sum.height")
        let heights: [[String: Any]] = [["height": 1.5], ["height": 2]]
        let total = sum.expressionValue(with: heights, context: nil)
        #expect((total as? Double) == 3.5 || (total as? NSNumber)?.doubleValue == 3.5)
    }
}
