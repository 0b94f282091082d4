import GRDB
import Testing

@testable import OpenCoreDataCore

/// The SQLite store through the coordinator's internal API: Core Data's file layout after saves
/// (checked with SQLite-level queries), reading rows back as canonical values, relationships, versions
/// and optimistic locking, pragmas.
@Suite("SQLite store")
final class SQLiteStoreTests {
    let directory: URL
    let url: URL

    init() throws {
        directory = try Fixtures.temporaryDirectory()
        url = directory.appendingPathComponent("Blog.sqlite")
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    static let born = Date(timeIntervalSinceReferenceDate: 123_456.5)
    static let uid = UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF") ?? UUID()

    func authorValues() -> [String: Any] {
        [
            "name": "Ann", "age": NSNumber(value: 42), "rank": NSNumber(value: 3), "born": Self.born,
            "active": NSNumber(value: true), "uid": Self.uid, "site": URL(string: "https://example.com/ann") as Any,
            "rating": NSNumber(value: 4.5), "balance": NSDecimalNumber(string: "12.25"), "photo": Data([1, 2, 3]),
        ]
    }

    @Test("an insert writes Z_PK, Z_ENT, Z_OPT 1 and Core Data's column encodings")
    func insertLayout() throws {
        let (coordinator, _) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
        let ids = try StoreKit.insert(coordinator, "Author", [authorValues(), ["name": "Bob"]])
        #expect(ids.map { $0.primaryKey } == [1, 2])
        #expect(ids.allSatisfy { !$0.isTemporaryID })
        let rows = try StoreKit.rows(url, "SELECT * FROM ZAUTHOR ORDER BY Z_PK")
        #expect(rows.count == 2)
        let ann = try #require(rows.first)
        let authorNumber = try #require(StoreKit.rows(url, "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Author'").first?[0] as Int64?)
        #expect(ann["Z_PK"] as Int64? == 1)
        #expect(ann["Z_ENT"] as Int64? == authorNumber)
        #expect(ann["Z_OPT"] as Int64? == 1)
        #expect(ann["ZNAME"] as String? == "Ann")
        #expect(ann["ZAGE"] as Int64? == 42)
        #expect(ann["ZBORN"] as Double? == 123_456.5)
        #expect(ann["ZACTIVE"] as Int64? == 1)
        let uuidBlob = try #require(ann["ZUID"] as Data?)
        #expect(uuidBlob.count == 16)
        #expect(uuidBlob == Data([0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF]))
        #expect(ann["ZSITE"] as String? == "https://example.com/ann")
        #expect(ann["ZRATING"] as Double? == 4.5)
        #expect(ann["ZPHOTO"] as Data? == Data([1, 2, 3]))
        let typeRows = try StoreKit.rows(url, "SELECT typeof(ZBORN), typeof(ZACTIVE), typeof(ZUID), typeof(ZAGE) FROM ZAUTHOR WHERE Z_PK = 1")
        #expect(typeRows.first.map { [$0[0], $0[1], $0[2], $0[3]] as [String] } == ["real", "integer", "blob", "integer"])
        let bob = try #require(rows.last)
        #expect(bob["ZAGE"] as DatabaseValue? == .null)
        #expect(try StoreKit.rows(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Author'").first?[0] as Int64? == 2)
    }

    @Test("rows read back as the canonical values of value(forKey:)")
    func canonicalValues() throws {
        let model = StoreKit.blogModel()
        let id: NSManagedObjectID
        do {
            let (coordinator, _) = try StoreKit.sqliteCoordinator(model, at: url)
            id = try #require(StoreKit.insert(coordinator, "Author", [authorValues()]).first)
        }
        let (coordinator, _) = try StoreKit.sqliteCoordinator(model, at: url)
        let reopened = try #require(coordinator.managedObjectID(forURIRepresentation: id.uriRepresentation()))
        let row = try #require(try coordinator.row(for: reopened))
        #expect(row.version == 1)
        #expect(row.values["name"] as? String == "Ann")
        #expect(row.values["age"] as? NSNumber == NSNumber(value: 42))
        #expect(row.values["age"] as? Int == 42)
        #expect(row.values["rank"] as? Int16 == 3)
        #expect(row.values["born"] as? Date == Self.born)
        #expect(row.values["active"] as? Bool == true)
        #expect(row.values["uid"] as? UUID == Self.uid)
        #expect(row.values["site"] as? URL == URL(string: "https://example.com/ann"))
        #expect(row.values["rating"] as? Double == 4.5)
        #expect((row.values["balance"] as? NSDecimalNumber)?.decimalValue == Decimal(string: "12.25"))
        #expect(row.values["photo"] as? Data == Data([1, 2, 3]))
        #expect(row.values.count == 10)
    }

    @Test("to-one keys, to-many through the inverse key, many-to-many join rows, ordered Z_FOK_ positions")
    func relationshipsStored() throws {
        let (coordinator, _) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
        let author = try #require(StoreKit.insert(coordinator, "Author", [["name": "Ann"]]).first)
        let tags = try StoreKit.insert(coordinator, "Tag", [["label": "a"], ["label": "b"]])
        let post = NSManagedObjectID(temporaryFor: try StoreKit.entity(coordinator, "Post"))
        let special = NSManagedObjectID(temporaryFor: try StoreKit.entity(coordinator, "SpecialPost"))
        var changes = StoreSaveChanges()
        changes.inserted = [
            .init(objectID: post, values: ["title": "One", "author": author], toMany: ["tags": tags]),
            .init(objectID: special, values: ["title": "Two", "badge": "gold", "author": author], toMany: ["tags": [tags[1]]]),
        ]
        let result = try coordinator.save(changes)
        let postID = try #require(result.permanentIDs[post])
        let specialID = try #require(result.permanentIDs[special])
        #expect(specialID.entity.name == "SpecialPost")
        // Subentity rows share the root's table and key sequence.
        #expect(Set([postID.primaryKey, specialID.primaryKey]) == [1, 2])
        let postRows = try StoreKit.rows(url, "SELECT Z_PK, Z_ENT, ZAUTHOR, ZBADGE FROM ZPOST ORDER BY Z_PK")
        #expect(postRows.count == 2)
        #expect(postRows.allSatisfy { $0["ZAUTHOR"] as Int64? == author.primaryKey })
        #expect(Set(postRows.map { $0["Z_ENT"] as Int64 }).count == 2)
        let joinTables = try StoreKit.rows(url, "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%TAGS' ESCAPE '\\'")
        let joinTable: String = try #require(joinTables.first?[0])
        #expect(try StoreKit.rows(url, "SELECT * FROM \(joinTable)").count == 3)
        let postsRelationship = try #require(StoreKit.entity(coordinator, "Author").relationshipsByName["posts"])
        #expect(Set(try coordinator.relatedObjectIDs(for: postsRelationship, of: author)) == [postID, specialID])
        let tagsRelationship = try #require(StoreKit.entity(coordinator, "Post").relationshipsByName["tags"])
        #expect(Set(try coordinator.relatedObjectIDs(for: tagsRelationship, of: postID)) == Set(tags))
        let tagPosts = try #require(StoreKit.entity(coordinator, "Tag").relationshipsByName["posts"])
        #expect(Set(try coordinator.relatedObjectIDs(for: tagPosts, of: tags[1])) == [postID, specialID])
        let row = try #require(try coordinator.freshRow(for: specialID))
        #expect(row.values["author"] as? NSManagedObjectID == author)
        #expect(row.values["badge"] as? String == "gold")

        // Ordered to-many through the inverse: positions spaced by 1024, order kept and changed.
        let folders = try StoreKit.insert(coordinator, "Folder", [["title": "root"], ["title": "x"], ["title": "y"], ["title": "z"]])
        let root = folders[0]
        var order = StoreSaveChanges()
        order.updated = [.init(objectID: root, expectedVersion: 1, changedValues: [:], toMany: ["children": [folders[3], folders[1], folders[2]]])]
        _ = try coordinator.save(order)
        let children = try #require(StoreKit.entity(coordinator, "Folder").relationshipsByName["children"])
        #expect(try coordinator.relatedObjectIDs(for: children, of: root) == [folders[3], folders[1], folders[2]])
        let positions = try StoreKit.rows(url, "SELECT Z_PK, Z_FOK_PARENT FROM ZFOLDER WHERE ZPARENT = ? ORDER BY Z_FOK_PARENT", [root.primaryKey])
        #expect(positions.map { $0["Z_FOK_PARENT"] as Int64 } == [1024, 2048, 3072])
        #expect(positions.map { $0["Z_PK"] as Int64? } == [folders[3].primaryKey, folders[1].primaryKey, folders[2].primaryKey])
        var reorder = StoreSaveChanges()
        reorder.updated = [.init(objectID: root, expectedVersion: 2, changedValues: [:], toMany: ["children": [folders[2], folders[3]]])]
        _ = try coordinator.save(reorder)
        #expect(try coordinator.relatedObjectIDs(for: children, of: root) == [folders[2], folders[3]])
        #expect(try coordinator.row(for: folders[1])?.values["parent"] == nil)
        #expect(try coordinator.row(for: folders[2])?.values["parent"] as? NSManagedObjectID == root)
    }

    @Test("updates add one to Z_OPT; a stale version is a conflict carrying the store's row")
    func optimisticLocking() throws {
        let model = StoreKit.blogModel()
        let (first, _) = try StoreKit.sqliteCoordinator(model, at: url)
        let (second, _) = try StoreKit.sqliteCoordinator(model, at: url)
        let id = try #require(StoreKit.insert(first, "Author", [["name": "Ann"]]).first)
        var update = StoreSaveChanges()
        update.updated = [.init(objectID: id, expectedVersion: 1, changedValues: ["name": "Anna", "age": NSNumber(value: 7)], toMany: [:])]
        let result = try first.save(update)
        #expect(result.versions[id] == 2)
        #expect(try StoreKit.rows(url, "SELECT Z_OPT, ZNAME FROM ZAUTHOR").first.map { [$0[0] as Int64, 0] } == [2, 0])
        #expect(try first.row(for: id)?.values["name"] as? String == "Anna")
        #expect(try first.row(for: id)?.version == 2)

        let otherID = try #require(second.managedObjectID(forURIRepresentation: id.uriRepresentation()))
        var stale = StoreSaveChanges()
        stale.updated = [.init(objectID: otherID, expectedVersion: 1, changedValues: ["name": "Stale"], toMany: [:])]
        let error = try #require(throws: StoreSaveConflicts.self) { try second.save(stale) }
        #expect(error.conflicts.count == 1)
        #expect(error.conflicts.first?.expectedVersion == 1)
        #expect(error.conflicts.first?.storeRow?.version == 2)
        #expect(error.conflicts.first?.storeRow?.values["name"] as? String == "Anna")
        #expect(try StoreKit.rows(url, "SELECT ZNAME FROM ZAUTHOR").first?[0] as String? == "Anna")

        var clear = StoreSaveChanges()
        clear.updated = [.init(objectID: id, expectedVersion: 2, changedValues: ["age": nil], toMany: [:])]
        _ = try first.save(clear)
        #expect(try StoreKit.rows(url, "SELECT ZAGE FROM ZAUTHOR").first?[0] as DatabaseValue? == .null)

        var deleteStale = StoreSaveChanges()
        deleteStale.deleted = [.init(objectID: otherID, expectedVersion: 2)]
        #expect(throws: StoreSaveConflicts.self) { try second.save(deleteStale) }
        var delete = StoreSaveChanges()
        delete.deleted = [.init(objectID: id, expectedVersion: 3)]
        _ = try first.save(delete)
        #expect(try first.row(for: id) == nil)
        var gone = StoreSaveChanges()
        gone.updated = [.init(objectID: otherID, expectedVersion: 3, changedValues: ["name": "x"], toMany: [:])]
        let missing = try #require(throws: StoreSaveConflicts.self) { try second.save(gone) }
        #expect(missing.conflicts.first?.storeRow == nil)
    }

    @Test("deleting an object deletes its join-table rows")
    func deleteClearsJoinRows() throws {
        let (coordinator, _) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
        let tags = try StoreKit.insert(coordinator, "Tag", [["label": "a"], ["label": "b"]])
        let post = try #require(StoreKit.insert(coordinator, "Post", [["title": "p"]]).first)
        var link = StoreSaveChanges()
        link.updated = [.init(objectID: post, expectedVersion: 1, changedValues: [:], toMany: ["tags": tags])]
        _ = try coordinator.save(link)
        let joinTable: String = try #require(
            StoreKit.rows(url, "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%TAGS' ESCAPE '\\'").first?[0])
        #expect(try StoreKit.rows(url, "SELECT * FROM \(joinTable)").count == 2)
        var delete = StoreSaveChanges()
        delete.deleted = [.init(objectID: tags[0], expectedVersion: 1)]
        _ = try coordinator.save(delete)
        #expect(try StoreKit.rows(url, "SELECT * FROM \(joinTable)").count == 1)
        var deletePost = StoreSaveChanges()
        deletePost.deleted = [.init(objectID: post, expectedVersion: 2)]
        _ = try coordinator.save(deletePost)
        #expect(try StoreKit.rows(url, "SELECT * FROM \(joinTable)").isEmpty)
        #expect(try StoreKit.rows(url, "SELECT * FROM ZPOST").isEmpty)
    }

