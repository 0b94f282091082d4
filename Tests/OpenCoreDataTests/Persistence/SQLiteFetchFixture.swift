import GRDB
import Testing

@testable import OpenCoreDataCore

/// A real store file for the fetch compiler tests: a blog model (Person with subentity Editor, Post,
/// Tag; to-one, one-to-many and many-to-many relationships), rows inserted with plain SQL in Core Data's
/// layout, and the same data as nested dictionaries for in-memory evaluation by the Query layer.
final class SQLiteFetchFixture: @unchecked Sendable {
    // @unchecked Sendable: every stored property is set once in `init` and only read afterwards; the
    // dictionaries hold immutable Foundation values, and `queue` is a GRDB DatabaseQueue (Sendable).

    static let shared: SQLiteFetchFixture? = try? SQLiteFetchFixture()

    let model: NSManagedObjectModel
    let schema: SQLiteSchema
    let queue: DatabaseQueue
    let store: NSPersistentStore
    /// The rows as records for in-memory evaluation: each has "pk", "entity" and its properties.
    let persons: [FetchRecord]
    let posts: [FetchRecord]
    let tags: [FetchRecord]

    static let reference = Date(timeIntervalSinceReferenceDate: 700_000_000)

    static func makeModel() -> NSManagedObjectModel {
        let person = ModelKit.entity(
            "Person",
            [
                ModelKit.attribute("name", .stringAttributeType),
                ModelKit.attribute("nickname", .stringAttributeType),
                ModelKit.attribute("age", .integer64AttributeType),
                ModelKit.attribute("score", .doubleAttributeType),
                ModelKit.attribute("birthday", .dateAttributeType),
                ModelKit.attribute("isActive", .booleanAttributeType),
                ModelKit.attribute("balance", .decimalAttributeType),
                ModelKit.attribute("uuid", .UUIDAttributeType),
                ModelKit.attribute("homepage", .URIAttributeType),
                ModelKit.attribute("photo", .binaryDataAttributeType),
                ModelKit.attribute("mood", .stringAttributeType, transient: true),
            ])
        let editor = ModelKit.entity("Editor", [ModelKit.attribute("level", .integer16AttributeType)])
        person.subentities = [editor]
        let post = ModelKit.entity(
            "Post",
            [
                ModelKit.attribute("title", .stringAttributeType),
                ModelKit.attribute("likes", .integer32AttributeType),
                ModelKit.attribute("rating", .floatAttributeType),
                ModelKit.attribute("published", .dateAttributeType),
            ])
        let tag = ModelKit.entity("Tag", [ModelKit.attribute("name", .stringAttributeType)])
        let posts = ModelKit.relationship("posts", to: post, toMany: true)
        let author = ModelKit.relationship("author", to: person)
        ModelKit.pair(posts, author)
        let tagsOfPost = ModelKit.relationship("tags", to: tag, toMany: true)
        let postsOfTag = ModelKit.relationship("posts", to: post, toMany: true)
        ModelKit.pair(tagsOfPost, postsOfTag)
        let reviewer = ModelKit.relationship("reviewer", to: editor)
        person.properties += [posts]
        post.properties += [author, tagsOfPost, reviewer]
        tag.properties += [postsOfTag]
        let model = NSManagedObjectModel()
        model.entities = [person, editor, post, tag]
        return model
    }

    /// Person rows: pk, entity, name, nickname, age, score, birthday offset (days), isActive, balance, level.
    static let personRows: [(Int, String, String?, String?, Int?, Double?, Double?, Bool?, String?, Int?)] = [
        (1, "Person", "Chloé", nil, 31, 4.5, 0, true, "12.50", nil),
        (2, "Person", "ÉLODIE", "elo", 25, -1.25, 100, false, "0.1", nil),
        (3, "Editor", "straße", "Strasse", 40, 2, -50, true, "1000", 3),
        (4, "Editor", "zoë 🎉", nil, nil, 0, nil, nil, "-3.75", 1),
        (5, "Person", "chloe", "Chloe", 31, nil, 10, true, nil, nil),
        (6, "Person", "Bob_%", "bob", 19, 9.75, 20, false, "2", nil),
        (7, "Person", nil, nil, nil, nil, nil, nil, nil, nil),
        (8, "Person", "Émile", "emile", 52, 3, 30, true, "7.25", nil),
    ]

    /// Post rows: pk, title, likes, rating, published offset (days), author pk, reviewer pk, tag pks.
    static let postRows: [(Int, String?, Int?, Double?, Double?, Int?, Int?, [Int])] = [
        (1, "Hello World", 5, 4.5, 1, 1, 3, [1, 2]),
        (2, "hello world", 12, 3.25, 2, 1, nil, [1]),
        (3, "Café au lait", 3, 5, 3, 2, 4, [3]),
        (4, "CAFE", 0, 1.5, nil, 2, 3, []),
        (5, "100% pure", 7, 2.5, 5, 3, nil, [2, 4]),
        (6, "under_score", nil, nil, 6, 3, nil, [1, 2, 3, 4]),
        (7, "emoji 😀 post", 9, 4, 7, 4, 4, [4]),
        (8, "Straße", 1, 0.5, 8, 5, nil, [3]),
        (9, "a*b?c", 2, 2, 9, nil, 3, [1]),
        (10, nil, 4, 3.5, 10, 6, nil, [2]),
        (11, "Über Alles", 6, nil, 11, 8, nil, []),
        (12, "zebra", 8, 4.75, nil, 8, nil, [1, 3]),
    ]

