import GRDB
import Testing

@testable import OpenCoreDataCore

/// One differential case: a request on the blog store whose SQL results must equal the Query layer's
/// in-memory evaluation of the same request over the same data.
struct FetchCase: Sendable, CustomStringConvertible {
    /// A predicate argument: a plain value, or a stored object (an ID for SQL, its dictionary in memory).
    enum Argument: Sendable {
        case string(String), int(Int), double(Double), date(Double), bool(Bool), decimal(String), uuid(Int), url(String)
        case data([UInt8]), null
        case strings([String]), ints([Int?])
        case object(String, Int), objects(String, [Int])
    }

    var entity = "Post"
    var format: String?
    var arguments: [Argument] = []
    var sort: [(String, Bool, String)] = []
    var limit = 0
    var offset = 0
    var includesSubentities = true

    var description: String {
        var text = "\(entity): \(format ?? "(all)")"
        if !sort.isEmpty { text += " sorted by \(sort.map { "\($0.0) \($0.1 ? "asc" : "desc") \($0.2)" })" }
        if limit > 0 || offset > 0 { text += " limit \(limit) offset \(offset)" }
        if !includesSubentities { text += " without subentities" }
        return text
    }

    static func on(_ format: String, _ arguments: Argument...) -> FetchCase {
        FetchCase(entity: "Post", format: format, arguments: arguments)
    }

    static func on(entity: String, _ format: String, _ arguments: Argument...) -> FetchCase {
        FetchCase(entity: entity, format: format, arguments: arguments)
    }

    func value(_ argument: Argument, forSQL: Bool, in fixture: SQLiteFetchFixture) throws -> Any {
        switch argument {
        case .string(let v): return v
        case .int(let v): return v
        case .double(let v): return v
        case .date(let days): return SQLiteFetchFixture.reference.addingTimeInterval(days * 86_400)
        case .bool(let v): return v
        case .decimal(let v): return NSDecimalNumber(string: v)
        case .uuid(let pk): return SQLiteFetchFixture.uuid(pk)
        case .url(let v): return try #require(URL(string: v))
        case .data(let bytes): return Data(bytes)
        case .null: return NSNull()
        case .strings(let v): return v
        case .ints(let v): return v.map { $0 as Any? ?? NSNull() }
        case .object(let entity, let pk):
            return forSQL ? try fixture.objectID(entity, pk) as Any : try #require(fixture.record(entity, pk))
        case .objects(let entity, let pks):
            return try pks.map { forSQL ? try fixture.objectID(entity, $0) as Any : try #require(fixture.record(entity, $0)) }
        }
    }

    func predicate(forSQL: Bool, in fixture: SQLiteFetchFixture) throws -> NSPredicate? {
        guard let format else { return nil }
        let values = try arguments.map { try value($0, forSQL: forSQL, in: fixture) }
        return NSPredicate(format: format, argumentArray: values)
    }

    var sortDescriptors: [NSSortDescriptor] {
        sort.map { NSSortDescriptor(key: $0.0, ascending: $0.1, selector: $0.2) }
    }
}

@Suite("SQLite fetch compiler: SQL results equal in-memory evaluation")
struct SQLiteFetchCompilerTests {
    static let comparisonsCases: [FetchCase] = [
        .on("likes == 5"), .on("likes != 5"), .on("likes < 5"), .on("likes <= 5"), .on("likes > 5"), .on("likes >= 5"),
        .on("likes == nil"), .on("likes != nil"), .on("NOT (likes > 3)"), .on("NOT (likes == 5)"),
        .on("rating > 2.5"), .on("likes > 2.5"), .on("likes == 5.0"), .on("rating >= likes"), .on("likes == %@", .double(5)),
        .on("published > %@", .date(5)), .on("published <= %@", .date(5)), .on("published == nil"),
        .on("published == %@", .date(3)), .on("published != %@", .date(3)),
        .on("likes BETWEEN {2, 8}"), .on("likes BETWEEN %@", .ints([3, 7])), .on("NOT (likes BETWEEN {2, 8})"),
        .on("published BETWEEN %@", .strings([])),
        .on("likes IN {1, 5, 9}"), .on("likes IN %@", .ints([1, nil])), .on("NOT (likes IN {1, 5, 9})"),
        .on("likes IN {}"), .on("title IN {'CAFE', 'cafe'}"), .on("title IN[c] {'cafe', 'ZEBRA'}"),
        .on("title IN[cd] %@", .strings(["straße", "über alles"])),
        .on("likes == 'five'"), .on("likes != 'five'"), .on("title == 5"), .on("title < 5"),
        .on("TRUEPREDICATE"), .on("FALSEPREDICATE"), .on("NOT TRUEPREDICATE"),
        .on("likes > 3 AND rating < 4"), .on("likes > 8 OR title BEGINSWITH 'C'"), .on("NOT (likes > 3 OR rating == nil)"),
        .on("likes + 1 > 5"), .on("likes * 2 == 10"), .on("likes / 2 > 2"), .on("likes - rating > 1"),
        .on("modulus:by:(likes, 3) == 1"), .on("abs:(likes - 6) <= 2"), .on("lowercase(title) == 'cafe'"),
        .on("uppercase(title) BEGINSWITH 'HELLO'"), .on("published < now()"), .on("1 == 1"), .on("5 < likes"),
        .on("likes == rating"), .on("likes != rating"), .on("title == author.name"), .on("title != author.nickname"),
    ]

