import GRDB
import Testing

@testable import OpenCoreDataCore

/// Reading and writing a SQLite store's `Z_METADATA`: the Apple-written stores' metadata decodes to the
/// dictionary Core Data returns, and metadata OpenCoreData writes reads back.
@Suite("Store metadata")
struct StoreMetadataTests {
    typealias Case = AppleStoreSchemaTests.Case

    @Test(
        "an Apple-written store's metadata decodes with its UUID, type and the writing model's version hashes",
        arguments: AppleStoreSchemaTests.cases)
    func appleStoreMetadata(_ testCase: Case) throws {
        let (directory, store) = try AppleStoreSchemaTests.copy(testCase)
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try AppleStoreSchemaTests.model(testCase)
        let metadata = try SQLiteStoreMetadata.read(fromStoreAt: store)
        let dictionary = metadata.dictionary
        let uuid = try #require(dictionary[NSStoreUUIDKey] as? String)
        #expect(UUID(uuidString: uuid) != nil)
        #expect(uuid == uuid.uppercased())
        #expect(dictionary[NSStoreTypeKey] as? String == "SQLite")
        #expect(metadata.plist[NSStoreUUIDKey] == nil)
        #expect(NSManagedObjectModel._versionHashes(inMetadata: dictionary) == model.entityVersionHashesByName)
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: dictionary))
        #expect(dictionary[_NSStoreModelVersionHashesVersionKey] as? Int == 3)
        #expect(dictionary[SQLiteStoreMetadataKeys.autoVacuumLevel] as? String == "2")
        #expect(dictionary[NSStoreModelVersionIdentifiersKey] as? [String] != nil)
        if let digest = dictionary[_NSStoreModelVersionHashesDigestKey] as? String {
            #expect(digest == model._versionHashesDigest)
        }
    }

    @Test("the digest recorded by the stores that have one equals the writing model's")
    func digestsPresent() throws {
        var found = 0
        for testCase in AppleStoreSchemaTests.cases {
            let (directory, store) = try AppleStoreSchemaTests.copy(testCase)
            defer { try? FileManager.default.removeItem(at: directory) }
            let metadata = try SQLiteStoreMetadata.read(fromStoreAt: store)
            if let digest = metadata.plist[_NSStoreModelVersionHashesDigestKey] as? String {
                #expect(digest == (try AppleStoreSchemaTests.model(testCase))._versionHashesDigest)
                found += 1
            }
        }
        #expect(found == 2)
    }

    /// A new empty database with just the `Z_METADATA` table.
    static func metadataDatabase(in directory: URL) throws -> (URL, DatabaseQueue) {
        let url = directory.appendingPathComponent("Metadata.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: SQLiteBookkeepingTables.createMetadata) }
        return (url, queue)
    }

    @Test("metadata written for a model reads back with Core Data's keys, the model's hashes and the user's keys")
    func writeThenRead() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try AppleStoreSchemaTests.model(AppleStoreSchemaTests.cases[0])
        let (url, queue) = try Self.metadataDatabase(in: directory)
        let written = SQLiteStoreMetadata(
            newStoreFor: model,
            userMetadata: [
                "MyAppSchemaRevision": 7, "MyAppNote": "hello", NSStoreUUIDKey: "ignored in the plist",
            ])
        try queue.write { db in try written.write(to: db) }
        try queue.close()

        let read = try SQLiteStoreMetadata.read(fromStoreAt: url)
        #expect(read.uuid == written.uuid)
        let dictionary = read.dictionary
        #expect(dictionary[NSStoreUUIDKey] as? String == written.uuid)
        #expect(dictionary[NSStoreTypeKey] as? String == "SQLite")
        #expect(dictionary["MyAppSchemaRevision"] as? Int == 7)
        #expect(dictionary["MyAppNote"] as? String == "hello")
        #expect(dictionary["NSPersistenceFrameworkVersion"] as? Int == SQLiteStoreMetadataKeys.frameworkVersion)
        #expect(dictionary[SQLiteStoreMetadataKeys.maximumFrameworkVersion] as? Int == SQLiteStoreMetadataKeys.frameworkVersion)
        #expect(dictionary[_NSStoreModelVersionHashesVersionKey] as? Int == 3)
        #expect(dictionary[NSStoreModelVersionIdentifiersKey] as? [String] == ["1"])
        #expect(dictionary[NSStoreModelVersionChecksumKey] as? String == model.versionChecksum)
        #expect(dictionary[_NSStoreModelVersionHashesDigestKey] as? String == model._versionHashesDigest)
        #expect(dictionary[SQLiteStoreMetadataKeys.autoVacuumLevel] as? String == "2")
        #expect(NSManagedObjectModel._versionHashes(inMetadata: dictionary) == model.entityVersionHashesByName)
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: dictionary))
        #expect(
            Set(read.plist.keys) == [
                "NSStoreType", "NSPersistenceFrameworkVersion", "NSPersistenceMaximumFrameworkVersion",
                "NSStoreModelVersionHashes", "NSStoreModelVersionHashesVersion", "NSStoreModelVersionIdentifiers",
                "NSStoreModelVersionChecksumKey", "NSStoreModelVersionHashesDigest", "_NSAutoVacuumLevel",
                "MyAppSchemaRevision", "MyAppNote",
            ])
        // The UUID is kept in Z_UUID, upper-case, not in the property list.
        let column = try DatabaseQueue(path: url.path).read { db in
            try String.fetchOne(db, sql: "SELECT Z_UUID FROM Z_METADATA WHERE Z_VERSION = 1")
        }
        #expect(column == written.uuid)
        #expect(column == column?.uppercased())
    }

    @Test("a model without version identifiers records one empty identifier, as Core Data does")
    func emptyVersionIdentifiers() throws {
        let model = try AppleStoreSchemaTests.model(AppleStoreSchemaTests.cases[2])
        let metadata = SQLiteStoreMetadata(newStoreFor: model)
        #expect(metadata.plist[NSStoreModelVersionIdentifiersKey] as? [String] == [""])
    }

    @Test("a metadata dictionary's NSStoreUUID becomes the store UUID, upper-cased")
    func uuidFromDictionary() {
        let metadata = SQLiteStoreMetadata(dictionary: [NSStoreUUIDKey: "0f8fad5b-d9cb-469f-a165-70867728950e", "k": 1])
        #expect(metadata.uuid == "0F8FAD5B-D9CB-469F-A165-70867728950E")
        #expect(metadata.plist[NSStoreUUIDKey] == nil)
        #expect(metadata.plist["k"] as? Int == 1)
    }

    @Test("a store whose Z_PLIST is garbage fails with an error naming the file")
    func garbagePlist() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (url, queue) = try Self.metadataDatabase(in: directory)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO Z_METADATA VALUES (1, 'A', ?)", arguments: [Data("not a plist \u{1}".utf8)])
        }
        try queue.close()
        let error = try #require(throws: NSError.self) { try SQLiteStoreMetadata.read(fromStoreAt: url) }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSFileReadCorruptFileError)
        #expect(error.localizedDescription.contains(url.path))
        #expect(error.localizedDescription.contains("Z_PLIST"))
    }

    @Test("a Z_PLIST that is a property list but not a dictionary fails with an error naming the file")
    func plistNotADictionary() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (url, queue) = try Self.metadataDatabase(in: directory)
        let array = try PropertyListSerialization.data(fromPropertyList: ["a", "b"], format: .binary, options: 0)
        try queue.write { db in try db.execute(sql: "INSERT INTO Z_METADATA VALUES (1, 'A', ?)", arguments: [array]) }
        try queue.close()
        let error = try #require(throws: NSError.self) { try SQLiteStoreMetadata.read(fromStoreAt: url) }
        #expect(error.code == NSFileReadCorruptFileError)
        #expect(error.localizedDescription.contains(url.path))
    }

    @Test("a SQLite file without Z_METADATA, an empty metadata table, a non-database file and a missing file each fail naming the file")
    func notAStore() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = directory.appendingPathComponent("plain.sqlite")
        try DatabaseQueue(path: plain.path).write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        let (empty, emptyQueue) = try Self.metadataDatabase(in: directory)
        try emptyQueue.close()
        let text = directory.appendingPathComponent("text.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: text)
        let missing = directory.appendingPathComponent("missing.sqlite")
        for (url, code) in [
            (plain, NSFileReadCorruptFileError), (empty, NSFileReadCorruptFileError),
            (text, NSFileReadCorruptFileError), (missing, NSFileReadNoSuchFileError),
            (directory, NSFileReadCorruptFileError),
        ] {
            let error = try #require(throws: NSError.self) { try SQLiteStoreMetadata.read(fromStoreAt: url) }
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == code, "\(url.lastPathComponent)")
            #expect(error.localizedDescription.contains(url.path), "\(url.lastPathComponent)")
        }
        #expect(try Data(contentsOf: text) == Data(repeating: 0x41, count: 4096))
    }

    @Test("a metadata value that is not a property-list value is refused with its key named")
    func invalidValue() throws {
        let metadata = SQLiteStoreMetadata(dictionary: ["bad": NSObject()])
        let error = try #require(throws: NSError.self) { try metadata.encodedPlist() }
        #expect(error.localizedDescription.contains("\"bad\""))
    }

    @Test("replacing a store's metadata keeps the UUID given, drops removed keys, and leaves the layout intact")
    func replaceInStore() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Blog.sqlite")
        let model = StoreCreationTests.userPostModel()
        let created = try SQLiteStoreCreation.createStore(at: url, model: model, metadata: ["Old": 1])
        var dictionary = try SQLiteStoreMetadata.read(fromStoreAt: url).dictionary
        dictionary["Old"] = nil
        dictionary["New"] = ["a", "b"]
        try SQLiteStoreMetadata(dictionary: dictionary).write(toStoreAt: url)
        let read = try SQLiteStoreMetadata.read(fromStoreAt: url)
        #expect(read.uuid == created.uuid)
        #expect(read.dictionary["Old"] == nil)
        #expect(read.dictionary["New"] as? [String] == ["a", "b"])
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: read.dictionary))
        #expect(try SQLiteSchema(model: model).differences(inStoreAt: url).isEmpty)
        let rows = try DatabaseQueue(path: url.path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM Z_METADATA") }
        #expect(rows == 1)
    }

    @Test("writing metadata to a file that is not a store fails naming it and leaves it unchanged")
    func replaceInNonStore() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("notes.txt")
        try Data("plain text, long enough to not be a database header at all".utf8).write(to: url)
        let error = try #require(throws: NSError.self) {
            try SQLiteStoreMetadata(dictionary: ["k": 1]).write(toStoreAt: url)
        }
        #expect(error.code == NSFileReadCorruptFileError)
        #expect(error.localizedDescription.contains(url.path))
        #expect(try Data(contentsOf: url) == Data("plain text, long enough to not be a database header at all".utf8))
    }
    @Test(
        "setMetadata(_:for:) keeps a UUID the caller sets (the store's when none is set) and always the store's type, through a save and a reopening")
    func setMetadataKeepsCallersUUID() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Blog.sqlite")
        let model = StoreKit.blogModel()
        let (coordinator, store) = try StoreKit.sqliteCoordinator(model, at: url)
        let original = try #require(store.identifier)

        // No UUID in the dictionary: the store's is added, and the type is the store's.
        coordinator.setMetadata(["com.example.revision": 1], for: store)
        #expect(coordinator.metadata(for: store)[NSStoreUUIDKey] as? String == original)
        #expect(coordinator.metadata(for: store)[NSStoreTypeKey] as? String == NSSQLiteStoreType)

        // A UUID set manually is kept; a type set manually is not.
        let chosen = "0F8FAD5B-D9CB-469F-A165-70867728950E"
        var metadata = coordinator.metadata(for: store)
        metadata[NSStoreUUIDKey] = chosen
        metadata[NSStoreTypeKey] = "Bogus"
        metadata["com.example.revision"] = 2
        coordinator.setMetadata(metadata, for: store)
        #expect(coordinator.metadata(for: store)[NSStoreUUIDKey] as? String == chosen)
        #expect(coordinator.metadata(for: store)[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        // The object IDs of the open store keep the identifier they were made with.
        #expect(store.identifier == original)

        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            context.make("Author", ["name": "Ann"])
            try context.save()
        }
        #expect(coordinator.metadata(for: store)[NSStoreUUIDKey] as? String == chosen)
        let onFile = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        #expect(onFile[NSStoreUUIDKey] as? String == chosen)
        #expect(onFile[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        #expect(onFile["com.example.revision"] as? Int == 2)
        try coordinator.remove(store)

        // Reopened, the store is the one with the UUID set, and its objects' URIs name it.
        let (reopenedCoordinator, reopened) = try StoreKit.sqliteCoordinator(model, at: url)
        #expect(reopened.identifier == chosen)
        #expect(reopenedCoordinator.metadata(for: reopened)[NSStoreUUIDKey] as? String == chosen)
        #expect(reopenedCoordinator.metadata(for: reopened)["com.example.revision"] as? Int == 2)
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = reopenedCoordinator
        let hosts = try reader.performAndWait {
            try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Author")).map { $0.objectID.uriRepresentation().host }
        }
        #expect(hosts == [chosen])
    }
}