    @Test("new stores use WAL; NSSQLitePragmasOption pragmas are applied; bad pragmas are refused")
    func pragmas() throws {
        let model = StoreKit.blogModel()
        let (coordinator, store) = try StoreKit.sqliteCoordinator(model, at: url)
        #expect(try StoreKit.rows(url, "PRAGMA journal_mode").first?[0] as String? == "wal")
        try coordinator.remove(store)
        let other = directory.appendingPathComponent("Delete.sqlite")
        let (second, secondStore) = try StoreKit.sqliteCoordinator(
            model, at: other,
            options: [
                NSSQLitePragmasOption: ["journal_mode": "DELETE", "synchronous": "OFF"] as NSDictionary
            ])
        try StoreKit.insert(second, "Tag", [["label": "a"]])
        #expect(try StoreKit.rows(other, "PRAGMA journal_mode").first?[0] as String? == "delete")
        let synchronous = try (secondStore as? SQLiteStore)?.database().read { try Int.fetchOne($0, sql: "PRAGMA synchronous") }
        #expect(synchronous == 0)
        let bad = NSPersistentStoreCoordinator(managedObjectModel: model)
        let error = try #require(throws: NSError.self) {
            try bad.addPersistentStore(
                type: .sqlite, at: directory.appendingPathComponent("Bad.sqlite"),
                options: [NSSQLitePragmasOption: ["cache_size; DROP TABLE x": "1"]])
        }
        #expect(error.localizedDescription.contains("cache_size; DROP TABLE x"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("Bad.sqlite").path))
    }

    @Test("a read-only store opens an existing file and refuses saves")
    func readOnly() throws {
        let model = StoreKit.blogModel()
        do {
            let (coordinator, _) = try StoreKit.sqliteCoordinator(model, at: url)
            try StoreKit.insert(coordinator, "Tag", [["label": "a"]])
        }
        let (coordinator, store) = try StoreKit.sqliteCoordinator(model, at: url, options: [NSReadOnlyPersistentStoreOption: true])
        #expect(store.isReadOnly)
        let error = try #require(throws: NSError.self) { try StoreKit.insert(coordinator, "Tag", [["label": "b"]]) }
        #expect(error.code == NSPersistentStoreSaveError)
        let missing = NSPersistentStoreCoordinator(managedObjectModel: model)
        #expect(throws: NSError.self) {
            try missing.addPersistentStore(
                type: .sqlite, at: directory.appendingPathComponent("None.sqlite"),
                options: [NSReadOnlyPersistentStoreOption: true])
        }
    }

    @Test("a to-one set in a save wins over an inverse to-many list of the same save that does not mention it")
    func explicitToOneKept() throws {
        for kind in [NSSQLiteStoreType, NSInMemoryStoreType] {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: StoreKit.blogModel())
            try coordinator.addPersistentStore(ofType: kind, configurationName: nil, at: directory.appendingPathComponent("\(kind).sqlite"))
            let author = NSManagedObjectID(temporaryFor: try StoreKit.entity(coordinator, "Author"))
            let post = NSManagedObjectID(temporaryFor: try StoreKit.entity(coordinator, "Post"))
            let other = try #require(StoreKit.insert(coordinator, "Post", [["title": "old"]]).first)
            var changes = StoreSaveChanges()
            changes.inserted = [
                .init(objectID: author, values: ["name": "Ann"], toMany: ["posts": []]),
                .init(objectID: post, values: ["title": "p", "author": author], toMany: [:]),
            ]
            let result = try coordinator.save(changes)
            let authorID = try #require(result.permanentIDs[author])
            let postID = try #require(result.permanentIDs[post])
            #expect(try coordinator.row(for: postID)?.values["author"] as? NSManagedObjectID == authorID, "\(kind)")
            var move = StoreSaveChanges()
            move.updated = [
                .init(objectID: authorID, expectedVersion: 1, changedValues: [:], toMany: ["posts": [other]])
            ]
            _ = try coordinator.save(move)
            let posts = try #require(StoreKit.entity(coordinator, "Author").relationshipsByName["posts"])
            #expect(try coordinator.relatedObjectIDs(for: posts, of: authorID) == [other], "\(kind)")
            #expect(try coordinator.row(for: postID)?.values["author"] == nil, "\(kind)")
        }
    }
}
