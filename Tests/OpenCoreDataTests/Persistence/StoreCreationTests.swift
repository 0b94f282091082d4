import GRDB
import Testing

@testable import OpenCoreDataCore

/// Creating a new, empty SQLite store file from a model: the file has Core Data's layout, checked
/// with SQLite-level queries against the files Apple's Core Data wrote for the same models.
@Suite("Store creation")
struct StoreCreationTests {
    /// The structure of a database as SQLite reports it: table → column → declared type, and index
    /// name → table. Column order is not compared: Core Data addresses columns by name.
    struct Structure: Equatable {
        var columns: [String: [String: String]] = [:]
        var indexes: [String: String] = [:]
    }

    static func structure(of url: URL) throws -> Structure {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            var structure = Structure()
            for row in try Row.fetchAll(db, sql: "SELECT type, name, tbl_name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'") {
                let type: String = row["type"]
                let name: String = row["name"]
                if type == "table" {
                    var columns: [String: String] = [:]
                    for info in try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info(?)", arguments: [name]) {
                        columns[info["name"]] = info["type"]
                    }
                    structure.columns[name] = columns
                } else if type == "index" {
                    structure.indexes[name] = row["tbl_name"]
                }
            }
            return structure
        }
    }

    static func pragma(_ name: String, of url: URL) throws -> String? {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchOne(db, sql: "PRAGMA \(name)") }
    }

    @Test(
        "a store created for a fixture model has exactly the tables, columns, types and indexes Apple's Core Data wrote",
        arguments: AppleStoreSchemaTests.cases)
    func createdMatchesApple(_ testCase: AppleStoreSchemaTests.Case) throws {
        let (directory, appleStore) = try AppleStoreSchemaTests.copy(testCase)
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try AppleStoreSchemaTests.model(testCase)
        let created = directory.appendingPathComponent("Created.sqlite")
        let metadata = try SQLiteStoreCreation.createStore(at: created, model: model)

        var apple = try Self.structure(of: appleStore)
        // A leftover index of the Apple-written Bookmarks file that no model version declares.
        apple.indexes["Z_BookmarkEntity_isPendingDeletion"] = nil
        let ours = try Self.structure(of: created)
        #expect(ours.columns == apple.columns)
        #expect(ours.indexes == apple.indexes)

        #expect(try SQLiteSchema(model: model).differences(inStoreAt: created).isEmpty)
        #expect(try Self.pragma("integrity_check", of: created) == "ok")
        #expect(try Self.pragma("journal_mode", of: created) == "wal")
        #expect(try Self.pragma("auto_vacuum", of: created) == "2")

        let read = try SQLiteStoreMetadata.read(fromStoreAt: created)
        #expect(read.uuid == metadata.uuid)
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: read.dictionary))
    }

    @Test("a store created for the rebuilt Recipes model matches the 2009 Apple-written file, which lacks only Z_MODELCACHE")
    func createdMatchesRecipes() throws {
        let (directory, appleStore) = try AppleStoreSchemaTests.copy(AppleStoreSchemaTests.recipes)
        defer { try? FileManager.default.removeItem(at: directory) }
        let created = directory.appendingPathComponent("Created.sqlite")
        try SQLiteStoreCreation.createStore(at: created, model: AppleStoreSchemaTests.recipesModel())
        var ours = try Self.structure(of: created)
        #expect(ours.columns.removeValue(forKey: "Z_MODELCACHE") != nil)
        #expect(ours == (try Self.structure(of: appleStore)))
    }

    @Test(
        "Z_PRIMARYKEY gets one row per entity with the entity numbers of the Apple-written file and Z_MAX 0",
        arguments: AppleStoreSchemaTests.cases)
    func primaryKeyRows(_ testCase: AppleStoreSchemaTests.Case) throws {
        let (directory, appleStore) = try AppleStoreSchemaTests.copy(testCase)
        defer { try? FileManager.default.removeItem(at: directory) }
        let created = directory.appendingPathComponent("Created.sqlite")
        try SQLiteStoreCreation.createStore(at: created, model: AppleStoreSchemaTests.model(testCase))
        let query = "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT"
        func rows(_ url: URL) throws -> [String] {
            try DatabaseQueue(path: url.path).read { db in
                try Row.fetchAll(db, sql: query).map { "\($0["Z_ENT"] as Int) \($0["Z_NAME"] as String) \($0["Z_SUPER"] as Int)" }
            }
        }
        #expect(try rows(created) == rows(appleStore))
        let maxima = try DatabaseQueue(path: created.path).read { db in try Int.fetchAll(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY") }
        #expect(!maxima.isEmpty && maxima.allSatisfy { $0 == 0 })
    }

    /// The first seed's User/Post model, as `ocd demo` builds it.
    static func userPostModel() -> NSManagedObjectModel {
        func attribute(_ name: String, _ type: NSAttributeType, optional: Bool = true) -> NSAttributeDescription {
            let attribute = NSAttributeDescription()
            attribute.name = name
            attribute.attributeType = type
            attribute.isOptional = optional
            return attribute
        }
        let user = NSEntityDescription()
        user.name = "User"
        user.properties = [
            attribute("name", .stringAttributeType, optional: false), attribute("age", .integer32AttributeType),
            attribute("email", .stringAttributeType), attribute("createdAt", .dateAttributeType, optional: false),
        ]
        let post = NSEntityDescription()
        post.name = "Post"
        post.properties = [
            attribute("title", .stringAttributeType, optional: false), attribute("content", .stringAttributeType),
            attribute("publishedAt", .dateAttributeType),
        ]
        let posts = NSRelationshipDescription()
        posts.name = "posts"
        posts.destinationEntity = post
        posts.maxCount = 0
        let author = NSRelationshipDescription()
        author.name = "author"
        author.destinationEntity = user
        author.maxCount = 1
        posts.inverseRelationship = author
        author.inverseRelationship = posts
        user.properties += [posts]
        post.properties += [author]
        let model = NSManagedObjectModel()
        model.entities = [user, post]
        return model
    }

    @Test("the first seed's User/Post model creates ZUSER and ZPOST with Core Data's columns, foreign key and index")
    func userPostStore() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Blog.sqlite")
        try SQLiteStoreCreation.createStore(at: url, model: Self.userPostModel())
        let structure = try Self.structure(of: url)
        #expect(
            structure.columns == [
                "ZPOST": [
                    "Z_PK": "INTEGER", "Z_ENT": "INTEGER", "Z_OPT": "INTEGER", "ZAUTHOR": "INTEGER",
                    "ZPUBLISHEDAT": "TIMESTAMP", "ZCONTENT": "VARCHAR", "ZTITLE": "VARCHAR",
                ],
                "ZUSER": [
                    "Z_PK": "INTEGER", "Z_ENT": "INTEGER", "Z_OPT": "INTEGER", "ZAGE": "INTEGER",
                    "ZCREATEDAT": "TIMESTAMP", "ZEMAIL": "VARCHAR", "ZNAME": "VARCHAR",
                ],
                "Z_PRIMARYKEY": ["Z_ENT": "INTEGER", "Z_NAME": "VARCHAR", "Z_SUPER": "INTEGER", "Z_MAX": "INTEGER"],
                "Z_METADATA": ["Z_VERSION": "INTEGER", "Z_UUID": "VARCHAR(255)", "Z_PLIST": "BLOB"],
                "Z_MODELCACHE": ["Z_CONTENT": "BLOB"],
            ])
        #expect(structure.indexes == ["ZPOST_ZAUTHOR_INDEX": "ZPOST"])
        let rows = try DatabaseQueue(path: url.path).read { db in
            try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
                .map { "\($0["Z_ENT"] as Int) \($0["Z_NAME"] as String) \($0["Z_SUPER"] as Int) \($0["Z_MAX"] as Int)" }
        }
        #expect(rows == ["1 Post 0 0", "2 User 0 0"])
        #expect(try Self.pragma("integrity_check", of: url) == "ok")
    }

    @Test("creating a store where a file exists fails naming the file and leaves the file as it was")
    func refusesExistingFile() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Existing.sqlite")
        try Data("keep me".utf8).write(to: url)
        let error = try #require(throws: NSError.self) {
            try SQLiteStoreCreation.createStore(at: url, model: Self.userPostModel())
        }
        #expect(error.code == NSPersistentStoreOperationError)
        #expect(error.localizedDescription.contains(url.path))
        #expect(try Data(contentsOf: url) == Data("keep me".utf8))
    }

    @Test("a model that cannot be laid out fails before any file is written")
    func unstorableModelWritesNothing() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = Self.userPostModel()
        let post = try #require(model.entitiesByName["Post"])
        let title = try #require(post.propertiesByName["title"])
        let index = NSFetchIndexDescription(
            name: "byTitle",
            elements: [
                NSFetchIndexElementDescription(property: title, collationType: .binary)
            ])
        index.partialIndexPredicate = NSPredicate(format: "title != nil")
        post.indexes = [index]
        let url = directory.appendingPathComponent("Never.sqlite")
        let error = try #require(throws: NSError.self) { try SQLiteStoreCreation.createStore(at: url, model: model) }
        #expect(error.code == NSCoreDataError)
        #expect(error.localizedDescription.contains("byTitle"))
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test("a created store records the given UUID and the user's metadata keys")
    func userMetadataPersists() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Blog.sqlite")
        let uuid = "6E1F1C1A-2B3C-4D5E-8F90-A1B2C3D4E5F6"
        try SQLiteStoreCreation.createStore(at: url, model: Self.userPostModel(), metadata: ["Owner": "Ann"], uuid: uuid)
        let read = try SQLiteStoreMetadata.read(fromStoreAt: url)
        #expect(read.uuid == uuid)
        #expect(read.dictionary["Owner"] as? String == "Ann")
        #expect(read.dictionary[NSStoreUUIDKey] as? String == uuid)
    }
}
