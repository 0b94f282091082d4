import Testing

@testable import OpenCoreDataCore

/// The in-memory store: the same internal API as the SQLite store, with predicates, sorts, limits and
/// relationships evaluated in memory, versions and locking, and no file.
@Suite("In-memory store")
struct InMemoryStoreTests {
    func coordinator() throws -> (NSPersistentStoreCoordinator, NSPersistentStore) {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: StoreKit.blogModel())
        let store = try coordinator.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
        return (coordinator, store)
    }

    @Test("a store has a type, a UUID and metadata, and writes no file")
    func noFile() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: StoreKit.blogModel())
        let store = try coordinator.addPersistentStore(type: .inMemory, at: directory.appendingPathComponent("mem.sqlite"))
        try StoreKit.insert(coordinator, "Tag", [["label": "a"]])
        #expect(store.type == NSInMemoryStoreType)
        #expect(UUID(uuidString: try #require(store.identifier)) != nil)
        #expect(store.metadata[NSStoreTypeKey] as? String == NSInMemoryStoreType)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test("fetches evaluate predicates, key paths through to-one, sorts, offset and limit in memory")
    func fetching() throws {
        let (coordinator, _) = try coordinator()
        let authors = try StoreKit.insert(
            coordinator, "Author",
            [
                ["name": "Ann", "age": NSNumber(value: 40)], ["name": "bob", "age": NSNumber(value: 30)],
                ["name": "Cid", "age": NSNumber(value: 50)],
            ])
        try StoreKit.insert(
            coordinator, "Post",
            [
                ["title": "hello", "author": authors[0]], ["title": "help", "author": authors[1]],
                ["title": "other", "author": authors[2]],
            ])
        let byAge = [NSSortDescriptor(key: "age", ascending: false)]
        let all = try coordinator.fetchRows(StoreKit.request("Author", sort: byAge))
        #expect(all.map { $0.values["name"] as? String } == ["Cid", "Ann", "bob"])
        #expect(try coordinator.fetchRows(StoreKit.request("Author", "name BEGINSWITH[c] %@", ["B"])).count == 1)
        let window = StoreKit.request("Author", sort: byAge)
        window.fetchOffset = 1
        window.fetchLimit = 1
        #expect(try coordinator.fetchRows(window).map { $0.values["name"] as? String } == ["Ann"])
        #expect(try coordinator.count(window) == 1)
        #expect(try coordinator.count(StoreKit.request("Post", "author.age >= 40")) == 2)
        #expect(try coordinator.count(StoreKit.request("Author", "ANY posts.title BEGINSWITH 'hel'")) == 2)
        #expect(try coordinator.count(StoreKit.request("Author", "posts.@count == 1")) == 3)
        #expect(try coordinator.fetchObjectIDs(StoreKit.request("Post", "author == %@", [authors[1]])).count == 1)
        let ids = try coordinator.fetchObjectIDs(StoreKit.request("Author", "age < 45", sort: [NSSortDescriptor(key: "name", ascending: true)]))
        #expect(ids == [authors[0], authors[1]])
    }

    @Test("subentities are included unless includesSubentities is false")
    func subentities() throws {
        let (coordinator, _) = try coordinator()
        try StoreKit.insert(coordinator, "Post", [["title": "plain"]])
        try StoreKit.insert(coordinator, "SpecialPost", [["title": "special", "badge": "gold"]])
        let request = StoreKit.request("Post")
        #expect(try coordinator.count(request) == 2)
        request.includesSubentities = false
        #expect(try coordinator.count(request) == 1)
    }

    @Test("relationships: to-many through the inverse, many-to-many, ordered; deletes drop the pairs")
    func relationships() throws {
        let (coordinator, _) = try coordinator()
        let folders = try StoreKit.insert(coordinator, "Folder", [["title": "root"], ["title": "a"], ["title": "b"]])
        let tags = try StoreKit.insert(coordinator, "Tag", [["label": "x"], ["label": "y"]])
        let post = try #require(StoreKit.insert(coordinator, "Post", [["title": "p"]]).first)
        var changes = StoreSaveChanges()
        changes.updated = [
            .init(objectID: folders[0], expectedVersion: 1, changedValues: [:], toMany: ["children": [folders[2], folders[1]]]),
            .init(objectID: post, expectedVersion: 1, changedValues: [:], toMany: ["tags": tags]),
        ]
        _ = try coordinator.save(changes)
        let children = try #require(StoreKit.entity(coordinator, "Folder").relationshipsByName["children"])
        #expect(try coordinator.relatedObjectIDs(for: children, of: folders[0]) == [folders[2], folders[1]])
        #expect(try coordinator.row(for: folders[1])?.values["parent"] as? NSManagedObjectID == folders[0])
        let tagPosts = try #require(StoreKit.entity(coordinator, "Tag").relationshipsByName["posts"])
        #expect(try coordinator.relatedObjectIDs(for: tagPosts, of: tags[0]) == [post])
        var delete = StoreSaveChanges()
        delete.deleted = [.init(objectID: post, expectedVersion: 2)]
        _ = try coordinator.save(delete)
        #expect(try coordinator.relatedObjectIDs(for: tagPosts, of: tags[0]).isEmpty)
        #expect(try coordinator.row(for: post) == nil)
    }

    @Test("versions and optimistic locking behave as in the SQLite store; a failed save changes nothing")
    func locking() throws {
        let (coordinator, _) = try coordinator()
        let id = try #require(StoreKit.insert(coordinator, "Tag", [["label": "a"]]).first)
        var update = StoreSaveChanges()
        update.updated = [.init(objectID: id, expectedVersion: 1, changedValues: ["label": "b"], toMany: [:])]
        #expect(try coordinator.save(update).versions[id] == 2)
        var stale = StoreSaveChanges()
        stale.inserted = [
            .init(objectID: NSManagedObjectID(temporaryFor: try StoreKit.entity(coordinator, "Tag")), values: ["label": "new"], toMany: [:])
        ]
        stale.updated = [.init(objectID: id, expectedVersion: 1, changedValues: ["label": "c"], toMany: [:])]
        let conflicts = try #require(throws: StoreSaveConflicts.self) { try coordinator.save(stale) }
        #expect(conflicts.conflicts.first?.storeRow?.values["label"] as? String == "b")
        #expect(try coordinator.count(StoreKit.request("Tag")) == 1)
        var badReference = StoreSaveChanges()
        badReference.inserted = [
            .init(objectID: NSManagedObjectID(temporaryFor: try StoreKit.entity(coordinator, "Tag")), values: ["label": "ok"], toMany: [:]),
            .init(
                objectID: NSManagedObjectID(temporaryFor: try StoreKit.entity(coordinator, "Post")),
                values: ["author": NSManagedObjectID(temporaryFor: try StoreKit.entity(coordinator, "Author"))], toMany: [:]),
        ]
        #expect(throws: NSError.self) { try coordinator.save(badReference) }
        #expect(try coordinator.count(StoreKit.request("Tag")) == 1)
        #expect(try StoreKit.insert(coordinator, "Tag", [["label": "next"]]).first?.primaryKey == 2)
    }
}
