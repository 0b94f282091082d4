import Testing

@testable import OpenCoreDataCore

/// The coordinator's public API: adding and removing stores, locating them, metadata on open stores
/// and on files, destroying, replacing and migrating stores; and its row cache.
@Suite("Persistent store coordinator")
final class PersistentStoreCoordinatorTests {
    let directory: URL
    let url: URL

    init() throws {
        directory = try Fixtures.temporaryDirectory()
        url = directory.appendingPathComponent("Blog.sqlite")
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    @Test("a coordinator makes its model immutable and reports an inconsistent model when adding a store")
    func modelInUse() throws {
        let model = StoreKit.blogModel()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        #expect(coordinator.managedObjectModel === model)
        #expect(!model._isEditable)
        let broken = NSManagedObjectModel()
        let entity = ModelKit.entity("Broken", [ModelKit.relationship("nowhere", to: nil)])
        broken.entities = [entity]
        let brokenCoordinator = NSPersistentStoreCoordinator(managedObjectModel: broken)
        let error = try #require(throws: NSError.self) { try brokenCoordinator.addPersistentStore(type: .inMemory, at: url) }
        #expect(error.localizedDescription.contains("Broken"))
    }

    @Test("stores are added with both spellings, found by URL, and removed")
    func addAndRemove() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: StoreKit.blogModel())
        coordinator.name = "main"
        #expect(coordinator.name == "main")
        let sqlite = try coordinator.addPersistentStore(type: .sqlite, at: url)
        let memory = try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        #expect(coordinator.persistentStores.count == 2)
        #expect(sqlite.type == NSSQLiteStoreType && memory.type == NSInMemoryStoreType)
        #expect(NSPersistentStore.StoreType.sqlite.rawValue == "SQLite" && NSPersistentStore.StoreType.inMemory.rawValue == "InMemory")
        #expect(sqlite.url == url)
        #expect(sqlite.persistentStoreCoordinator === coordinator)
        #expect(sqlite.configurationName == "PF_DEFAULT_CONFIGURATION_NAME")
        #expect(!sqlite.isReadOnly)
        #expect(coordinator.persistentStore(for: url) === sqlite)
        #expect(coordinator.persistentStore(for: directory.appendingPathComponent("Other.sqlite")) == nil)
        #expect(sqlite.identifier != memory.identifier)
        let again = try #require(throws: NSError.self) { try coordinator.addPersistentStore(type: .sqlite, at: url) }
        #expect(again.code == NSPersistentStoreOperationError)
        try coordinator.remove(sqlite)
        #expect(coordinator.persistentStores.count == 1)
        #expect(coordinator.persistentStore(for: url) == nil)
        #expect(throws: NSError.self) { try coordinator.remove(sqlite) }
        let unknownConfiguration = try #require(throws: NSError.self) {
            try coordinator.addPersistentStore(type: .sqlite, configuration: "Nope", at: directory.appendingPathComponent("C.sqlite"))
        }
        #expect(unknownConfiguration.localizedDescription.contains("Nope"))
    }

    @Test("metadata: the keys Core Data records, user keys kept across launches, on files without opening")
    func metadata() throws {
        let model = StoreKit.blogModel()
        let (coordinator, store) = try StoreKit.sqliteCoordinator(model, at: url)
        let metadata = coordinator.metadata(for: store)
        #expect(metadata[NSStoreTypeKey] as? String == NSSQLiteStoreType)
        #expect(metadata[NSStoreUUIDKey] as? String == store.identifier)
        #expect(metadata[NSStoreModelVersionHashesKey] != nil)
        #expect(metadata[NSStoreModelVersionIdentifiersKey] != nil)
        #expect(metadata[NSStoreModelVersionChecksumKey] as? String == model.versionChecksum)
        #expect(model.isConfiguration(withName: nil, compatibleWithStoreMetadata: metadata))
        var mine = metadata
        mine["com.example.seen"] = 7
        coordinator.setMetadata(mine, for: store)
        #expect(coordinator.metadata(for: store)["com.example.seen"] as? Int == 7)
        try coordinator.remove(store)
        let onFile = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)
        #expect(onFile["com.example.seen"] as? Int == 7)
        #expect(onFile[NSStoreUUIDKey] as? String == store.identifier)
        var changed = onFile
        changed["com.example.seen"] = 8
        try NSPersistentStoreCoordinator.setMetadata(changed, forPersistentStoreOfType: NSSQLiteStoreType, at: url)
        let reread = try NSPersistentStoreCoordinator.metadataForPersistentStore(type: .sqlite, at: url)
        #expect(reread["com.example.seen"] as? Int == 8)
        #expect(reread[NSStoreUUIDKey] as? String == store.identifier)
        let (_, reopened) = try StoreKit.sqliteCoordinator(model, at: url)
        #expect(reopened.identifier == store.identifier)
        #expect(reopened.metadata["com.example.seen"] as? Int == 8)
        let missing = try #require(throws: NSError.self) {
            try NSPersistentStoreCoordinator.metadataForPersistentStore(
                ofType: NSSQLiteStoreType, at: directory.appendingPathComponent("none.sqlite"))
        }
        #expect(missing.localizedDescription.contains("none.sqlite"))
    }

    @Test("metadata changes are written with the next save")
    func metadataWithSave() throws {
        let model = StoreKit.blogModel()
        let (coordinator, store) = try StoreKit.sqliteCoordinator(model, at: url)
        var metadata = store.metadata ?? [:]
        metadata["k"] = "v"
        store.metadata = metadata
        try StoreKit.insert(coordinator, "Tag", [["label": "a"]])
        #expect(try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url)["k"] as? String == "v")
    }

    @Test("destroyPersistentStore removes the file and its companions, and refuses files that are not stores")
    func destroy() throws {
        let (coordinator, _) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
        try StoreKit.insert(coordinator, "Tag", [["label": "a"]])
        try coordinator.destroyPersistentStore(at: url, type: .sqlite)
        #expect(coordinator.persistentStores.isEmpty)
        for suffix in ["", "-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: url.path + suffix))
        }
        try coordinator.destroyPersistentStore(at: url, ofType: NSSQLiteStoreType)
        let text = directory.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: text)
        #expect(throws: NSError.self) { try coordinator.destroyPersistentStore(at: text, ofType: NSSQLiteStoreType) }
        #expect(FileManager.default.fileExists(atPath: text.path))
    }

    @Test("replacePersistentStore copies a store's rows and metadata to another location")
    func replace() throws {
        let model = StoreKit.blogModel()
        let (coordinator, store) = try StoreKit.sqliteCoordinator(model, at: url)
        try StoreKit.insert(coordinator, "Tag", [["label": "a"], ["label": "b"]])
        let copy = directory.appendingPathComponent("Copy.sqlite")
        try coordinator.replacePersistentStore(at: copy, withPersistentStoreFrom: url, type: .sqlite)
        let (other, copied) = try StoreKit.sqliteCoordinator(model, at: copy)
        #expect(copied.identifier == store.identifier)
        #expect(try StoreKit.rows(copy, "SELECT ZLABEL FROM ZTAG ORDER BY Z_PK").map { $0[0] as String } == ["a", "b"])
        try StoreKit.insert(other, "Tag", [["label": "c"]])
        #expect(try StoreKit.rows(url, "SELECT count(*) FROM ZTAG").first?[0] as Int? == 2)
        let text = directory.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: text)
        #expect(throws: NSError.self) {
            try coordinator.replacePersistentStore(at: copy, withPersistentStoreFrom: text, ofType: NSSQLiteStoreType)
        }
    }

    @Test("migratePersistentStore copies objects and relationships to another location and type")
    func migrate() throws {
        let (coordinator, store) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
        let author = try #require(StoreKit.insert(coordinator, "Author", [["name": "Ann"]]).first)
        let tags = try StoreKit.insert(coordinator, "Tag", [["label": "a"], ["label": "b"]])
        var link = StoreSaveChanges()
        link.inserted = [
            .init(
                objectID: NSManagedObjectID(temporaryFor: try StoreKit.entity(coordinator, "Post")),
                values: ["title": "p", "author": author], toMany: ["tags": tags])
        ]
        _ = try coordinator.save(link)
        let memory = try coordinator.migratePersistentStore(store, to: directory.appendingPathComponent("mem"), type: .inMemory)
        #expect(coordinator.persistentStores.count == 1 && coordinator.persistentStores.first === memory)
        let memoryRows = try memory._allRows()
        #expect(memoryRows.count == 4)
        let post = try #require(memoryRows.first { $0.objectID.entity.name == "Post" })
        let newAuthor = try #require(post.values["author"] as? NSManagedObjectID)
        #expect(try coordinator.row(for: newAuthor)?.values["name"] as? String == "Ann")
        let tagsRelationship = try #require(StoreKit.entity(coordinator, "Post").relationshipsByName["tags"])
        #expect(try coordinator.relatedObjectIDs(for: tagsRelationship, of: post.objectID).count == 2)
        let back = directory.appendingPathComponent("Back.sqlite")
        let sqlite = try coordinator.migratePersistentStore(memory, to: back, withType: NSSQLiteStoreType)
        #expect(sqlite.url == back)
        #expect(try StoreKit.rows(back, "SELECT ZTITLE, ZAUTHOR FROM ZPOST").first.map { $0[0] as String } == "p")
        let joinTable: String = try #require(
            StoreKit.rows(back, "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z\\_%TAGS' ESCAPE '\\'").first?[0])
        #expect(try StoreKit.rows(back, "SELECT * FROM \(joinTable)").count == 2)
        #expect(throws: NSError.self) { try coordinator.migratePersistentStore(sqlite, to: back, type: .sqlite) }
    }

    @Test("addPersistentStore(with:) adds a description's store and reports errors through the handler")
    func addWithDescription() throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: StoreKit.blogModel())
        let description = NSPersistentStoreDescription(url: url)
        description.setValue("OFF" as NSString, forPragmaNamed: "synchronous")
        var reported: [(NSPersistentStoreDescription, (any Error)?)] = []
        coordinator.addPersistentStore(with: description) { reported.append(($0, $1)) }
        #expect(reported.count == 1)
        #expect(reported.first?.0 === description)
        #expect(reported.first?.1 == nil)
        #expect(coordinator.persistentStore(for: url) != nil)
        let bad = NSPersistentStoreDescription(url: directory.appendingPathComponent("x"))
        bad.type = "Fancy"
        coordinator.addPersistentStore(with: bad) { reported.append(($0, $1)) }
        #expect((reported.last?.1 as? NSError)?.code == NSPersistentStoreInvalidTypeError)
    }

    @Test("the row cache answers row(for:) and is refreshed by saves")
    func rowCache() throws {
        let model = StoreKit.blogModel()
        let (coordinator, _) = try StoreKit.sqliteCoordinator(model, at: url)
        let id = try #require(StoreKit.insert(coordinator, "Tag", [["label": "a"]]).first)
        #expect(coordinator._rowCache.row(for: id)?.values["label"] as? String == "a")
        // Another coordinator changes the row: the cache keeps the old snapshot until refreshed.
        let (other, _) = try StoreKit.sqliteCoordinator(model, at: url)
        let otherID = try #require(other.managedObjectID(forURIRepresentation: id.uriRepresentation()))
        var update = StoreSaveChanges()
        update.updated = [.init(objectID: otherID, expectedVersion: 1, changedValues: ["label": "b"], toMany: [:])]
        _ = try other.save(update)
        #expect(try coordinator.row(for: id)?.values["label"] as? String == "a")
        #expect(try coordinator.freshRow(for: id)?.values["label"] as? String == "b")
        #expect(try coordinator.row(for: id)?.version == 2)
        var delete = StoreSaveChanges()
        delete.deleted = [.init(objectID: id, expectedVersion: 2)]
        _ = try coordinator.save(delete)
        #expect(coordinator._rowCache.row(for: id) == nil)
        #expect(try coordinator.row(for: id) == nil)
    }

    @Test("a save's new rows are cached with permanent IDs for new destinations, and another context's faults read them")
    func savedRowsInCache() throws {
        // A to-one relationship without an inverse: saving it changes no other row (an inverse's change
        // would make the cache forget the destinations' rows).
        let author = ModelKit.entity("Author", [ModelKit.attribute("name", .stringAttributeType)])
        let post = ModelKit.entity("Post", [ModelKit.attribute("title", .stringAttributeType)])
        post.properties.append(ModelKit.relationship("author", to: author))
        let model = NSManagedObjectModel()
        model.entities = [author, post]
        let (coordinator, _) = try StoreKit.sqliteCoordinator(model, at: url)
        let writer = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        writer.persistentStoreCoordinator = coordinator
        let (postID, authorID) = try writer.performAndWait {
            let author = NSEntityDescription.insertNewObject(forEntityName: "Author", into: writer)
            let post = NSEntityDescription.insertNewObject(forEntityName: "Post", into: writer)
            post.setValue("first", forKey: "title")
            post.setValue(author, forKey: "author")
            try writer.save()
            return (post.objectID, author.objectID)
        }
        #expect(!postID.isTemporaryID && !authorID.isTemporaryID)
        // The cached row names the author by the ID the save gave it, not the temporary one.
        let row = try #require(coordinator._rowCache.row(for: postID))
        #expect(row.version == 1)
        #expect(row.values["title"] as? String == "first")
        #expect(row.values["author"] as? NSManagedObjectID == authorID)
        // Another context's fault of the new object fires with the saved values, its to-one included.
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        try reader.performAndWait {
            let post = reader.object(with: postID)
            #expect(post.value(forKey: "title") as? String == "first")
            #expect((post.value(forKey: "author") as? NSManagedObject)?.objectID == authorID)
            // An edit saves over the cached row: version 2, and the cache has the new value.
            post.setValue("second", forKey: "title")
            try reader.save()
        }
        #expect(coordinator._rowCache.row(for: postID)?.version == 2)
        #expect(coordinator._rowCache.row(for: postID)?.values["title"] as? String == "second")
    }

    @Test("a store whose identifier changes leaves no rows cached under the old one")
    func rowCacheFollowsIdentifier() throws {
        let model = StoreKit.blogModel()
        let (coordinator, store) = try StoreKit.sqliteCoordinator(model, at: url)
        let oldIdentifier = try #require(store.identifier)
        let id = try #require(StoreKit.insert(coordinator, "Tag", [["label": "a"]]).first)
        #expect(coordinator._rowCache.row(for: id) != nil)
        // Setting the identifier, or metadata with another NSStoreUUIDKey, drops the rows under the old one.
        store.identifier = "renamed"
        #expect(coordinator._rowCache.row(for: id) == nil)
        #expect(coordinator._rowCache.count == 0)
        let renamedID = try #require(StoreKit.insert(coordinator, "Tag", [["label": "b"]]).first)
        #expect(renamedID.storeIdentifier == "renamed")
        #expect(coordinator._rowCache.row(for: renamedID) != nil)
        var metadata = try #require(store.metadata)
        metadata[NSStoreUUIDKey] = oldIdentifier
        store.metadata = metadata
        #expect(coordinator._rowCache.row(for: renamedID) == nil)
        // The same identifier again keeps the rows.
        let again = try #require(StoreKit.insert(coordinator, "Tag", [["label": "c"]]).first)
        store.identifier = oldIdentifier
        #expect(coordinator._rowCache.row(for: again)?.values["label"] as? String == "c")
    }

    @Test("perform and performAndWait run blocks on the coordinator's queue; performAndWait is re-entrant")
    func performBlocks() async throws {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: StoreKit.blogModel())
        try coordinator.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
        var ran = 0
        coordinator.performAndWait {
            ran += 1
            coordinator.performAndWait { ran += 1 }
        }
        #expect(ran == 2)
        let count = await withCheckedContinuation { continuation in
            coordinator.perform {
                let stores = coordinator.persistentStores.count
                continuation.resume(returning: stores)
            }
        }
        #expect(count == 1)
    }
}
