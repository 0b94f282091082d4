import GRDB
import Testing

@testable import OpenCoreDataCore

/// The layout computed from a model is exactly the layout Apple's Core Data wrote for it, on the
/// Apple-written stores in Tests/Fixtures/stores (copied to a temporary directory first).
///
/// The Recipes store's model exists only in the Xcode 3 binary format, which the model reader does not
/// load; its tests rebuild that model in code and first prove the rebuild is the writing model: every
/// entity's version hash equals the hash the store recorded.
@Suite("Apple-written store schemas")
struct AppleStoreSchemaTests {
    /// A store, the bundle version that wrote it, and the store file's name.
    struct Case: CustomTestStringConvertible, Sendable {
        let folder: String
        let bundle: String
        let version: String
        let store: String
        var testDescription: String { store }
    }

    static let cases: [Case] = [
        Case(
            folder: "alemar11__CoreDataPlus__SampleModel_V1", bundle: "SampleModel.xcdatamodeld",
            version: "SampleModel.xcdatamodel", store: "SampleModel_V1.sqlite"),
        Case(
            folder: "duckduckgo__BrowserServicesKit__Bookmarks_V5", bundle: "BookmarksModel.xcdatamodeld",
            version: "BookmarksModel 5.xcdatamodel", store: "Bookmarks_V5.sqlite"),
        Case(
            folder: "wibosco__CoreDataMigrationRevised-Example__CoreDataMigration_Example_3",
            bundle: "CoreDataMigration_Example.xcdatamodeld", version: "CoreDataMigration_Example 3.xcdatamodel",
            store: "CoreDataMigration_Example_3.sqlite"),
    ]

