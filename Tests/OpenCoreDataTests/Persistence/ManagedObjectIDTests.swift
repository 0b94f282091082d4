import Testing

@testable import OpenCoreDataCore

/// Object IDs: temporary and permanent, their URIs, equality and hashing, and getting an ID back from
/// its URI in a later "launch" (a new coordinator on the same file).
@Suite("Managed object IDs")
struct ManagedObjectIDTests {
    @Test("a temporary ID has no store and a x-coredata:///Entity/t<UUID> URI")
    func temporary() throws {
        let model = StoreKit.blogModel()
        let entity = try #require(model.entitiesByName["Author"])
        let id = NSManagedObjectID(temporaryFor: entity)
        #expect(id.isTemporaryID)
        #expect(id.persistentStore == nil)
        #expect(id.entity === entity)
        let uri = id.uriRepresentation().absoluteString
        #expect(uri.hasPrefix("x-coredata:///Author/t"))
        let uuid = String(uri.dropFirst("x-coredata:///Author/t".count))
        #expect(UUID(uuidString: uuid) != nil)
        // Version 4, RFC 4122 variant: as `UUID()` makes them.
        #expect(Array(uuid)[14] == "4" && "89AB".contains(Array(uuid)[19]))
        let other = NSManagedObjectID(temporaryFor: entity)
        #expect(id != other)
        #expect(id.uriRepresentation() != other.uriRepresentation())
        #expect(id == id.copy() as? NSManagedObjectID)
    }