    static let stringsCases: [FetchCase] = {
        var cases: [FetchCase] = []
        for options in ["", "[c]", "[d]", "[cd]", "[n]"] {
            cases += [
                .on("title ==\(options) 'cafe au lait'"), .on("title !=\(options) 'CAFE'"),
                .on("title <\(options) 'M'"), .on("title >=\(options) 'hello world'"),
                .on("title BEGINSWITH\(options) 'hello'"), .on("title BEGINSWITH\(options) 'CAF'"),
                .on("title ENDSWITH\(options) 'LAIT'"), .on("title ENDSWITH\(options) 'sse'"),
                .on("title CONTAINS\(options) 'é'"), .on("title CONTAINS\(options) 'E'"), .on("title CONTAINS\(options) '😀'"),
                .on("title LIKE\(options) '*world'"), .on("title LIKE\(options) 'caf? *'"), .on("title LIKE\(options) '100% *'"),
                .on("title LIKE\(options) 'under_score'"), .on("title LIKE\(options) 'under%score'"),
                .on("title LIKE\(options) %@", .string("a\\*b*")), .on("title LIKE\(options) %@", .string("*\\?*")),
                .on("title LIKE\(options) '*'"), .on("title LIKE\(options) 'STRASSE'"),
                .on("title MATCHES\(options) 'h.*d'"), .on("title MATCHES\(options) 'caf.*'"), .on("title MATCHES\(options) '.*ß.*'"),
                .on("title MATCHES\(options) 'ÜBER.*'"),
                .on("NOT (title CONTAINS\(options) 'o')"),
                .on(entity: "Person", "name ==\(options) 'chloe'"), .on(entity: "Person", "name BEGINSWITH\(options) 'e'"),
                .on(entity: "Person", "name CONTAINS\(options) 'SS'"), .on(entity: "Person", "name LIKE\(options) 'bob\\_%'"),
                .on(entity: "Person", "name ENDSWITH\(options) '🎉'"), .on(entity: "Person", "name ==\(options) nickname"),
                .on(entity: "Person", "nickname <\(options) name"),
            ]
        }
        cases += [
            .on("title BEGINSWITH ''"), .on("title CONTAINS ''"), .on("title ENDSWITH nil"), .on("title LIKE nil"),
            .on("'hello world, hi' CONTAINS title"), .on("title IN 'Hello World and CAFE'"),
            .on("'hello' IN[c] title"),
        ]
        return cases
    }()

