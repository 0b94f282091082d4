import OpenCoreData
import Testing

/// The entity version hashes of the models beside the Apple-written stores in Tests/Fixtures/stores,
/// computed from the model files, equal the hashes those stores record (shared/VERSION-HASH.md's table).
///
/// The Recipes store is not here: its model exists only in the Xcode 3 binary format, which the reader
/// does not support (loading it throws; see ModelFileErrorTests).
@Suite("Store model version hashes")
struct StoreModelVersionHashTests {
    /// A store folder, the model version that wrote the store, and the hashes the store records.
    struct Case: CustomTestStringConvertible, Sendable {
        let folder: String
        let bundle: String
        let version: String
        let hashes: [String: String]
        var testDescription: String { "\(bundle)/\(version)" }
    }

    static let cases: [Case] = [
        Case(
            folder: "alemar11__CoreDataPlus__SampleModel_V1", bundle: "SampleModel.xcdatamodeld",
            version: "SampleModel.xcdatamodel",
            hashes: [
                "Car": "9e555529072158220d1bacd2f80a3dad4919f74a32aa8be9ee22a6a7b4126c8f",
                "ExpensiveSportCar": "3dc7e32b1be45b5a4c795ac9af3e1d10aa7222d3c69ae805bbeb4408bdeba480",
                "Person": "164268551b45108ae763aa2ba61ff32d32d32323850987c3e21607c8da44b72b",
                "SportCar": "514ec1907a568299f9fb6851106516136f0755f45fa53a823a0e4d44013d5313",
            ]),
        Case(
            folder: "duckduckgo__BrowserServicesKit__Bookmarks_V5", bundle: "BookmarksModel.xcdatamodeld",
            version: "BookmarksModel 5.xcdatamodel",
            hashes: [
                "BookmarkEntity": "84f07c047d39108d666df9d08af728b3197383bda698febf3b90997db4fd5929"
            ]),
        Case(
            folder: "wibosco__CoreDataMigrationRevised-Example__CoreDataMigration_Example_3",
            bundle: "CoreDataMigration_Example.xcdatamodeld", version: "CoreDataMigration_Example 3.xcdatamodel",
            hashes: [
                "Post": "304e1bb646c24daafd47abcf4b0e8c929dfe0e106a99fb8092da1efce1f1117c",
                "Section": "007e65c75946655c0442a2a86ed3497b67baa758042cd926ab325267484ec40e",
            ]),
    ]

    @Test("every entity's versionHash from the model file equals the hash the store recorded", arguments: cases)
    func entityHashesMatchTheStore(_ testCase: Case) throws {
        let url = Fixtures.stores.appendingPathComponent(testCase.folder)
            .appendingPathComponent(testCase.bundle).appendingPathComponent(testCase.version)
        let model = try NSManagedObjectModel.load(from: url)
        #expect(Set(model.entitiesByName.keys) == Set(testCase.hashes.keys))
        for (name, expected) in testCase.hashes {
            let entity = try #require(model.entitiesByName[name])
            #expect(ModelFileKit.hex(entity.versionHash) == expected, "entity \(name)")
            #expect(model.entityVersionHashesByName[name].map(ModelFileKit.hex) == expected, "entity \(name)")
        }
    }

    /// The store's `NSStoreModelVersionHashes` as a metadata dictionary.
    static func metadata(_ testCase: Case) -> [String: Any] {
        var hashes: [String: Data] = [:]
        for (name, hex) in testCase.hashes {
            hashes[name] = Data(hex: hex)
        }
        return [NSStoreModelVersionHashesKey: hashes]
    }

    @Test("among a bundle's versions, the one that wrote the store is compatible with its metadata", arguments: cases)
    func compatibleVersion(_ testCase: Case) throws {
        let bundle = Fixtures.stores.appendingPathComponent(testCase.folder).appendingPathComponent(testCase.bundle)
        let metadata = Self.metadata(testCase)
        var compatible: [String] = []
        for version in try NSManagedObjectModel.versions(inBundleAt: bundle) {
            if try version.loadModel().isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata) {
                compatible.append(version.url.lastPathComponent)
            }
        }
        #expect(compatible == [testCase.version])
    }

    @Test("the bundle's version list finds the version that wrote each store", arguments: cases)
    func versionListHoldsTheStoreVersion(_ testCase: Case) throws {
        let bundle = Fixtures.stores.appendingPathComponent(testCase.folder).appendingPathComponent(testCase.bundle)
        let versions = try NSManagedObjectModel.versions(inBundleAt: bundle)
        let version = try #require(versions.first { $0.url.lastPathComponent == testCase.version })
        let model = try version.loadModel()
        let hashes = model.entityVersionHashesByName.mapValues(ModelFileKit.hex)
        #expect(hashes == testCase.hashes)
    }
}