    /// Copies a fixture folder to a new temporary directory and returns the copy's store URL.
    static func copy(_ testCase: Case) throws -> (directory: URL, store: URL) {
        let directory = try Fixtures.temporaryDirectory()
        let source = Fixtures.stores.appendingPathComponent(testCase.folder)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(
                at: source.appendingPathComponent(name),
                to: directory.appendingPathComponent(name))
        }
        return (directory, directory.appendingPathComponent(testCase.store))
    }

    static func model(_ testCase: Case, version: String? = nil) throws -> NSManagedObjectModel {
        try NSManagedObjectModel.load(
            from: Fixtures.stores.appendingPathComponent(testCase.folder)
                .appendingPathComponent(testCase.bundle).appendingPathComponent(version ?? testCase.version))
    }

    /// Differences each other bundle version must report against the store (all of them where the
    /// list is short, the telling ones otherwise).
    static let otherVersionDifferences: [String: (all: Bool, differences: [String])] = [
        // LuxuryCar is ExpensiveSportCar renamed: entity 3 under its old name is the same entity (Apple's
        // Core Data keeps the old name in Z_PRIMARYKEY after a renaming migration), not a difference.
        "SampleModel2.xcdatamodel": (
            true,
            [
                "missing index Z_Car_byMakerAndNumberPlate", "unexpected column ZCAR.ZCOLOR", "unexpected column ZPERSON.ZID",
            ]
        ),
        "SampleModel3.xcdatamodel": (
            false,
            [
                "entity Person has number 4, the model implies 5", "missing table ZMAKER",
                "missing table Z_1PREVIOUSOWNERS", "missing column ZCAR.ZCREATEDBY INTEGER",
            ]
        ),
        "BookmarksModel.xcdatamodel": (
            false,
            [
                "unexpected table Z_1FAVORITES", "missing column ZBOOKMARKENTITY.ZISFAVORITE INTEGER",
            ]
        ),
        "BookmarksModel 2.xcdatamodel": (
            false,
            [
                "index Z_BookmarkEntity_byURL is ON ZBOOKMARKENTITY (ZURL, ZISPENDINGDELETION), the model implies ON ZBOOKMARKENTITY (ZURL)",
                "unexpected column ZBOOKMARKENTITY.ZISPENDINGDELETION",
            ]
        ),
        "BookmarksModel 3.xcdatamodel": (
            false,
            [
                "missing column ZBOOKMARKENTITY.ZFAVORITEFOLDER INTEGER",
                "missing column ZBOOKMARKENTITY.Z_FOK_FAVORITEFOLDER INTEGER", "unexpected table Z_1FAVORITES",
            ]
        ),
        "BookmarksModel 4.xcdatamodel": (
            true,
            [
                "unexpected column ZBOOKMARKENTITY.ZLASTCHILDRENPAYLOADRECEIVEDFROMSYNC",
                "unexpected index Z_BookmarkEntity_isPendingDeletion",
            ]
        ),
        "BookmarksModel 6.xcdatamodel": (
            true,
            [
                "missing column ZBOOKMARKENTITY.ZISSTUB INTEGER", "unexpected index Z_BookmarkEntity_isPendingDeletion",
            ]
        ),
        "CoreDataMigration_Example.xcdatamodel": (
            false,
            [
                "missing column ZPOST.ZCOLOR VARCHAR", "unexpected column ZPOST.ZHEXCOLOR", "unexpected table ZSECTION",
                "Z_PRIMARYKEY lists entity Section (2), which the model lacks",
            ]
        ),
        "CoreDataMigration_Example 2.xcdatamodel": (
            false,
            [
                "missing column ZPOST.ZCONTENT VARCHAR", "unexpected table ZSECTION",
            ]
        ),
        "CoreDataMigration_Example 4.xcdatamodel": (true, ["missing column ZPOST.ZSOFTDELETED INTEGER"]),
    ]

    @Test(
        "the model version that wrote a store implies exactly the store's tables, columns, indexes and entity numbers",
        arguments: cases)
    func writingVersionIsCompatible(_ testCase: Case) throws {
        let (directory, store) = try Self.copy(testCase)
        defer { try? FileManager.default.removeItem(at: directory) }
        let schema = try SQLiteSchema(model: Self.model(testCase))
        let differences = try schema.differences(inStoreAt: store)
        #expect(differences.areCompatible)
        if testCase.store == "Bookmarks_V5.sqlite" {
            // An index no version of the model declares (a leftover in the Apple-written file): tolerated.
            #expect(differences.map(\.description) == ["unexpected index Z_BookmarkEntity_isPendingDeletion"])
        } else {
            #expect(differences.map(\.description) == [])
        }
    }

    @Test("every other version of the bundle is incompatible, with the differences named", arguments: cases)
    func otherVersionsDiffer(_ testCase: Case) throws {
        let (directory, store) = try Self.copy(testCase)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = Fixtures.stores.appendingPathComponent(testCase.folder).appendingPathComponent(testCase.bundle)
        var checked = 0
        for version in try NSManagedObjectModel.versions(inBundleAt: bundle) where version.url.lastPathComponent != testCase.version {
            let name = version.url.lastPathComponent
            let schema = try SQLiteSchema(model: version.loadModel())
            let differences = try schema.differences(inStoreAt: store)
            #expect(!differences.areCompatible, "\(name)")
            let expected = try #require(Self.otherVersionDifferences[name], "\(name)")
            let found = differences.map(\.description)
            if expected.all {
                #expect(found == expected.differences, "\(name)")
            } else {
                for difference in expected.differences {
                    #expect(found.contains(difference), "\(name): \(difference)")
                }
            }
            checked += 1
        }
        #expect(checked >= 2)
    }

    @Test(
        "the statements that create the layout are, table by table and index by index, the ones Apple's Core Data wrote",
        arguments: cases)
    func createStatementsMatchTheStore(_ testCase: Case) throws {
        let (directory, store) = try Self.copy(testCase)
        defer { try? FileManager.default.removeItem(at: directory) }
        let schema = try SQLiteSchema(model: Self.model(testCase))
        let queue = try SQLiteStoreFileAccess.openForReading(store)
        let written: [String: String] = try queue.read { db in
            var result: [String: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL") {
                result[row["name"]] = row["sql"]
            }
            return result
        }
        for table in schema.tables {
            #expect(written[table.name] == table.createStatement)
        }
        for index in schema.indexes {
            #expect(written[index.name] == index.createStatement)
        }
        #expect(written["Z_PRIMARYKEY"] == SQLiteBookkeepingTables.createPrimaryKey)
        #expect(written["Z_METADATA"] == SQLiteBookkeepingTables.createMetadata)
        #expect(written["Z_MODELCACHE"] == SQLiteBookkeepingTables.createModelCache)
    }

    @Test("reading a store's structure leaves its files byte for byte as they were")
    func readingLeavesFilesUntouched() throws {
        let testCase = Self.cases[1]
        let (directory, store) = try Self.copy(testCase)
        defer { try? FileManager.default.removeItem(at: directory) }
        let names = ["", "-wal"].map { store.path + $0 }
        let before = try names.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        _ = try SQLiteSchema(model: Self.model(testCase)).differences(inStoreAt: store)
        let after = try names.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(before == after)
    }

    // MARK: Recipes (framework version 241, no Z_MODELCACHE)

    /// Apple's iPhoneCoreDataRecipes model, as the 2009 Recipes store was written by it: rebuilt in
    /// code from the store's tables and fitted to the store's version hashes (optionality, minimum
    /// counts and the Transformable type are what the hashes require).
    static func recipesModel() -> NSManagedObjectModel {
        typealias K = ModelKit
        func string(_ name: String, optional: Bool = true) -> NSAttributeDescription {
            K.attribute(name, .stringAttributeType, optional: optional)
        }
        func relationship(
            _ name: String, _ destination: NSEntityDescription, toMany: Bool, minCount: Int,
            optional: Bool = true
        ) -> NSRelationshipDescription {
            let relationship = K.relationship(name, to: destination, toMany: toMany, optional: optional)
            relationship.minCount = minCount
            return relationship
        }
        let image = K.entity("Image", [K.attribute("image", .transformableAttributeType)])
        let ingredient = K.entity(
            "Ingredient",
            [
                string("amount"), K.attribute("displayOrder", .integer16AttributeType, optional: false),
                string("name", optional: false),
            ])
        let recipe = K.entity(
            "Recipe",
            [
                string("instructions"), string("name"), string("overview"), string("prepTime"),
                K.attribute("thumbnailImage", .transformableAttributeType),
            ])
        let recipeType = K.entity("RecipeType", [string("name")])
        let recipeImage = relationship("image", image, toMany: false, minCount: 1)
        let imageRecipe = relationship("recipe", recipe, toMany: false, minCount: 1, optional: false)
        let ingredients = relationship("ingredients", ingredient, toMany: true, minCount: 0)
        let ingredientRecipe = relationship("recipe", recipe, toMany: false, minCount: 1)
        let type = relationship("type", recipeType, toMany: false, minCount: 1)
        let recipes = relationship("recipes", recipe, toMany: true, minCount: 0)
        K.pair(recipeImage, imageRecipe)
        K.pair(ingredients, ingredientRecipe)
        K.pair(type, recipes)
        image.properties += [imageRecipe]
        ingredient.properties += [ingredientRecipe]
        recipe.properties += [recipeImage, ingredients, type]
        recipeType.properties += [recipes]
        let model = NSManagedObjectModel()
        model.entities = [recipe, image, ingredient, recipeType]
        return model
    }

    static let recipes = Case(
        folder: "magicalpanda__MagicalRecord__Recipes", bundle: "Recipes.xcdatamodeld",
        version: "Recipes.xcdatamodel", store: "Recipes.sqlite")

    @Test("the Recipes model rebuilt in code is the one that wrote the store, and implies exactly its layout")
    func recipesStore() throws {
        let (directory, store) = try Self.copy(Self.recipes)
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = Self.recipesModel()
        let metadata = try SQLiteStoreMetadata.read(fromStoreAt: store)
        #expect(NSManagedObjectModel._versionHashes(inMetadata: metadata.dictionary) == model.entityVersionHashesByName)
        let differences = try SQLiteSchema(model: model).differences(inStoreAt: store)
        // A store written before Core Data kept a model cache has no Z_MODELCACHE table: not a difference.
        #expect(differences.map(\.description) == [])
        let schema = try SQLiteSchema(model: model)
        #expect(schema.entity(named: "Recipe")?.relationships["image"] == .foreignKey(column: "ZIMAGE", entityColumn: nil, orderColumn: nil))
        #expect(schema.entity(named: "Image")?.relationships["recipe"] == .foreignKey(column: "ZRECIPE", entityColumn: nil, orderColumn: nil))
    }

    @Test("structural checks ignore history and CloudKit tables and their Z_PRIMARYKEY rows, and name tampering precisely")
    func tamperedCopies() throws {
        let testCase = Self.cases[2]
        let (directory, store) = try Self.copy(testCase)
        defer { try? FileManager.default.removeItem(at: directory) }
        let schema = try SQLiteSchema(model: Self.model(testCase))
        let queue = try DatabaseQueue(path: store.path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE ATRANSACTIONSTRING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR)")
            try db.execute(sql: "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME)")
            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY VALUES (16003, 'TRANSACTIONSTRING', 0, 2)")
        }
        #expect(try schema.differences(inStoreAt: store).map(\.description) == [])
        try queue.write { db in
            try db.execute(sql: "ALTER TABLE ZPOST ADD COLUMN ZEXTRA VARCHAR")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_ENT = 7 WHERE Z_NAME = 'Section'")
            try db.execute(sql: "DROP INDEX ZSECTION_ZPOST_INDEX")
        }
        try queue.close()
        let differences = try schema.differences(inStoreAt: store)
        #expect(
            differences.map(\.description) == [
                "entity Section has number 7, the model implies 2",
                "missing index ZSECTION_ZPOST_INDEX",
                "unexpected column ZPOST.ZEXTRA",
            ])
        #expect(!differences.areCompatible)
    }
}