    static let relationshipsCases: [FetchCase] = [
        .on("author.name == 'Chloé'"), .on("author.name ==[cd] 'chloe'"), .on("author.age > 30"), .on("author == nil"),
        .on("author != nil"), .on("author.name == nil"), .on("author.nickname BEGINSWITH[c] 'e'"), .on("reviewer.level >= 2"),
        .on("reviewer.name CONTAINS[c] 'ss' OR author.name CONTAINS[c] 'ss'"), .on("likes == author.age"),
        .on("author.isActive == YES"), .on("author.isActive == NO"), .on("author.balance > 5"), .on("author.birthday < %@", .date(15)),
        .on("ANY tags.name == 'swift'"), .on("ANY tags.name ==[cd] 'CAFE'"), .on("ALL tags.name BEGINSWITH 's'"),
        .on("NONE tags.name == 'linux'"), .on("tags.@count == 0"), .on("tags.@count >= 2"), .on("NOT (ANY tags.name == 'swift')"),
        .on("ALL tags.name != 'café'"), .on("ANY tags.name IN {'linux', 'swift'}"), .on("ANY tags.name LIKE[c] '*DATA'"),
        .on("SUBQUERY(tags, $t, $t.name CONTAINS[c] 'a').@count > 0"),
        .on("SUBQUERY(tags, $t, $t.name CONTAINS[c] 'a' AND $t.name != 'café').@count == 1"),
        .on("author.posts.@count > 1"), .on("author.posts.@count == 0"), .on("author.posts.@sum.likes > 10"),
        .on("author.posts.@avg.likes > 3"), .on("author.posts.@max.likes >= 9"), .on("author.posts.@min.rating < 1"),
        .on("ANY author.posts.title BEGINSWITH 'h'"), .on("ANY author.posts.likes > likes"), .on("ALL author.posts.likes > 2"),
        .on("SELF == %@", .object("Post", 3)), .on("SELF != %@", .object("Post", 3)), .on("SELF IN %@", .objects("Post", [1, 4, 9])),
        .on("author == %@", .object("Person", 1)), .on("author != %@", .object("Person", 1)),
        .on("author IN %@", .objects("Person", [2, 3])), .on("reviewer == %@", .object("Editor", 3)),
        .on("ANY tags == %@", .object("Tag", 2)), .on("tags CONTAINS %@", .object("Tag", 3)), .on("%@ IN tags", .object("Tag", 4)),
        .on("NOT (ANY tags == %@)", .object("Tag", 1)), .on("author == %@", .object("Tag", 1)),
        .on(entity: "Person", "posts.@count == 0"), .on(entity: "Person", "posts.@count >= 2"),
        .on(entity: "Person", "ANY posts.likes > 8"), .on(entity: "Person", "ALL posts.likes > 4"),
        .on(entity: "Person", "SUBQUERY(posts, $p, $p.likes > 3 AND ANY $p.tags.name == 'swift').@count > 0"),
        .on(entity: "Person", "SUBQUERY(posts, $p, SUBQUERY($p.tags, $t, $t.name BEGINSWITH 'c').@count > 0).@count >= 1"),
        .on(entity: "Person", "posts.@sum.likes == 0"), .on(entity: "Person", "posts.@avg.rating > 3"),
        .on(entity: "Person", "ANY posts == %@", .object("Post", 5)),
        .on(entity: "Tag", "posts.@count > 2"), .on(entity: "Tag", "ANY posts.author.name BEGINSWITH[cd] 'e'"),
        .on(entity: "Tag", "ANY posts.likes BETWEEN {5, 8}"),
    ]

    static let attributeTypesCases: [FetchCase] = [
        .on(entity: "Person", "isActive == YES"), .on(entity: "Person", "isActive != YES"), .on(entity: "Person", "isActive == nil"),
        .on(entity: "Person", "balance > 1"), .on(entity: "Person", "balance < 0.5"), .on(entity: "Person", "balance == %@", .decimal("12.5")),
        .on(entity: "Person", "balance == %@", .decimal("0.1")), .on(entity: "Person", "balance BETWEEN {0, 10}"),
        .on(entity: "Person", "uuid == %@", .uuid(3)), .on(entity: "Person", "uuid != %@", .uuid(3)), .on(entity: "Person", "uuid > %@", .uuid(3)),
        .on(entity: "Person", "homepage == %@", .url("https://example.com/people/2?q=%C3%A9")),
        .on(entity: "Person", "homepage == %@", .string("https://example.com/people/2?q=%C3%A9")),
        .on(entity: "Person", "photo == %@", .data([2, 0, 255, 6])), .on(entity: "Person", "photo < %@", .data([4])),
        .on(entity: "Person", "birthday < %@", .date(15)), .on(entity: "Person", "birthday == %@", .date(100)),
        .on(entity: "Person", "score < 0 OR score > 4"), .on(entity: "Person", "age == 31 AND score == nil"),
        .on(entity: "Editor", "level > 1"), .on(entity: "Editor", "name != nil"),
    ]

