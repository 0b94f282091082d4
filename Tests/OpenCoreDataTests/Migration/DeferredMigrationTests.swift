import Testing

@testable import OpenCoreDataCore

/// Deferred lightweight migration: with `NSPersistentStoreDeferredLightweightMigrationOptionKey` the
/// store is usable at once, its metadata says work is pending, and `finishDeferredLightweightMigration()`
/// drops the old tables and builds the indexes.
@Suite("Deferred lightweight migration")
struct DeferredMigrationTests {
    @Test("the store is usable at once; finishDeferredLightweightMigration completes it, as the third seed shows")
    func deferred() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Library.sqlite")
        try MigrationKit.makeStore(MigrationKit.libraryV1(), at: url) { context in
            for index in 0..<20 { context.make("Book", ["title": "book \(index)", "price": Double(index)]) }
        }
        let v2 = MigrationKit.libraryV1()
        let book = try #require(v2.entitiesByName["Book"])
        let title = try #require(book.attributesByName["title"])
        book.indexes = [NSFetchIndexDescription(name: "byTitle", elements: [NSFetchIndexElementDescription(property: title, collationType: .binary)])]
        book.properties = book.properties.filter { $0.name != "price" }
        var options = MigrationKit.lightweight
        options[NSPersistentStoreDeferredLightweightMigrationOptionKey] = true
        let context = try MigrationKit.open(v2, at: url, sources: [MigrationKit.libraryV1()], options: options)
        let coordinator = try #require(context.persistentStoreCoordinator)

        // Usable at once, with the old table and the missing index still pending.
        #expect(try context.all("Book").count == 20)
        context.make("Book", ["title": "new"])
        try context.save()
        // Dropping price runs in place (ALTER TABLE): the column itself waits.
        #expect(try MigrationKit.differences(url, v2).contains("unexpected column ZBOOK.ZPRICE"))
        #expect(try MigrationKit.differences(url, v2).contains("missing index Z_Book_byTitle"))

        let metadata = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        if (metadata[NSPersistentStoreDeferredLightweightMigrationOptionKey] as? Bool) == true {
            try coordinator.finishDeferredLightweightMigration()
        } else {
            Issue.record("the metadata does not record the deferred work")
        }
        #expect(try MigrationKit.differences(url, v2) == [])
        let after = try NSPersistentStoreCoordinator.metadataForPersistentStore(ofType: NSSQLiteStoreType, at: url, options: nil)
        #expect(after[NSPersistentStoreDeferredLightweightMigrationOptionKey] == nil)
        #expect(coordinator.persistentStores.first?.metadata?[NSPersistentStoreDeferredLightweightMigrationOptionKey] == nil)
        #expect(try context.all("Book").count == 21)
        // Finishing again does nothing.
        try coordinator.finishDeferredLightweightMigration()
    }

    @Test("a later migration finishes the pending work of an earlier deferred one first")
    func laterMigration() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Library.sqlite")
        try MigrationKit.makeStore(MigrationKit.libraryV1(), at: url) { context in context.make("Tag", ["label": "t"]) }
        let v2 = MigrationKit.libraryV1()
        v2.entitiesByName["Tag"]?.properties += [ModelKit.attribute("color", .stringAttributeType)]
        var options = MigrationKit.lightweight
        options[NSPersistentStoreDeferredLightweightMigrationOptionKey] = true
        _ = try MigrationKit.open(v2, at: url, sources: [MigrationKit.libraryV1()], options: options)
        let v3 = MigrationKit.libraryV1()
        v3.entitiesByName["Tag"]?.properties += [ModelKit.attribute("size", .integer64AttributeType)]
        let context = try MigrationKit.open(v3, at: url, sources: [v2])
        #expect(try MigrationKit.differences(url, v3) == [])
        #expect(MigrationKit.strings(try context.all("Tag"), "label") == ["t"])
    }
}