    static let tagRows: [(Int, String?)] = [(1, "swift"), (2, "Core Data"), (3, "café"), (4, "linux")]

    static func uuid(_ pk: Int) -> UUID {
        UUID(uuidString: String(format: "%08X-0000-4000-8000-%012X", pk, pk * 7919)) ?? UUID()
    }

    init() throws {
        model = Self.makeModel()
        let schema = try SQLiteSchema(model: model)
        self.schema = schema
        let url = try Fixtures.temporaryDirectory().appendingPathComponent("Blog.sqlite")
        try SQLiteStoreCreation.createStore(at: url, model: model)
        var configuration = Configuration()
        configuration.prepareDatabase { db in SQLiteFunctions.register(in: db) }
        queue = try DatabaseQueue(path: url.path, configuration: configuration)
        store = NSPersistentStore(persistentStoreCoordinator: nil, configurationName: nil, at: url, options: nil)
        store.identifier = "6F1E4C2A-0000-4000-8000-0000000000F1"

        func layout(_ name: String) throws -> SQLiteEntityLayout {
            try #require(schema.entity(named: name))
        }
        let person = try layout("Person"), editor = try layout("Editor"), post = try layout("Post"), tag = try layout("Tag")
        guard case .foreignKey(let authorColumn, let authorEntityColumn, _)? = post.relationships["author"],
            case .foreignKey(let reviewerColumn, _, _)? = post.relationships["reviewer"],
            case .joinTable(let joinTable, let postColumn, let tagColumn, _)? = post.relationships["tags"],
            let authorEntityColumn
        else {
            throw NSError(domain: "SQLiteFetchFixture", code: 1)
        }

        var personDicts: [Int: [String: Any]] = [:]
        var postDicts: [Int: [String: Any]] = [:]
        var tagDicts: [Int: [String: Any]] = [:]
        try queue.write { db in
            for row in Self.personRows {
                let entity = row.1 == "Editor" ? editor : person
                var values: [String: Any] = ["pk": row.0, "entity": row.1]
                values["name"] = row.2
                values["nickname"] = row.3
                values["age"] = row.4
                values["score"] = row.5
                values["birthday"] = row.6.map { Self.reference.addingTimeInterval($0 * 86_400) }
                values["isActive"] = row.7
                values["balance"] = row.8.flatMap { NSDecimalNumber(string: $0) }
                values["level"] = row.9
                if row.2 != nil {
                    values["uuid"] = Self.uuid(row.0)
                    values["homepage"] = URL(string: "https://example.com/people/\(row.0)?q=é")
                    values["photo"] = Data([UInt8(row.0), 0, 255, UInt8(row.0 * 3)])
                }
                var columns = ["Z_PK", "Z_ENT", "Z_OPT"]
                var arguments: [DatabaseValue] = [Int64(row.0).databaseValue, Int64(entity.number).databaseValue, 1.databaseValue]
                let types: [String: NSAttributeType] = [
                    "name": .stringAttributeType, "nickname": .stringAttributeType, "age": .integer64AttributeType,
                    "score": .doubleAttributeType, "birthday": .dateAttributeType, "isActive": .booleanAttributeType,
                    "balance": .decimalAttributeType, "uuid": .UUIDAttributeType, "homepage": .URIAttributeType,
                    "photo": .binaryDataAttributeType, "level": .integer16AttributeType,
                ]
                for (key, type) in types.sorted(by: { $0.key < $1.key }) {
                    guard let value = values[key], let column = entity.attributeColumns[key] else { continue }
                    columns.append(column)
                    arguments.append(SQLiteValueEncoding.databaseValue(for: value, attributeType: type))
                }
                let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
                try db.execute(
                    sql: "INSERT INTO \(person.table) (\(columns.joined(separator: ", "))) VALUES (\(marks))",
                    arguments: StatementArguments(arguments))
                personDicts[row.0] = values
            }
            for row in Self.tagRows {
                try db.execute(
                    sql: "INSERT INTO \(tag.table) (Z_PK, Z_ENT, Z_OPT, \(tag.attributeColumns["name"] ?? "")) VALUES (?, ?, 1, ?)",
                    arguments: [row.0, tag.number, row.1])
                var values: [String: Any] = ["pk": row.0, "entity": "Tag"]
                values["name"] = row.1
                tagDicts[row.0] = values
            }
            for row in Self.postRows {
                let published = row.4.map { Self.reference.addingTimeInterval($0 * 86_400) }
                let authorEntity: Int? = row.5.map { pk in Self.personRows.first { $0.0 == pk }?.1 == "Editor" ? editor.number : person.number }
                try db.execute(
                    sql: """
                        INSERT INTO \(post.table) (Z_PK, Z_ENT, Z_OPT, \(post.attributeColumns["title"] ?? ""), \
                        \(post.attributeColumns["likes"] ?? ""), \(post.attributeColumns["rating"] ?? ""), \
                        \(post.attributeColumns["published"] ?? ""), \(authorColumn), \(authorEntityColumn), \(reviewerColumn))
                        VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        row.0, post.number, row.1, row.2, row.3,
                        published?.timeIntervalSinceReferenceDate, row.5, authorEntity ?? 1, row.6,
                    ])
                for tagPK in row.7 {
                    try db.execute(
                        sql: "INSERT INTO \(joinTable) (\(postColumn), \(tagColumn)) VALUES (?, ?)",
                        arguments: [row.0, tagPK])
                }
                var values: [String: Any] = ["pk": row.0, "entity": "Post"]
                values["title"] = row.1
                values["likes"] = row.2
                values["rating"] = row.3.map { Double(Float($0)) }
                values["published"] = published
                postDicts[row.0] = values
            }
        }
        // Link the records: relationships hold the records themselves, so an object compares equal
        // only to itself (as managed objects do) and key paths can go through any number of levels.
        func record(_ values: [String: Any]?) -> FetchRecord { FetchRecord(values ?? [:]) }
        let personRecords = Dictionary(uniqueKeysWithValues: Self.personRows.map { ($0.0, record(personDicts[$0.0])) })
        let postRecords = Dictionary(uniqueKeysWithValues: Self.postRows.map { ($0.0, record(postDicts[$0.0])) })
        let tagRecords = Dictionary(uniqueKeysWithValues: Self.tagRows.map { ($0.0, record(tagDicts[$0.0])) })
        for row in Self.postRows {
            guard let post = postRecords[row.0] else { continue }
            post.values["author"] = row.5.flatMap { personRecords[$0] }
            post.values["reviewer"] = row.6.flatMap { personRecords[$0] }
            post.values["tags"] = row.7.compactMap { tagRecords[$0] }
        }
        for row in Self.personRows {
            personRecords[row.0]?.values["posts"] = Self.postRows.filter { $0.5 == row.0 }.compactMap { postRecords[$0.0] }
        }
        for row in Self.tagRows {
            tagRecords[row.0]?.values["posts"] = Self.postRows.filter { $0.7.contains(row.0) }.compactMap { postRecords[$0.0] }
        }
        persons = Self.personRows.compactMap { personRecords[$0.0] }
        posts = Self.postRows.compactMap { postRecords[$0.0] }
        tags = Self.tagRows.compactMap { tagRecords[$0.0] }
    }

    /// The ID of a row of the store.
    func objectID(_ entityName: String, _ pk: Int) throws -> NSManagedObjectID {
        let entity = try #require(model.entitiesByName[entityName])
        return NSManagedObjectID(entity: entity, store: store, primaryKey: Int64(pk))
    }

    /// The record standing for a row in in-memory evaluation.
    func record(_ entityName: String, _ pk: Int) -> FetchRecord? {
        switch entityName {
        case "Post": return posts.first { $0.pk == pk }
        case "Tag": return tags.first { $0.pk == pk }
        default: return persons.first { $0.pk == pk }
        }
    }

    /// Runs a compiled query and returns the first column of every row as Z_PKs.
    func primaryKeys(_ query: SQLiteCompiledQuery) throws -> [Int] {
        try queue.read { db in
            try Row.fetchAll(db, sql: query.sql, arguments: query.arguments).map { row in
                let value: Int64 = row[0]
                return Int(value)
            }
        }
    }

    /// The Z_PKs in-memory evaluation selects for a request: filter, stable sort, offset, limit.
    func expectedKeys(
        entity: String, predicate: NSPredicate?, sort: [NSSortDescriptor], limit: Int, offset: Int,
        includesSubentities: Bool = true
    ) -> [Int] {
        var rows: [FetchRecord]
        switch entity {
        case "Post": rows = posts
        case "Tag": rows = tags
        case "Editor": rows = persons.filter { $0.entity == "Editor" }
        default:
            rows = includesSubentities ? persons : persons.filter { $0.entity == "Person" }
        }
        if let predicate { rows = rows.filter { predicate.evaluate(with: $0) } }
        if !sort.isEmpty { rows = rows.sortedArray(using: sort) }
        var keys = rows.map(\.pk)
        keys = Array(keys.dropFirst(offset))
        if limit > 0 { keys = Array(keys.prefix(limit)) }
        return keys
    }
}

/// A row in memory: its values by key, relationships holding other records. Compared by identity, as
/// managed objects are.
final class FetchRecord: NSObject, KeyValueCoding, @unchecked Sendable {
    // @unchecked Sendable: `values` is filled while the fixture is built, before it is shared, and only
    // read afterwards.
    var values: [String: Any]

    init(_ values: [String: Any]) {
        self.values = values
    }

    var pk: Int { values["pk"] as? Int ?? 0 }
    var entity: String { values["entity"] as? String ?? "" }

    func value(forKey key: String) -> Any? { values[key] }
}