    static let sortingCases: [FetchCase] = {
        func sorted(
            _ keys: [(String, Bool, String)], limit: Int = 0, offset: Int = 0,
            _ format: String? = nil
        ) -> FetchCase {
            FetchCase(entity: "Post", format: format, sort: keys, limit: limit, offset: offset)
        }
        func sorted(_ entity: String, _ keys: [(String, Bool, String)], limit: Int = 0) -> FetchCase {
            FetchCase(entity: entity, format: nil, sort: keys, limit: limit)
        }
        return [
            sorted([("title", true, "compare:")]), sorted([("title", false, "compare:")]),
            sorted([("title", true, "caseInsensitiveCompare:")]), sorted([("title", false, "caseInsensitiveCompare:")]),
            sorted([("title", true, "localizedCompare:")]), sorted([("title", true, "localizedCaseInsensitiveCompare:")]),
            sorted([("title", true, "localizedStandardCompare:")]), sorted([("title", false, "localizedStandardCompare:")]),
            sorted([("likes", false, "compare:"), ("title", true, "compare:")]), sorted([("rating", true, "compare:")]),
            sorted([("published", false, "compare:")]), sorted([("author.name", true, "compare:"), ("likes", true, "compare:")]),
            sorted([("author.name", false, "localizedStandardCompare:")]), sorted([("author.age", true, "compare:")]),
            sorted([("likes", true, "compare:")], limit: 3), sorted([("likes", true, "compare:")], limit: 4, offset: 2),
            sorted([("likes", true, "compare:")], offset: 10), sorted([("likes", true, "compare:")], limit: 5, offset: 20),
            sorted([("title", true, "compare:")], limit: 2, "likes > 2"), sorted([("author.posts.@count", false, "compare:")]),
            sorted("Person", [("name", true, "compare:")]), sorted("Person", [("name", true, "localizedCaseInsensitiveCompare:")]),
            sorted("Person", [("balance", false, "compare:")]), sorted("Person", [("uuid", true, "compare:")]),
            sorted("Person", [("birthday", true, "compare:")]), sorted("Person", [("isActive", true, "compare:"), ("name", false, "compare:")]),
            sorted("Person", [("nickname", true, "caseInsensitiveCompare:")]), sorted("Person", [("posts.@count", true, "compare:")]),
            sorted("Editor", [("level", true, "compare:")], limit: 3),
            FetchCase(entity: "Person", format: "age > 20", sort: [("name", true, "compare:")], includesSubentities: false),
            FetchCase(entity: "Person", format: nil, includesSubentities: false), FetchCase(entity: "Editor"),
            FetchCase(entity: "Person"), FetchCase(entity: "Post", limit: 5), FetchCase(entity: "Tag", offset: 2),
        ]
    }()


    func check(_ testCase: FetchCase) throws {
        let fixture = try #require(SQLiteFetchFixture.shared)
        let compiler = SQLiteFetchCompiler(schema: fixture.schema, model: fixture.model)
        let request = NSFetchRequest<NSManagedObject>(entityName: testCase.entity)
        request.predicate = try testCase.predicate(forSQL: true, in: fixture)
        request.sortDescriptors = testCase.sortDescriptors
        request.fetchLimit = testCase.limit
        request.fetchOffset = testCase.offset
        request.includesSubentities = testCase.includesSubentities
        let expected = fixture.expectedKeys(
            entity: testCase.entity, predicate: try testCase.predicate(forSQL: false, in: fixture),
            sort: testCase.sortDescriptors, limit: testCase.limit, offset: testCase.offset,
            includesSubentities: testCase.includesSubentities)
        let rows = try compiler.compile(request, selection: .rows)
        let ids = try compiler.compile(request, selection: .objectIDs)
        let count = try compiler.compile(request, selection: .count)
        #expect(!rows.sql.contains("'"), "values are bound, never spliced: \(rows.sql)")
        var found = try fixture.primaryKeys(rows)
        var foundIDs = try fixture.primaryKeys(ids)
        if testCase.sort.isEmpty {
            found.sort()
            foundIDs.sort()
        }
        let expectedInOrder = testCase.sort.isEmpty ? expected.sorted() : expected
        #expect(found == expectedInOrder, "\(testCase)\nSQL: \(rows.sql)")
        #expect(foundIDs == expectedInOrder, "\(testCase) (object IDs)")
        #expect(try fixture.primaryKeys(count) == [expected.count], "\(testCase) (count)")
    }

