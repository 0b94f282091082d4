import Testing

@testable import OpenCoreDataCore

/// `NSEntityDescription.compoundIndexes`, the form of indexes before fetch index descriptions: each
/// compound index is a binary fetch index, created in the SQLite store like any other.
@Suite("Compound indexes")
struct CompoundIndexTests {
    @available(*, deprecated)
    static func model() -> NSManagedObjectModel {
        let person = ModelKit.entity(
            "Person",
            [
                ModelKit.attribute("last", .stringAttributeType),
                ModelKit.attribute("first", .stringAttributeType),
                ModelKit.attribute("age", .integer64AttributeType),
            ])
        let age = try! #require(person.attributesByName["age"])
        person.indexes = [NSFetchIndexDescription(name: "byAge", elements: [NSFetchIndexElementDescription(property: age, collationType: .binary)])]
        person.compoundIndexes = [["last", "first"], [age]]
        let model = NSManagedObjectModel()
        model.entities = [person]
        return model
    }

    @available(*, deprecated)
    @Test("compound indexes become fetch indexes beside the others and read back as properties")
    func readBack() throws {
        let person = try #require(Self.model().entitiesByName["Person"])
        #expect(person.indexes.map(\.name) == ["byAge", "compoundIndex1", "compoundIndex2"])
        let compound = person.compoundIndexes.compactMap { $0 as? [Any] }
        #expect(compound.map { $0.compactMap { ($0 as? NSPropertyDescription)?.name } } == [["last", "first"], ["age"]])
        person.compoundIndexes = []
        #expect(person.indexes.map(\.name) == ["byAge"])
    }

    @available(*, deprecated)
    @Test("a SQLite store creates an index for each compound index")
    func storeIndexes() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("People.sqlite")
        _ = try StoreKit.sqliteCoordinator(Self.model(), at: url)
        let indexes = try StoreKit.rows(url, "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ZPERSON' AND sql IS NOT NULL")
            .compactMap { $0[0] as String? }
        #expect(indexes.contains { $0.contains("ZLAST") && $0.contains("ZFIRST") && $0.contains("compoundIndex1") })
        #expect(indexes.contains { $0.contains("ZAGE") && $0.contains("compoundIndex2") })
    }
}
