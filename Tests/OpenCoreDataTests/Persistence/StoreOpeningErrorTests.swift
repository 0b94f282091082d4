import GRDB
import Testing

@testable import OpenCoreDataCore

/// Opening files that are not stores for the model: each fails with an error naming the file and leaves
/// the file (and its -wal and -shm companions) byte for byte as it was.
@Suite("Store opening errors")
final class StoreOpeningErrorTests {
    let directory: URL

    init() throws {
        directory = try Fixtures.temporaryDirectory()
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A model whose Tag entity differs from the blog model's (an extra attribute).
    func changedModel() -> NSManagedObjectModel {
        let model = StoreKit.blogModel()
        model.entitiesByName["Tag"]?.properties += [ModelKit.attribute("color", .stringAttributeType)]
        return model
    }

    func expectFailure(
        at url: URL, model: NSManagedObjectModel = StoreKit.blogModel(),
        options: [AnyHashable: Any]? = nil
    ) throws -> NSError {
        let before = StoreKit.files(url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let error = try #require(throws: NSError.self) {
            try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
        }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.localizedDescription.contains(url.path))
        #expect(StoreKit.files(url) == before)
        #expect(coordinator.persistentStores.isEmpty)
        return error
    }

    @Test("a store written for another model fails with 134100 and stays untouched, -wal and -shm included")
    func incompatibleModel() throws {
        let url = directory.appendingPathComponent("Blog.sqlite")
        // Leave the store with a live -wal and -shm: a second connection keeps them from being removed.
        let (coordinator, store) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
        try StoreKit.insert(coordinator, "Tag", [["label": "a"]])
        #expect(FileManager.default.fileExists(atPath: url.path + "-wal"))
        let error = try expectFailure(at: url, model: changedModel())
        #expect(error.code == NSPersistentStoreIncompatibleVersionHashError)
        #expect(error.localizedDescription.contains("ZCOLOR"))
        let asked = try expectFailure(at: url, model: changedModel(), options: [NSMigratePersistentStoresAutomaticallyOption: true])
        // Migration asked, but the store's model is nowhere to be found (Apple's 134130).
        #expect(asked.code == NSMigrationMissingSourceModelError)
        try coordinator.remove(store)
        // Closed: no companions; still refused, still untouched.
        #expect(try expectFailure(at: url, model: changedModel()).code == NSPersistentStoreIncompatibleVersionHashError)
        // The matching model still opens it.
        _ = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
    }

    @Test("different hashes but the same layout is compatible (decided structurally)")
    func structurallyCompatible() throws {
        let url = directory.appendingPathComponent("Blog.sqlite")
        _ = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
        let model = StoreKit.blogModel()
        model.entitiesByName["Tag"]?.versionHashModifier = "v2"
        #expect(
            !model.isConfiguration(
                withName: nil,
                compatibleWithStoreMetadata: try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)))
        let (_, store) = try StoreKit.sqliteCoordinator(model, at: url)
        #expect(store.type == NSSQLiteStoreType)
    }

    @Test("a text file is not a store")
    func textFile() throws {
        let url = directory.appendingPathComponent("notes.sqlite")
        try Data("these are not the droids you are looking for\n".utf8).write(to: url)
        let error = try expectFailure(at: url)
        #expect(error.code == NSFileReadCorruptFileError)
    }

    @Test("a truncated store fails and is not repaired")
    func truncated() throws {
        let source = directory.appendingPathComponent("Full.sqlite")
        do {
            let (coordinator, store) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: source)
            try StoreKit.insert(coordinator, "Tag", (0..<200).map { ["label": "tag \($0)"] })
            try coordinator.remove(store)
        }
        let data = try #require(FileManager.default.contents(atPath: source.path))
        let url = directory.appendingPathComponent("Truncated.sqlite")
        try data.prefix(data.count / 3).write(to: url)
        let error = try expectFailure(at: url)
        #expect([NSFileReadCorruptFileError, NSSQLiteError].contains(error.code))
    }

    @Test("a SQLite database that is not a Core Data store")
    func plainDatabase() throws {
        let url = directory.appendingPathComponent("plain.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: "CREATE TABLE t (x INTEGER)") }
        try queue.close()
        let error = try expectFailure(at: url)
        #expect(error.code == NSFileReadCorruptFileError)
        #expect(error.localizedDescription.contains("Z_METADATA"))
    }

    @Test("a directory is not a store")
    func directoryPath() throws {
        let url = directory.appendingPathComponent("Folder.sqlite", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let error = try expectFailure(at: url)
        #expect(error.code == NSFileReadCorruptFileError)
    }

    @Test("an unreadable file fails with a permission error", .enabled(if: getuid() != 0, "root reads every file"))
    func unreadable() throws {
        let url = directory.appendingPathComponent("Locked.sqlite")
        do {
            let (coordinator, store) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
            try coordinator.remove(store)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: url.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path) }
        let error = try expectFailure(at: url)
        #expect(error.code == NSFileReadNoPermissionError)
    }

    @Test("an unknown store type fails with 134000")
    func unknownType() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: StoreKit.blogModel())
        let url = directory.appendingPathComponent("x.store")
        let error = try #require(throws: NSError.self) {
            try coordinator.addPersistentStore(ofType: "Fancy", configurationName: nil, at: url)
        }
        #expect(error.code == NSPersistentStoreInvalidTypeError)
        #expect(error.localizedDescription.contains("Fancy"))
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