    @Test(
        "comparison operators, nil, IN, BETWEEN, arithmetic and functions match in-memory evaluation",
        arguments: comparisonsCases)
    func comparison(_ testCase: FetchCase) throws { try check(testCase) }

    @Test("string operators under every option, with unicode text, match in-memory evaluation", arguments: stringsCases)
    func string(_ testCase: FetchCase) throws { try check(testCase) }

    @Test(
        "to-one key paths, to-many quantifiers, collection operators, SUBQUERY and object constants match",
        arguments: relationshipsCases)
    func relationship(_ testCase: FetchCase) throws { try check(testCase) }

    @Test("every stored attribute type compares as in memory", arguments: attributeTypesCases)
    func attributeType(_ testCase: FetchCase) throws { try check(testCase) }

    @Test("sort descriptors, limits, offsets and subentities order and page as in memory", arguments: sortingCases)
    func sorting(_ testCase: FetchCase) throws { try check(testCase) }
}

@Suite("SQLite fetch compiler: statement shape and Core Data's SQL semantics")
struct SQLiteFetchCompilerShapeTests {
    @Test("the differential corpus discriminates: most predicates select some rows but not all")
    func corpusDiscriminates() throws {
        let fixture = try #require(SQLiteFetchFixture.shared)
        let cases =
            SQLiteFetchCompilerTests.comparisonsCases + SQLiteFetchCompilerTests.stringsCases
            + SQLiteFetchCompilerTests.relationshipsCases + SQLiteFetchCompilerTests.attributeTypesCases
        var proper = 0
        for testCase in cases {
            let all = fixture.expectedKeys(entity: testCase.entity, predicate: nil, sort: [], limit: 0, offset: 0).count
            let some = fixture.expectedKeys(
                entity: testCase.entity, predicate: try testCase.predicate(forSQL: false, in: fixture),
                sort: [], limit: 0, offset: 0
            ).count
            if some > 0 && some < all { proper += 1 }
        }
        #expect(proper * 10 >= cases.count * 7, "\(proper) of \(cases.count) cases select a proper, non-empty subset")
    }

    @Test("key paths through two to-many relationships flatten, as Core Data's SQL does")
    func nestedToManyFlattens() throws {
        let fixture = try #require(SQLiteFetchFixture.shared)
        let compiler = SQLiteFetchCompiler(schema: fixture.schema, model: fixture.model)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.predicate = NSPredicate(format: "ANY posts.tags.name == 'linux'")
        #expect(try fixture.primaryKeys(compiler.compile(request, selection: .objectIDs)).sorted() == [3, 4])
        request.predicate = NSPredicate(format: "ALL posts.tags.name != 'linux'")
        #expect(try fixture.primaryKeys(compiler.compile(request, selection: .objectIDs)).sorted() == [1, 2, 5, 6, 7, 8])
    }

    @Test("row selections list Z_PK, Z_ENT, Z_OPT, then the fetched entities' attribute and to-one columns")
    func rowColumns() throws {
        let fixture = try #require(SQLiteFetchFixture.shared)
        let compiler = SQLiteFetchCompiler(schema: fixture.schema, model: fixture.model)
        let persons = try compiler.compile(NSFetchRequest<NSManagedObject>(entityName: "Person"), selection: .rows)
        #expect(persons.columns.prefix(3).map(\.role) == [.primaryKey, .entityNumber, .version])
        #expect(persons.columns.map(\.index) == Array(0..<persons.columns.count))
        let level = try #require(persons.columns.first { $0.role == .attribute(name: "level", type: .integer16AttributeType) })
        #expect(level.entities == ["Editor"])
        let name = try #require(persons.columns.first { $0.role == .attribute(name: "name", type: .stringAttributeType) })
        #expect(name.entities == ["Person", "Editor"])
        #expect(!persons.columns.contains { $0.role == .attribute(name: "mood", type: .stringAttributeType) })
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.includesSubentities = false
        let only = try compiler.compile(request, selection: .rows)
        #expect(!only.columns.contains { $0.role == .attribute(name: "level", type: .integer16AttributeType) })
        let posts = try compiler.compile(NSFetchRequest<NSManagedObject>(entityName: "Post"), selection: .rows)
        let roles = posts.columns.map(\.role)
        #expect(roles.contains(.toOneKey(relationship: "author")))
        #expect(roles.contains(.toOneEntity(relationship: "author")))
        #expect(roles.contains(.toOneKey(relationship: "reviewer")))
        #expect(!roles.contains(.toOneEntity(relationship: "reviewer")))
        let row = try fixture.queue.read { db in try Row.fetchOne(db, sql: posts.sql, arguments: posts.arguments) }
        let first = try #require(row)
        #expect(first.count == posts.columns.count)
    }

