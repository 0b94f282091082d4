import GRDB
import Testing

@testable import OpenCoreDataCore

/// A save commits whole or leaves the store file as it was: saves made to fail part-way (by a trigger
/// installed in the file, by a locking conflict, by a bad reference) change nothing, not even the
/// primary-key counters.
@Suite("SQLite store atomicity")
final class SQLiteStoreAtomicityTests {
    let directory: URL
    let url: URL

    init() throws {
        directory = try Fixtures.temporaryDirectory()
        url = directory.appendingPathComponent("Blog.sqlite")
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Every row of every table, as text, for comparing the file's contents.
    func contents() throws -> [String] {
        let tables = try StoreKit.rows(url, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map { $0[0] as String }
        var result: [String] = []
        for table in tables {
            for row in try StoreKit.rows(url, "SELECT * FROM \(table)") {
                result.append("\(table): \(row.description)")
            }
        }
        return result
    }

    @Test("a trigger failing on the third insert leaves the file byte for byte as it was")
    func triggerFailsMidway() throws {
        let (coordinator, store) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
        let author = try #require(StoreKit.insert(coordinator, "Author", [["name": "Ann"]]).first)
        let sqliteStore = try #require(store as? SQLiteStore)
        try sqliteStore.database().write { db in
            try db.execute(
                sql: "CREATE TRIGGER fail_third AFTER INSERT ON ZTAG WHEN NEW.ZLABEL = 'boom' BEGIN SELECT RAISE(ABORT, 'boom refused'); END")
        }
        _ = try sqliteStore.database().writeWithoutTransaction { try $0.checkpoint(.truncate) }
        let before = StoreKit.files(url, suffixes: ["", "-wal"])
        let contentsBefore = try contents()

        let tag = try StoreKit.entity(coordinator, "Tag")
        let post = try StoreKit.entity(coordinator, "Post")
        var changes = StoreSaveChanges()
        let newPost = NSManagedObjectID(temporaryFor: post)
        let tags = (0..<3).map { _ in NSManagedObjectID(temporaryFor: tag) }
        changes.inserted =
            [.init(objectID: newPost, values: ["title": "p", "author": author], toMany: ["tags": tags])]
            + zip(tags, ["a", "b", "boom"]).map { .init(objectID: $0, values: ["label": $1], toMany: [:]) }
        changes.updated = [.init(objectID: author, expectedVersion: 1, changedValues: ["name": "Changed"], toMany: [:])]
        let error = try #require(throws: NSError.self) { try coordinator.save(changes) }
        #expect(error.localizedDescription.contains("boom refused"))
        #expect(error.localizedDescription.contains(url.path))

        #expect(StoreKit.files(url, suffixes: ["", "-wal"]) == before)
        #expect(try contents() == contentsBefore)
        #expect(try coordinator.freshRow(for: author)?.values["name"] as? String == "Ann")
        #expect(try coordinator.freshRow(for: author)?.version == 1)
        // The store is still usable and allocates the keys the failed save would have taken.
        let saved = try StoreKit.insert(coordinator, "Tag", [["label": "fine"]])
        #expect(saved.first?.primaryKey == 1)
    }

    @Test("a locking conflict on one object writes none of the save's inserts, updates or keys")
    func conflictWritesNothing() throws {
        let (coordinator, _) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
        let authors = try StoreKit.insert(coordinator, "Author", [["name": "Ann"], ["name": "Bob"]])
        let contentsBefore = try contents()
        var changes = StoreSaveChanges()
        changes.inserted = [
            .init(
                objectID: NSManagedObjectID(temporaryFor: try StoreKit.entity(coordinator, "Tag")),
                values: ["label": "x"], toMany: [:])
        ]
        changes.updated = [
            .init(objectID: authors[0], expectedVersion: 1, changedValues: ["name": "Ann 2"], toMany: [:]),
            .init(objectID: authors[1], expectedVersion: 5, changedValues: ["name": "Bob 2"], toMany: [:]),
        ]
        let conflicts = try #require(throws: StoreSaveConflicts.self) { try coordinator.save(changes) }
        #expect(conflicts.conflicts.map(\.objectID) == [authors[1]])
        #expect(try contents() == contentsBefore)
    }

    @Test("a reference to an object outside the save fails it before anything is written")
    func badReference() throws {
        let (coordinator, _) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
        try StoreKit.insert(coordinator, "Tag", [["label": "a"]])
        let contentsBefore = try contents()
        let unsaved = NSManagedObjectID(temporaryFor: try StoreKit.entity(coordinator, "Author"))
        var changes = StoreSaveChanges()
        changes.inserted = [
            .init(
                objectID: NSManagedObjectID(temporaryFor: try StoreKit.entity(coordinator, "Post")),
                values: ["title": "p", "author": unsaved], toMany: [:])
        ]
        let error = try #require(throws: NSError.self) { try coordinator.save(changes) }
        #expect(error.code == NSPersistentStoreSaveError)
        #expect(error.localizedDescription.contains("author"))
        #expect(try contents() == contentsBefore)
    }
}
