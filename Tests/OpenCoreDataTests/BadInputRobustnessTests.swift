import GRDB
import OpenCoreData
import Testing

/// Damaged stores, model files, format strings and `ocd` arguments: each is read or refused with an
/// `NSError` in `NSCocoaErrorDomain`; none crashes the process, and a refused store is left byte for byte
/// as it was. Every random choice comes from a seeded generator, so a failure reproduces.
@Suite("Bad input robustness")
struct BadInputRobustnessTests {
    typealias Kit = RobustnessKit

    /// A damage done to a copy of a fixture store with SQL, and what reading the store must then do.
    struct StoreDamage: Sendable, CustomTestStringConvertible {
        enum Outcome: Sendable {
            /// Reading the store throws this code.
            case fails(Int)
            /// Opening the store (read-only or not) throws this code.
            case failsToOpen(Int)
            /// Reading either succeeds or throws an allowed error.
            case readsOrFails
        }

        let name: String
        let fixture: Kit.StoreFixture
        let sql: String
        let outcome: Outcome
        /// Open with a model whose version hashes differ from the store's (same layout), so that the
        /// store's structure is read and compared.
        var changesHashes = false

        var testDescription: String { name }
    }

    static let damages: [StoreDamage] = [
        StoreDamage(
            name: "a row's Z_ENT names no entity", fixture: Kit.sampleModel,
            sql: "UPDATE ZCAR SET Z_ENT = 99 WHERE Z_PK = (SELECT min(Z_PK) FROM ZCAR)",
            outcome: .fails(NSFileReadCorruptFileError)),
        StoreDamage(
            name: "a row's Z_ENT is text", fixture: Kit.sampleModel,
            sql: "UPDATE ZCAR SET Z_ENT = 'Car' WHERE Z_PK = (SELECT min(Z_PK) FROM ZCAR)",
            outcome: .fails(NSFileReadCorruptFileError)),
        StoreDamage(
            name: "a row's Z_ENT is a fraction", fixture: Kit.sampleModel,
            sql: "UPDATE ZPERSON SET Z_ENT = 4.5 WHERE Z_PK = (SELECT max(Z_PK) FROM ZPERSON)",
            outcome: .fails(NSFileReadCorruptFileError)),
        StoreDamage(
            name: "a row's Z_ENT is NULL", fixture: Kit.migrationExample,
            sql: "UPDATE ZSECTION SET Z_ENT = NULL WHERE Z_PK = (SELECT min(Z_PK) FROM ZSECTION)",
            outcome: .fails(NSFileReadCorruptFileError)),
        StoreDamage(
            name: "a row's Z_OPT is text", fixture: Kit.sampleModel,
            sql: "UPDATE ZPERSON SET Z_OPT = 'seven' WHERE Z_PK = (SELECT min(Z_PK) FROM ZPERSON)",
            outcome: .fails(NSFileReadCorruptFileError)),
        StoreDamage(
            name: "a to-one foreign key is text", fixture: Kit.sampleModel,
            sql: "UPDATE ZCAR SET ZOWNER = 'somebody' WHERE Z_PK = (SELECT min(Z_PK) FROM ZCAR)",
            outcome: .fails(NSFileReadCorruptFileError)),
        StoreDamage(
            name: "a to-one foreign key is a blob", fixture: Kit.migrationExample,
            sql: "UPDATE ZSECTION SET ZPOST = x'0102' WHERE Z_PK = (SELECT min(Z_PK) FROM ZSECTION)",
            outcome: .fails(NSFileReadCorruptFileError)),
        StoreDamage(
            name: "a to-one foreign key points to no row", fixture: Kit.migrationExample,
            sql: "UPDATE ZSECTION SET ZPOST = 999999 WHERE Z_PK = (SELECT min(Z_PK) FROM ZSECTION)",
            outcome: .fails(NSManagedObjectReferentialIntegrityError)),
        StoreDamage(
            name: "Z_PK is declared TEXT and holds text", fixture: Kit.migrationExample,
            sql: """
                CREATE TABLE OLDPOST AS SELECT * FROM ZPOST; DROP TABLE ZPOST;
                CREATE TABLE ZPOST ( Z_PK TEXT PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDATE TIMESTAMP, ZHEXCOLOR VARCHAR, ZPOSTID VARCHAR );
                INSERT INTO ZPOST SELECT 'post' || Z_PK, Z_ENT, Z_OPT, ZDATE, ZHEXCOLOR, ZPOSTID FROM OLDPOST; DROP TABLE OLDPOST;
                """,
            outcome: .fails(NSFileReadCorruptFileError)),
        StoreDamage(
            name: "a join-table key is text", fixture: Kit.bookmarks,
            sql: "UPDATE Z_1FAVORITES SET Z_1FAVORITEFOLDERS = 'x' WHERE rowid = (SELECT min(rowid) FROM Z_1FAVORITES)",
            outcome: .readsOrFails),
        StoreDamage(
            name: "attribute columns hold values of other types", fixture: Kit.sampleModel,
            sql: """
                UPDATE ZCAR SET ZISLIMITEDEDITION = 'yes', ZMARKEDFORDELETIONASOF = 'yesterday', ZMAKER = x'FFFE00', ZMODEL = 12.5;
                UPDATE ZPERSON SET ZID = x'0102', ZUPDATEDAT = x'FF', ZFIRSTNAME = Z_PK;
                """,
            outcome: .readsOrFails),
        StoreDamage(
            name: "a transformable column holds garbage", fixture: Kit.sampleModel,
            sql: "UPDATE ZCAR SET ZCOLOR = x'DEADBEEF'", outcome: .readsOrFails),
        StoreDamage(
            name: "numbers out of range and not numbers", fixture: Kit.migrationExample,
            sql: "UPDATE ZSECTION SET ZINDEX = 1e300; UPDATE ZPOST SET ZDATE = 'NaN';",
            outcome: .readsOrFails),
        StoreDamage(
            name: "Z_PRIMARYKEY's Z_SUPER is text", fixture: Kit.sampleModel,
            sql: "UPDATE Z_PRIMARYKEY SET Z_SUPER = 'Car' WHERE Z_NAME = 'SportCar'", outcome: .readsOrFails),
        StoreDamage(
            name: "Z_PRIMARYKEY's Z_SUPER is text, read because the version hashes differ", fixture: Kit.sampleModel,
            sql: "UPDATE Z_PRIMARYKEY SET Z_SUPER = 'Car' WHERE Z_NAME = 'SportCar'",
            outcome: .failsToOpen(NSFileReadCorruptFileError), changesHashes: true),
        StoreDamage(
            name: "Z_PRIMARYKEY's Z_NAME is a blob that is not UTF-8", fixture: Kit.migrationExample,
            sql: "UPDATE Z_PRIMARYKEY SET Z_NAME = x'FFFE' WHERE Z_ENT = 1",
            outcome: .failsToOpen(NSPersistentStoreIncompatibleVersionHashError), changesHashes: true),
        StoreDamage(
            name: "Z_PRIMARYKEY lacks an entity", fixture: Kit.sampleModel,
            sql: "DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'SportCar'", outcome: .readsOrFails),
        StoreDamage(
            name: "Z_PRIMARYKEY's Z_MAX is text", fixture: Kit.migrationExample,
            sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = 'many'", outcome: .readsOrFails),
        StoreDamage(
            name: "an entity table is missing", fixture: Kit.sampleModel,
            sql: "DROP TABLE ZPERSON", outcome: .fails(NSSQLiteError)),
        StoreDamage(
            name: "an attribute column is missing", fixture: Kit.migrationExample,
            sql: "ALTER TABLE ZSECTION DROP COLUMN ZTITLE", outcome: .fails(NSSQLiteError)),
        StoreDamage(
            name: "an attribute column is missing, found because the version hashes differ", fixture: Kit.migrationExample,
            sql: "ALTER TABLE ZSECTION DROP COLUMN ZTITLE",
            outcome: .failsToOpen(NSPersistentStoreIncompatibleVersionHashError), changesHashes: true),
        StoreDamage(
            name: "Z_METADATA has no row", fixture: Kit.sampleModel,
            sql: "DELETE FROM Z_METADATA", outcome: .failsToOpen(NSFileReadCorruptFileError)),
        StoreDamage(
            name: "Z_METADATA's Z_PLIST is text", fixture: Kit.migrationExample,
            sql: "UPDATE Z_METADATA SET Z_PLIST = 'not a property list'", outcome: .failsToOpen(NSFileReadCorruptFileError)),
        StoreDamage(
            name: "Z_METADATA's Z_PLIST is a number", fixture: Kit.migrationExample,
            sql: "UPDATE Z_METADATA SET Z_PLIST = 42", outcome: .failsToOpen(NSFileReadCorruptFileError)),
        StoreDamage(
            name: "Z_METADATA's Z_PLIST is NULL", fixture: Kit.migrationExample,
            sql: "UPDATE Z_METADATA SET Z_PLIST = NULL", outcome: .failsToOpen(NSFileReadCorruptFileError)),
        StoreDamage(
            name: "Z_METADATA's Z_UUID is a blob that is not UTF-8", fixture: Kit.sampleModel,
            sql: "UPDATE Z_METADATA SET Z_UUID = x'FF00FF'", outcome: .failsToOpen(NSFileReadCorruptFileError)),
        // {"k": {"a"}} as a binary property list: Foundation's reader crashes on the set on Linux.
        StoreDamage(
            name: "Z_METADATA's plist holds a set", fixture: Kit.sampleModel,
            sql: "UPDATE Z_METADATA SET Z_PLIST = x'\(PropertyListKit.setInDictionaryHex)'",
            outcome: .failsToOpen(NSFileReadCorruptFileError)),
        StoreDamage(
            name: "Z_METADATA's plist is cut short", fixture: Kit.bookmarks,
            sql: "UPDATE Z_METADATA SET Z_PLIST = substr(Z_PLIST, 1, length(Z_PLIST) / 2)",
            outcome: .failsToOpen(NSFileReadCorruptFileError)),
        StoreDamage(
            name: "Z_METADATA's plist has flipped bytes", fixture: Kit.sampleModel,
            sql: "UPDATE Z_METADATA SET Z_PLIST = substr(Z_PLIST, 1, 40) || x'FFFFFFFF' || substr(Z_PLIST, 45)",
            outcome: .readsOrFails),
    ]

    @Test(
        "a store damaged with SQL is read or refused with the right code, never crashes, and a refused store is unchanged",
        arguments: damages)
    func damagedStore(_ damage: StoreDamage) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try damage.fixture.copy(into: directory)
        try Kit.execute(damage.sql, on: url)
        let model = try NSManagedObjectModel.load(from: damage.fixture.modelURL)
        if damage.changesHashes, let entity = model.entities.first {
            entity.versionHashModifier = "robustness"
        }
        let before = Kit.storeBytes(url)

        var readOnlyError: NSError?
        do {
            try Kit.readEverything(at: url, model: model)
        } catch {
            readOnlyError = Kit.expectCocoaError(error, damage.name)
        }
        #expect(Kit.storeBytes(url) == before, "reading must not change the store")
        switch damage.outcome {
        case .fails(let code), .failsToOpen(let code):
            #expect(readOnlyError?.code == code, "\(damage.name): \(String(describing: readOnlyError))")
            if code == NSFileReadCorruptFileError || code == NSSQLiteError {
                #expect(
                    readOnlyError?.localizedDescription.contains(url.path) == true,
                    "\(String(describing: readOnlyError?.localizedDescription))")
            }
        case .readsOrFails:
            break
        }
        // Writing into the damaged store saves or fails with a Cocoa error; it never traps.
        if case .failsToOpen = damage.outcome {
        } else {
            do {
                try Kit.writeSomething(at: url, model: model)
            } catch {
                Kit.expectCocoaError(error, "writing: \(damage.name)")
            }
        }
        if case .failsToOpen(let code) = damage.outcome {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            let error = try #require(throws: NSError.self) {
                try coordinator.addPersistentStore(type: .sqlite, at: url, options: nil)
            }
            Kit.expectCocoaError(error, damage.name)
            #expect(error.code == code)
            #expect(error.localizedDescription.contains(url.path), "\(error.localizedDescription)")
            #expect(Kit.storeBytes(url) == before, "a refused store must not change")
        }
    }

    @Test(
        "a damaged Z_PRIMARYKEY never makes a save overwrite a row: it saves new keys or fails",
        arguments: [
            "UPDATE Z_PRIMARYKEY SET Z_MAX = 'many'",
            "UPDATE Z_PRIMARYKEY SET Z_MAX = 0",
            "DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'Section'",
        ])
    func damagedKeyCounter(_ sql: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try Kit.migrationExample.copy(into: directory)
        try Kit.execute(sql, on: url)
        let original = try StoreKit.rows(url, "SELECT Z_PK, ZTITLE, ZBODY FROM ZSECTION ORDER BY Z_PK")
            .map { "\($0[0] as Int64? ?? -1) \($0[1] as String? ?? "") \($0[2] as String? ?? "")" }
        let model = try NSManagedObjectModel.load(from: Kit.migrationExample.modelURL)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let saved: Bool = context.performAndWait {
            let section = NSEntityDescription.insertNewObject(forEntityName: "Section", into: context)
            section.setValue("added", forKey: "title")
            section.setValue("body", forKey: "body")
            section.setValue(Int16(99), forKey: "index")
            do {
                try context.save()
                return true
            } catch {
                Kit.expectCocoaError(error, sql)
                return false
            }
        }
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        let after = try StoreKit.rows(url, "SELECT Z_PK, ZTITLE, ZBODY FROM ZSECTION ORDER BY Z_PK")
            .map { "\($0[0] as Int64? ?? -1) \($0[1] as String? ?? "") \($0[2] as String? ?? "")" }
        #expect(Set(original).isSubset(of: Set(after)), "no stored row may change or disappear")
        #expect(after.count == original.count + (saved ? 1 : 0))
        if sql.contains("'many'") { #expect(!saved, "a counter that is not a number is damage") }
    }

    @Test(
        "randomly damaged store files are read or refused with a Cocoa error and are never changed",
        arguments: Kit.stores)
    func flippedBytes(_ fixture: Kit.StoreFixture) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try NSManagedObjectModel.load(from: fixture.modelURL)
        var generator = Kit.Generator(state: 0xC0FFEE ^ UInt64(fixture.file.utf8.count))
        var refused = 0
        for round in 0..<24 {
            let folder = directory.appendingPathComponent("round\(round)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let url = try fixture.copy(into: folder)
            let wal = URL(fileURLWithPath: url.path + "-wal")
            let target = FileManager.default.fileExists(atPath: wal.path) && round % 3 == 2 ? wal : url
            var bytes = try Data(contentsOf: target)
            let pageSize = 4096
            switch round % 4 {
            case 0:  // the database header
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    bytes[Int.random(in: 0..<100, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator)
                }
            case 1:  // a page's header and cells
                let page = Int.random(in: 1..<max(2, bytes.count / pageSize), using: &generator)
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    let offset = min(bytes.count - 1, page * pageSize + Int.random(in: 0..<pageSize, using: &generator))
                    bytes[offset] ^= UInt8.random(in: 1...255, using: &generator)
                }
            case 2:  // anywhere
                for _ in 0..<Int.random(in: 1...32, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            default:  // truncated
                bytes = bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator))
            }
            try bytes.write(to: target)
            let before = Kit.storeBytes(url)
            do {
                try Kit.readEverything(at: url, model: model)
            } catch {
                Kit.expectCocoaError(error, "\(fixture.file) round \(round)")
                refused += 1
            }
            #expect(Kit.storeBytes(url) == before, "round \(round)")
        }
        #expect(refused > 0)
    }

    @Test("a row whose Z_ENT is an abstract entity's number is refused as damage, by a fetch and by a fault")
    func rowOfAbstractEntity() throws {
        let stack = try GraphStack(.sqlite, model: VehicleModel.make())
        let filling = stack.context()
        let carID = try filling.performAndWait {
            let car = Car(context: filling)
            car.brand = "VW"
            try filling.save()
            return car.objectID
        }
        let numbers = try DatabaseQueue(path: stack.storeURL.path).read { db in
            try Dictionary(
                uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY").map {
                    ($0["Z_NAME"] as String, $0["Z_ENT"] as Int64)
                })
        }
        let vehicle = try #require(numbers["Vehicle"])
        try Kit.execute("UPDATE ZVEHICLE SET Z_ENT = \(vehicle)", on: stack.storeURL)
        let before = Kit.storeBytes(stack.storeURL)

        let context = stack.context(try stack.secondCoordinator())
        try context.performAndWait {
            let error = try #require(throws: NSError.self) {
                try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Vehicle"))
            }
            Kit.expectCocoaError(error, "fetch")
            #expect(error.code == NSFileReadCorruptFileError)
            #expect(error.localizedDescription.contains("abstract entity Vehicle"), "\(error.localizedDescription)")
            #expect(throws: NSError.self) { try context.existingObject(with: carID) }
        }
        #expect(Kit.storeBytes(stack.storeURL) == before, "refusing the row must not change the store")
    }

    @Test("metadataForPersistentStore reads or refuses every damaged store without changing it", arguments: Kit.stores)
    func damagedMetadata(_ fixture: Kit.StoreFixture) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var generator = Kit.Generator(state: 0xBAD ^ UInt64(fixture.file.utf8.count))
        let url = try fixture.copy(into: directory)
        let original = try Data(contentsOf: url)
        for round in 0..<20 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...16, using: &generator) {
                bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if round % 5 == 4 { bytes = bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)) }
            try bytes.write(to: url)
            do {
                let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
                #expect(metadata[NSStoreTypeKey] != nil)
            } catch {
                Kit.expectCocoaError(error, "\(fixture.file) round \(round)")
            }
            #expect(try Data(contentsOf: url) == bytes, "round \(round)")
        }
    }

    // MARK: - External data references

    /// A store of Asset(name, blob allowing external storage) holding one large value (kept in a file)
    /// and one small one; returns the store's URL.
    static func externalDataStore(in directory: URL) throws -> (URL, NSManagedObjectModel) {
        let blob = ModelKit.attribute("blob", .binaryDataAttributeType)
        blob.allowsExternalBinaryDataStorage = true
        let model = NSManagedObjectModel()
        model.entities = [ModelKit.entity("Asset", [ModelKit.attribute("name", .stringAttributeType), blob])]
        let url = directory.appendingPathComponent("Assets.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for (name, size) in [("large", 200 * 1024), ("small", 10)] {
                let asset = NSEntityDescription.insertNewObject(forEntityName: "Asset", into: context)
                asset.setValue(name, forKey: "name")
                asset.setValue(Data(repeating: 7, count: size), forKey: "blob")
            }
            try context.save()
        }
        try coordinator.remove(store)
        return (url, model)
    }

    @Test(
        "a missing, empty or escaping external data reference is an error; no file outside the store's folder is read or removed",
        arguments: ["missing", "empty", "escaping", "absolute"])
    func badExternalReference(_ kind: String) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (url, model) = try Self.externalDataStore(in: directory)
        let external = directory.appendingPathComponent(".Assets_SUPPORT/_EXTERNAL_DATA", isDirectory: true)
        let victim = directory.appendingPathComponent("victim.txt")
        try Data("keep me".utf8).write(to: victim)
        switch kind {
        case "missing":
            for file in try FileManager.default.contentsOfDirectory(atPath: external.path) {
                try FileManager.default.removeItem(at: external.appendingPathComponent(file))
            }
        case "empty":
            try Kit.execute("UPDATE ZASSET SET ZBLOB = x'02' WHERE ZNAME = 'large'", on: url)
        case "escaping":
            try Kit.execute("UPDATE ZASSET SET ZBLOB = x'02' || CAST('../../victim.txt' AS BLOB) WHERE ZNAME = 'large'", on: url)
        default:
            try Kit.execute("UPDATE ZASSET SET ZBLOB = x'02' || CAST('\(victim.path)' AS BLOB) WHERE ZNAME = 'large'", on: url)
        }
        let before = Kit.storeBytes(url)
        let error = try #require(throws: NSError.self) { try Kit.readEverything(at: url, model: model) }
        Kit.expectCocoaError(error, kind)
        #expect(error.code == NSPersistentStoreOperationError)
        #expect(error.localizedDescription.contains(url.path), "\(error.localizedDescription)")
        #expect(Kit.storeBytes(url) == before)

        // Deleting the object through a context fails the save (its row cannot be read for the delete
        // rules) instead of trapping; a batch delete removes the rows. Neither removes a file the
        // reference names outside the folder.
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: nil)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObjectID>(entityName: "Asset")
            request.resultType = .managedObjectIDResultType
            for id in try context.fetch(request) { context.delete(context.object(with: id)) }
            let saveError = try #require(throws: NSError.self) { try context.save() }
            #expect(saveError.code == NSPersistentStoreOperationError)
            context.rollback()
            _ = try context.execute(NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSManagedObject>(entityName: "Asset")))
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Asset")) == 0)
        }
        #expect(try Data(contentsOf: victim) == Data("keep me".utf8))
    }

    // MARK: - Model files

    @Test(
        "model files with missing or garbage attributes fail with 134060 naming the file",
        arguments: [
            #"<entity syncable="YES"><attribute name="a" attributeType="String"/></entity>"#,
            #"<entity name="" syncable="YES"><attribute name="a" attributeType="String"/></entity>"#,
            #"<entity name="A"><attribute attributeType="String"/></entity>"#,
            #"<entity name="A"><attribute name="a" attributeType="Strang"/></entity>"#,
            #"<entity name="A"><relationship name="b" maxCount="1" deletionRule="Nullify" destinationEntity="Nowhere"/></entity>"#,
            #"<entity name="A"><attribute name="a" attributeType="String"/></entity><entity name="A"/>"#,
            #"<entity name="A"><attribute name="a" attributeType="String"/><attribute name="a" attributeType="Integer 16"/></entity>"#,
            #"<entity name="A"><relationship name="b" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="nothing" inverseEntity="B"/></entity><entity name="B"/>"#,
            #"<entity name="A"><relationship name="b" maxCount="1" deletionRule="Wipe" destinationEntity="A"/></entity>"#,
            #"<entity name="A" parentEntity="Nowhere"/>"#,
            #"<entity name="A"><attribute name="a" attributeType="Integer 16" defaultValueString="many"/></entity>"#,
            #"<entity name="A"><attribute name="a" attributeType="String" minValueString="x" maxValueString="y"/></entity>"#,
            #"<entity name="A"><uniquenessConstraints><uniquenessConstraint><constraint value="ghost"/></uniquenessConstraint></uniquenessConstraints></entity>"#,
            #"<fetchRequest name="R" entity="Nowhere" predicateString="a == 1"/>"#,
            #"<entity name="A"><attribute name="a" attributeType="String"/></entity><fetchRequest name="R" entity="A" predicateString="a == (("/>"#,
            #"<entity name="A"><attribute name="a" attributeType="Integer 32" derived="YES" derivationExpression="sum:("/></entity>"#,
            #"<entity name="A B"><attribute name="a" attributeType="String"/></entity>"#,
            #"<entity name="A"><attribute name="a b" attributeType="String"/></entity>"#,
            #"<entity name="A"><attribute name="a.b" attributeType="String"/></entity>"#,
            #"<entity name="A"><attribute name="a, Z_PK) VALUES (1); DROP TABLE ZA; --" attributeType="String"/></entity>"#,
            #"<entity name="1A"><attribute name="a" attributeType="String"/></entity>"#,
            #"<entity name="A"><relationship name="b-c" maxCount="1" deletionRule="Nullify" destinationEntity="A"/></entity>"#,
        ])
    func malformedModel(_ body: String) throws {
        let error = try ModelFileKit.loadError(body)
        Kit.expectCocoaError(error, body)
        #expect(error.code == NSCoreDataError, "\(body): \(error.localizedDescription)")
        #expect(error.localizedDescription.contains("Model.xcdatamodel/contents"), "\(error.localizedDescription)")
    }

    @Test("every XML attribute of a real model removed, emptied or garbled: the model loads and works, or fails with 134060")
    func garbledModelAttributes() throws {
        let source = ModelFileKit.fixture("objcio__core-data__Moody.xcdatamodeld").appendingPathComponent("Moody 2.xcdatamodel/contents")
        let text = try String(contentsOf: source, encoding: .utf8)
        let attributes = Kit.xmlAttributes(in: text)
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var loaded = 0, refused = 0
        var generator = Kit.Generator(state: 7)
        for (position, attribute) in attributes.enumerated() {
            let others = attributes.filter { $0.name == attribute.name && text[$0.value] != text[attribute.value] }
            var variants = ["", "garbage value", "-1", "YES"]
            if let other = others.first { variants.append(String(text[other.value])) }
            // Two of the variants of each attribute, chosen by the seeded generator, keep the test short.
            let chosen = Set((0..<2).map { _ in Int.random(in: 0..<variants.count, using: &generator) })
            for (index, value) in variants.enumerated() where chosen.contains(index) {
                var changed = text
                changed.replaceSubrange(attribute.value, with: value)
                let name = "M\(position)-\(index)"
                let folder = try ModelFileKit.writeVersion(changed, named: name, in: directory)
                let model: NSManagedObjectModel
                do {
                    model = try NSManagedObjectModel.load(from: folder)
                } catch {
                    let error = Kit.expectCocoaError(error, "\(attribute.name)=\"\(value)\"")
                    #expect(error.code == NSCoreDataError)
                    #expect(error.localizedDescription.contains(name), "\(error.localizedDescription)")
                    refused += 1
                    continue
                }
                loaded += 1
                _ = model.entityVersionHashesByName
                try Self.use(
                    model, sqlite: loaded % 10 == 0 ? directory.appendingPathComponent(name + ".sqlite") : nil,
                    what: "\(attribute.name)=\"\(value)\"")
            }
        }
        #expect(loaded > 0 && refused > 0)
    }

    /// Adds a store for `model` (in memory, or SQLite at `sqlite`), inserts one object of every concrete
    /// entity and saves; a save may fail only with a Cocoa error (validation, for example).
    static func use(_ model: NSManagedObjectModel, sqlite: URL?, what: String) throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        do {
            if let sqlite {
                try coordinator.addPersistentStore(type: .sqlite, at: sqlite, options: nil)
            } else {
                try coordinator.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"), options: nil)
            }
        } catch {
            Kit.expectCocoaError(error, what)
            return
        }
        insertAndSave(model, coordinator: coordinator, what: what)
    }

    private static func insertAndSave(_ model: NSManagedObjectModel, coordinator: NSPersistentStoreCoordinator, what: String) {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        context.performAndWait {
            for entity in model.entities where !entity.isAbstract {
                guard let name = entity.name else { continue }
                _ = NSEntityDescription.insertNewObject(forEntityName: name, into: context)
            }
            do {
                try context.save()
            } catch {
                #expect((error as NSError).domain == NSCocoaErrorDomain, "\(what): \(error)")
            }
        }
    }
}
