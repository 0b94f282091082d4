import Foundation
import Testing

@testable import OpenCoreDataCore

/// `ocd inspect` and `ocd dump`, run as processes on copies of the Apple-written fixture stores.
@Suite("ocd inspect and dump")
struct InspectDumpCommandTests {
    static func copy(_ store: CompiledFixtures.CachedStore) throws -> (directory: URL, url: URL) {
        let directory = try Fixtures.temporaryDirectory()
        return (directory, try store.copy(into: directory))
    }

    static func fixture(_ file: String) throws -> CompiledFixtures.CachedStore {
        try #require(CompiledFixtures.cachedStores.first { $0.file == file })
    }

    @Test("inspect names the store's type, UUID, versions, journal, entities with rows and inheritance, properties and history")
    func inspectsStore() throws {
        let (directory, url) = try Self.copy(try Self.fixture("SampleModel2_V1.sqlite"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try StoreProcesses.ocd(["inspect", url.path])
        #expect(result.status == 0, "\(result.error)")
        for text in [
            "type SQLite, UUID C9CB0B35-ED6A-4042-BE5C-1B911AC00B2A, framework version 1344", "journal mode wal",
            "model: the store's cache (Z_MODELCACHE)", "Entities (6)", "Book #1, 51 rows in ZBOOK",
            "GraphicNovel #2 : Book, 1 row in ZBOOK", "Author #6 : Writer, 2 rows in ZWRITER",
            "pagesCount: Integer 64 (derived), optional", "books: → Book, to-many, inverse author, cascade",
            "History: ATRANSACTION 1 rows, ACHANGE 5468 rows, ATRANSACTIONSTRING 2 rows",
        ] {
            #expect(result.output.contains(text), "\(text)\n\(result.output)")
        }
    }

    @Test("inspect --json gives the same as one object")
    func inspectsAsJSON() throws {
        let (directory, url) = try Self.copy(try Self.fixture("SampleModel_V1.sqlite"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try StoreProcesses.ocd(["inspect", url.path, "--json"])
        #expect(result.status == 0, "\(result.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["type"] as? String == "SQLite")
        #expect((object["frameworkVersion"] as? NSNumber)?.intValue == 1044)
        let entities = try #require(object["entities"] as? [[String: Any]])
        #expect(entities.compactMap { $0["name"] as? String } == ["Car", "SportCar", "ExpensiveSportCar", "Person"])
        #expect(entities.first { $0["name"] as? String == "ExpensiveSportCar" }?["superentity"] as? String == "SportCar")
        #expect((entities.first { $0["name"] as? String == "Person" }?["rows"] as? NSNumber)?.intValue == 20)
    }

    @Test("inspect --model compares the hashes, naming the entities that differ and why")
    func comparesHashes() throws {
        let store = try Self.fixture("SampleModel_V1.sqlite")
        let (directory, url) = try Self.copy(store)
        defer { try? FileManager.default.removeItem(at: directory) }
        let same = try StoreProcesses.ocd(["inspect", url.path, "--model", try #require(store.modelURL).path])
        #expect(same.status == 0, "\(same.error)")
        #expect(same.output.contains("all 4 entities match"), "\(same.output)")
        let other = CompiledFixtures.sampleSource.appendingPathComponent("SampleModel3.xcdatamodel")
        let differ = try StoreProcesses.ocd(["inspect", url.path, "--model", other.path])
        #expect(differ.status == 0, "\(differ.error)")
        for text in [
            "Car: differs: property 'color' removed", "property 'createdBy' added", "ExpensiveSportCar: only in the store",
            "LuxuryCar: only in the model", "Maker: only in the model",
        ] {
            #expect(differ.output.contains(text), "\(text)\n\(differ.output)")
        }
    }

    @Test("inspect describes a store too old to keep its model from its tables")
    func inspectsOldStore() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Recipes.sqlite")
        try FileManager.default.copyItem(at: Fixtures.stores.appendingPathComponent("magicalpanda__MagicalRecord__Recipes/Recipes.sqlite"), to: url)
        let result = try StoreProcesses.ocd(["inspect", url.path])
        #expect(result.status == 0, "\(result.error)")
        for text in [
            "framework version 241", "journal mode delete", "the store keeps no model", "Recipe #3, 7 rows in ZRECIPE",
            "table ZINGREDIENT: Z_PK INTEGER, Z_ENT INTEGER, Z_OPT INTEGER, ZDISPLAYORDER INTEGER",
        ] {
            #expect(result.output.contains(text), "\(text)\n\(result.output)")
        }
        let missing = try StoreProcesses.ocd(["inspect", directory.appendingPathComponent("none.sqlite").path])
        #expect(missing.status != 0)
        #expect(missing.error.contains("no such store file"))
    }

    @Test("dump prints one JSON object a row: object IDs, relationships as URIs, binary as base64; quiet in a pipe")
    func dumpsJSONLines() throws {
        let (directory, url) = try Self.copy(try Self.fixture("SampleModel2_V1.sqlite"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try StoreProcesses.ocd(["dump", url.path, "--entity", "Page"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty, "\(result.error.prefix(500))")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == 4970)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["objectID"] as? String == "x-coredata://C9CB0B35-ED6A-4042-BE5C-1B911AC00B2A/Page/p1")
        #expect((first["book"] as? String)?.hasPrefix("x-coredata://C9CB0B35-ED6A-4042-BE5C-1B911AC00B2A/Book/p") == true)
        let encoded = try #require(first["content"] as? String)
        let content = try #require(Data(base64Encoded: encoded))
        #expect(content.starts(with: Array("bplist00".utf8)))
        #expect(Set(first.keys) == ["objectID", "book", "content", "isBookmarked", "number"])
        // An abstract entity's rows are its subentities' objects, with its own properties.
        let writers = try StoreProcesses.ocd(["dump", url.path, "--entity", "Writer"])
        #expect(writers.output.split(separator: "\n").count == 2)
        #expect(writers.output.contains("\"age\": 30"))
        let authors = try StoreProcesses.ocd(["dump", url.path, "--entity", "Author"])
        let rows = authors.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(rows.count == 2)
        #expect(rows.map { ($0["books"] as? [Any])?.count ?? -1 }.sorted() == [3, 49])
    }

    @Test("dump --format csv prints a header and one row an object; ordered to-many relationships in order")
    func dumpsCSV() throws {
        let (directory, url) = try Self.copy(try Self.fixture("Bookmarks_V5.sqlite"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try StoreProcesses.ocd(["dump", url.path, "--entity", "BookmarkEntity", "--format", "csv"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(
            lines.first
                == "objectID,children,favoriteFolders,favorites,isFolder,isPendingDeletion,lastChildrenPayloadReceivedFromSync,modifiedAt,parent,title,url,uuid"
        )
        #expect(lines.count == 11)
        let missing = try StoreProcesses.ocd(["dump", url.path, "--entity", "Nothing"])
        #expect(missing.status != 0)
        #expect(missing.error.contains("no entity named \"Nothing\""))
    }

    @Test("dump draws its progress bar when asked to (OCD_PROGRESS=always), as on a terminal")
    func dumpShowsProgress() throws {
        let (directory, url) = try Self.copy(try Self.fixture("SampleModel2_V1.sqlite"))
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try StoreProcesses.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["OCD_PROGRESS=always", try QueryCommandTests.executable().path, "dump", url.path, "--entity", "Feedback"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("dumping Feedback ["))
        #expect(result.error.contains("100% (444/444)"))
        #expect(result.output.split(separator: "\n").count == 444)
    }
}