    @Test("a permanent ID names its store by UUID and its row by primary key")
    func permanent() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Blog.sqlite")
        let (coordinator, store) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
        let id = try #require(StoreKit.insert(coordinator, "Author", [["name": "Ann"]]).first)
        #expect(!id.isTemporaryID)
        #expect(id.persistentStore === store)
        let storeUUID = try #require(store.identifier)
        #expect(UUID(uuidString: storeUUID) != nil)
        #expect(id.uriRepresentation().absoluteString == "x-coredata://\(storeUUID)/Author/p1")
        #expect(store.metadata[NSStoreUUIDKey] as? String == storeUUID)
    }

    @Test("IDs are equal and hash alike when they name the same row, even across coordinators")
    func equality() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Blog.sqlite")
        let model = StoreKit.blogModel()
        let (first, store) = try StoreKit.sqliteCoordinator(model, at: url)
        let ids = try StoreKit.insert(first, "Tag", [["label": "a"], ["label": "b"]])
        let (second, _) = try StoreKit.sqliteCoordinator(model, at: url)
        let again = try #require(second.managedObjectID(forURIRepresentation: ids[0].uriRepresentation()))
        #expect(again == ids[0])
        #expect(again.hash == ids[0].hash)
        #expect(Set([ids[0], ids[1], again]).count == 2)
        let entity = try #require(model.entitiesByName["Tag"])
        #expect(NSManagedObjectID(entity: entity, store: store, primaryKey: 1) == ids[0])
        #expect(NSManagedObjectID(entity: entity, store: store, primaryKey: 2) != ids[0])
        #expect(ids[0] != NSManagedObjectID(temporaryFor: entity))
    }

    @Test("an ID keeps the store identifier it was made under, names its store while it is open, and nil once it is gone")
    func storeOfAnID() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Blog.sqlite")
        let model = StoreKit.blogModel()
        var before: NSManagedObjectID?
        var after: NSManagedObjectID?
        var oldUUID = ""
        do {
            let (coordinator, store) = try StoreKit.sqliteCoordinator(model, at: url)
            before = try StoreKit.insert(coordinator, "Tag", [["label": "a"]]).first
            oldUUID = try #require(store.identifier)
            store.identifier = "B0B0B0B0-0000-4000-8000-000000000001"
            after = try StoreKit.insert(coordinator, "Tag", [["label": "b"]]).first
            let entity = try #require(model.entitiesByName["Tag"])
            #expect(before?.persistentStore === store && after?.persistentStore === store)
            // The same row under the new identifier is another ID; under the old one, the same.
            #expect(NSManagedObjectID(entity: entity, store: store, primaryKey: 1) != before)
            #expect(NSManagedObjectID(entity: entity, store: store, primaryKey: 2) == after)
            try coordinator.remove(store)
        }
        let first = try #require(before)
        let second = try #require(after)
        #expect(first.uriRepresentation().absoluteString == "x-coredata://\(oldUUID)/Tag/p1")
        #expect(second.uriRepresentation().absoluteString == "x-coredata://B0B0B0B0-0000-4000-8000-000000000001/Tag/p2")
        #expect(first.persistentStore == nil && second.persistentStore == nil)
        #expect(first == first.copy() as? NSManagedObjectID && first != second)
    }

    @Test("a permanent ID keeps any 64-bit primary key and no temporary identifier; a temporary ID no key, even where the bits match")
    func keysAndIdentifiers() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (coordinator, store) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: directory.appendingPathComponent("Blog.sqlite"))
        let entity = try #require(coordinator.managedObjectModel.entitiesByName["Tag"])
        let storeUUID = try #require(store.identifier)
        for key: Int64 in [0, 1, 42, Int64.max, Int64.min, -1] {
            let id = NSManagedObjectID(entity: entity, store: store, primaryKey: key)
            #expect(!id.isTemporaryID)
            #expect(id.primaryKey == key)
            #expect(id.temporaryIdentifier == nil)
            #expect(id.persistentStore === store)
            #expect(id.uriRepresentation().absoluteString == "x-coredata://\(storeUUID)/Tag/p\(key)")
            #expect(id == NSManagedObjectID(entity: entity, store: store, primaryKey: key))
        }
        let temporary = NSManagedObjectID(temporaryFor: entity)
        let identifier = try #require(temporary.temporaryIdentifier)
        #expect(temporary.isTemporaryID)
        #expect(temporary.primaryKey == nil)
        #expect(temporary.persistentStore == nil)
        #expect(temporary.uriRepresentation().absoluteString == "x-coredata:///Tag/t\(identifier.uuid.uuidString)")
        // A permanent ID whose key has the identifier's first half is still another ID.
        let lookalike = NSManagedObjectID(entity: entity, store: store, primaryKey: Int64(bitPattern: identifier.high))
        #expect(lookalike != temporary)
        #expect(lookalike.temporaryIdentifier == nil)
        #expect(Set([temporary, lookalike]).count == 2)
    }

    @Test("managedObjectID(forURIRepresentation:) gives the ID back in a later launch, nil for foreign URIs")
    func uriRoundTrip() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Blog.sqlite")
        let uri: URL
        do {
            let (coordinator, store) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
            uri = try #require(StoreKit.insert(coordinator, "Author", [["name": "Ann"]]).first).uriRepresentation()
            try coordinator.remove(store)
        }
        let (coordinator, _) = try StoreKit.sqliteCoordinator(StoreKit.blogModel(), at: url)
        let id = try #require(coordinator.managedObjectID(forURIRepresentation: uri))
        #expect(id.entity.name == "Author")
        #expect(id.primaryKey == 1)
        #expect(try coordinator.row(for: id)?.values["name"] as? String == "Ann")
        let host = try #require(uri.host)
        for bad in [
            "x-coredata://\(host)/Nope/p1", "x-coredata://\(host)/Author/t1", "x-coredata://\(host)/Author/pX",
            "x-coredata://00000000-0000-0000-0000-000000000000/Author/p1", "https://\(host)/Author/p1",
            "x-coredata:///Author/t\(UUID().uuidString)",
        ] {
            #expect(coordinator.managedObjectID(forURIRepresentation: try #require(URL(string: bad))) == nil, "\(bad)")
        }
    }

    @Test("IDs are Sendable and usable from other tasks")
    func sendable() async throws {
        let model = StoreKit.blogModel()
        let id = NSManagedObjectID(temporaryFor: try #require(model.entitiesByName["Tag"]))
        let uri = await Task.detached { id.uriRepresentation() }.value
        #expect(uri == id.uriRepresentation())
    }
}
