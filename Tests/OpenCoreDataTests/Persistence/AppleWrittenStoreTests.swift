import GRDB
import Testing

@testable import OpenCoreDataCore

/// Stores written by Apple's Core Data open under the model version that wrote them, with migration
/// off: every row reads back (the Bookmarks rows live only in the `-wal` file), and an edit saves the
/// way Core Data writes it. Copies in a temporary directory; the fixtures are never opened.
@Suite("Apple-written stores")
struct AppleWrittenStoreTests {
    static var noMigration: [AnyHashable: Any] {
        [
            NSMigratePersistentStoresAutomaticallyOption: false,
            NSInferMappingModelAutomaticallyOption: false,
        ]
    }

    @Test("every row of every entity reads back, each attribute readable", arguments: AppleStoreSchemaTests.cases)
    func everyRowReadsBack(_ testCase: AppleStoreSchemaTests.Case) throws {
        let (directory, storeURL) = try AppleStoreSchemaTests.copy(testCase)
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try AppleStoreSchemaTests.model(testCase)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: storeURL, options: Self.noMigration)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            for entity in model.entities where entity.superentity == nil {
                let name = try #require(entity.name)
                let table = "Z" + name.uppercased()
                let expected = try StoreKit.rows(storeURL, "SELECT COUNT(*) FROM \(table)")[0][0] as Int
                let objects = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: name))
                #expect(objects.count == expected, "\(name)")
                #expect(expected > 0, "\(name) has rows in the fixture")
                for object in objects {
                    for attribute in object.entity.attributesByName.keys {
                        _ = object.value(forKey: attribute)
                    }
                    for relationship in object.entity.relationshipsByName.values where relationship.isToMany {
                        _ = object.objectIDs(forRelationshipNamed: relationship.name)
                    }
                }
            }
        }
    }

    @Test("an edit saves as Core Data writes it: Z_OPT + 1, keys untouched, integrity ok", arguments: AppleStoreSchemaTests.cases)
    func editSaves(_ testCase: AppleStoreSchemaTests.Case) throws {
        let (directory, storeURL) = try AppleStoreSchemaTests.copy(testCase)
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try AppleStoreSchemaTests.model(testCase)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: storeURL, options: Self.noMigration)
        let primaryKeysBefore = try StoreKit.rows(storeURL, "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            .map { "\($0[0] as Int):\($0[1] as Int)" }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let entity = try #require(
            model.entities.first { candidate in
                candidate.superentity == nil && candidate.attributesByName.values.contains { $0.attributeType == .stringAttributeType }
            })
        let attribute = try #require(entity.attributesByName.values.first { $0.attributeType == .stringAttributeType }).name
        let table = "Z" + (entity.name ?? "").uppercased()
        let (pk, optBefore): (Int64, Int64) = try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: entity.name ?? "")
            request.sortDescriptors = [NSSortDescriptor(key: attribute, ascending: true)]
            let object = try #require(try context.fetch(request).first)
            let pk = try #require(object.objectID.primaryKey)
            let before = try StoreKit.rows(storeURL, "SELECT Z_OPT FROM \(table) WHERE Z_PK = ?", [pk])[0][0] as Int64
            object.setValue("edited on Linux", forKey: attribute)
            try context.save()
            return (pk, before)
        }
        let row = try StoreKit.rows(storeURL, "SELECT Z_OPT, Z\(attribute.uppercased()) FROM \(table) WHERE Z_PK = ?", [pk])[0]
        #expect(row[0] as Int64 == optBefore + 1)
        #expect(row[1] as String == "edited on Linux")
        let primaryKeysAfter = try StoreKit.rows(storeURL, "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
            .map { "\($0[0] as Int):\($0[1] as Int)" }
        #expect(primaryKeysAfter == primaryKeysBefore)
        #expect(try StoreKit.rows(storeURL, "PRAGMA integrity_check")[0][0] as String == "ok")
    }

    @Test("another version of the model is refused with 134100 and the files stay byte-for-byte", arguments: AppleStoreSchemaTests.cases)
    func otherVersionRefused(_ testCase: AppleStoreSchemaTests.Case) throws {
        let (directory, storeURL) = try AppleStoreSchemaTests.copy(testCase)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundle = Fixtures.stores.appendingPathComponent(testCase.folder).appendingPathComponent(testCase.bundle)
        let versions = try FileManager.default.contentsOfDirectory(atPath: bundle.path)
            .filter { $0.hasSuffix(".xcdatamodel") && $0 != testCase.version }.sorted()
        let other = try #require(versions.first)
        let model = try AppleStoreSchemaTests.model(testCase, version: other)
        let before = StoreKit.files(storeURL)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        do {
            try coordinator.addPersistentStore(type: .sqlite, at: storeURL, options: Self.noMigration)
            Issue.record("\(other) opened a store its model did not write")
        } catch let error as NSError {
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSPersistentStoreIncompatibleVersionHashError)
        }
        #expect(StoreKit.files(storeURL) == before)
    }
}