    @Test("a fetch whose rows are all of one entity selects 0 in place of Z_ENT, as Core Data does, and knows the entity")
    func fixedEntityNumber() throws {
        let fixture = try #require(SQLiteFetchFixture.shared)
        let compiler = SQLiteFetchCompiler(schema: fixture.schema, model: fixture.model)
        let posts = try compiler.compile(NSFetchRequest<NSManagedObject>(entityName: "Post"), selection: .rows)
        #expect(posts.sql.hasPrefix("SELECT t0.Z_PK, 0, t0.Z_OPT, "))
        let postNumber = try #require(fixture.schema.entities.first { $0.name == "Post" }?.number)
        #expect(posts.columns[1].role == .fixedEntityNumber(Int64(postNumber)))
        let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
        request.includesSubentities = false
        let onlyPersons = try compiler.compile(request, selection: .rows)
        #expect(onlyPersons.sql.hasPrefix("SELECT t0.Z_PK, 0, t0.Z_OPT, "))
        let everyone = try compiler.compile(NSFetchRequest<NSManagedObject>(entityName: "Person"), selection: .rows)
        #expect(everyone.sql.hasPrefix("SELECT t0.Z_PK, t0.Z_ENT, t0.Z_OPT, "))
        #expect(everyone.columns[1].role == .entityNumber)
    }

    @Test("values are bound, never spliced, even when they look like SQL")
    func bound() throws {
        let fixture = try #require(SQLiteFetchFixture.shared)
        let compiler = SQLiteFetchCompiler(schema: fixture.schema, model: fixture.model)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Post")
        let hostile = "x'); DROP TABLE ZPOST; --"
        request.predicate = NSPredicate(format: "title == %@ OR title CONTAINS[cd] %@ OR ANY tags.name == %@", hostile, hostile, hostile)
        let query = try compiler.compile(request, selection: .rows)
        #expect(!query.sql.contains("DROP"))
        #expect(try fixture.primaryKeys(query).isEmpty)
        let count = try compiler.compile(NSFetchRequest<NSManagedObject>(entityName: "Post"), selection: .count)
        #expect(try fixture.primaryKeys(count) == [SQLiteFetchFixture.postRows.count])
    }

    @Test("only the requested entity's rows come back when the table holds other entities too")
    func entityRestriction() throws {
        let fixture = try #require(SQLiteFetchFixture.shared)
        let compiler = SQLiteFetchCompiler(schema: fixture.schema, model: fixture.model)
        let editors = try compiler.compile(NSFetchRequest<NSManagedObject>(entityName: "Editor"), selection: .objectIDs)
        #expect(editors.sql.contains("Z_ENT"))
        #expect(try fixture.primaryKeys(editors).sorted() == [3, 4])
        let everyone = try compiler.compile(NSFetchRequest<NSManagedObject>(entityName: "Person"), selection: .objectIDs)
        #expect(!everyone.sql.contains("Z_ENT ="), "a root fetch with subentities needs no entity test")
    }

    @Test("an object of another store matches no row, whatever its primary key")
    func otherStoreObjects() throws {
        let fixture = try #require(SQLiteFetchFixture.shared)
        let id = try fixture.objectID("Person", 1)
        let own = try #require(id.storeIdentifier)
        let request = NSFetchRequest<NSManagedObject>(entityName: "Post")
        request.predicate = NSPredicate(format: "author == %@", id)
        let same = SQLiteFetchCompiler(schema: fixture.schema, model: fixture.model, storeIdentifier: own)
        #expect(try fixture.primaryKeys(same.compile(request, selection: .objectIDs)).sorted() == [1, 2])
        let other = SQLiteFetchCompiler(schema: fixture.schema, model: fixture.model, storeIdentifier: own + "-other")
        #expect(try fixture.primaryKeys(other.compile(request, selection: .objectIDs)).isEmpty)
        request.predicate = NSPredicate(format: "author != %@", id)
        #expect(try fixture.primaryKeys(other.compile(request, selection: .count)) == [SQLiteFetchFixture.postRows.count])
    }
}
