import Foundation
import GRDB
import Testing

@testable import OpenCoreDataCore

/// Lightweight migrations of a store whose derived attributes Apple's `Z_DA_` triggers keep (the
/// Apple-written `SampleModel2_V1`, `Book.pagesCount` = `pages.@count`).
@Suite("Migrating a store with Apple's derived-attribute triggers")
struct DerivedAttributeTriggerMigrationTests {
    typealias AppleStack = AppleStoreHistoryTests.AppleStack

    /// The names of the file's triggers.
    static func triggers(_ url: URL) throws -> [String] {
        try StoreKit.rows(url, "SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").map { $0[0] }
    }

    /// The fixture copied into a new directory and migrated to a copy of its model changed by `change`;
    /// a stack on the migrated file, and its URL.
    static func migrate(_ change: (NSManagedObjectModel) -> Void) throws -> (AppleStack, URL) {
        let source = try AppleStack()
        let url = source.url
        for store in source.coordinator.persistentStores { try source.coordinator.remove(store) }
        let destination = try NSManagedObjectModel.load(cachedInStoreAt: url)
        change(destination)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: destination)
        coordinator.migrationSourceModels = [source.model]
        var options = HistoryKit.tracking
        options[NSMigratePersistentStoresAutomaticallyOption] = true
        options[NSInferMappingModelAutomaticallyOption] = true
        _ = try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        return (try AppleStack(directory: source.directory, url: url, model: destination), url)
    }

    /// Each table's root page: a table copied by the migration is a new table with another.
    static func rootPages(_ url: URL) throws -> [String: Int64] {
        var pages: [String: Int64] = [:]
        for row in try StoreKit.rows(url, "SELECT name, rootpage FROM sqlite_master WHERE type = 'table'") { pages[row[0]] = row[1] }
        return pages
    }

    /// Adds three pages to a book through the migrated stack and checks the count the book, the file
    /// and the other books show.
    static func expectPagesCounted(_ stack: AppleStack) throws {
        let title = "title 2 - author 2"
        try stack.context.performAndWait {
            let book = try DerivedAttributeTriggerTests.book(title, in: stack.context)
            let before = try #require(book.value(forKey: "pagesCount") as? Int)
            for number in 1...3 {
                let page = NSEntityDescription.insertNewObject(forEntityName: "Page", into: stack.context)
                page.setValue(2000 + number, forKey: "number")
                page.setValue(false, forKey: "isBookmarked")
                page.setValue(Data("page \(number)".utf8), forKey: "content")
                page.setValue(book, forKey: "book")
            }
            try stack.context.save()
            #expect(book.value(forKey: "pagesCount") as? Int == before + 3)
        }
        try DerivedAttributeTriggerTests.expectConsistentFile(stack.url)
        #expect(try DerivedAttributeTriggerTests.reopenedCount(stack, title: title) == 102)
    }

    @Test("a migration in place (an attribute added) keeps the triggers, which count later pages once")
    func inPlaceKeepsTriggers() throws {
        let before = try AppleStack()
        let triggers = try Self.triggers(before.url)
        let pages = try Self.rootPages(before.url)
        let (stack, url) = try Self.migrate { model in
            let subtitle = NSAttributeDescription()
            subtitle.name = "subtitle"
            subtitle.attributeType = .stringAttributeType
            subtitle.isOptional = true
            model.entitiesByName["Book"]?.properties.append(subtitle)
        }
        #expect(triggers.count == 5)
        #expect(try Self.triggers(url) == triggers)
        #expect(try Self.rootPages(url)["ZBOOK"] == pages["ZBOOK"])
        try Self.expectPagesCounted(stack)
    }

    @Test("a migration that copies the tables (pages made ordered) creates the triggers again on the new tables")
    func copyRecreatesTriggers() throws {
        let before = try AppleStack()
        let triggers = try Self.triggers(before.url)
        let sql = try StoreKit.rows(before.url, "SELECT sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name").map { $0[0] as String }
        let pages = try Self.rootPages(before.url)
        let (stack, url) = try Self.migrate { model in
            model.entitiesByName["Book"]?.relationshipsByName["pages"]?.isOrdered = true
        }
        #expect(try Self.rootPages(url)["ZPAGE"] != pages["ZPAGE"])
        #expect(try Self.triggers(url) == triggers)
        #expect(try StoreKit.rows(url, "SELECT sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name").map { $0[0] as String } == sql)
        try DerivedAttributeTriggerTests.expectConsistentFile(url)
        try Self.expectPagesCounted(stack)
    }

    @Test("a derived attribute the new model drops takes its triggers with it; its column goes in place and pages save")
    func droppedAttributeDropsTriggers() throws {
        let before = try AppleStack()
        let pages = try Self.rootPages(before.url)
        let (stack, url) = try Self.migrate { model in
            model.entitiesByName["Book"]?.properties.removeAll { $0.name == "pagesCount" }
        }
        #expect(try Self.triggers(url) == [])
        // The triggers no longer block `DROP COLUMN`: the table is altered, not copied.
        #expect(try Self.rootPages(url)["ZBOOK"] == pages["ZBOOK"])
        let columns = try StoreKit.rows(url, "SELECT name FROM pragma_table_info('ZBOOK')").map { $0[0] as String }
        #expect(!columns.contains("ZPAGESCOUNT") && columns.contains("ZTITLE"))
        let count = try StoreKit.rows(url, "SELECT count(*) FROM ZPAGE")[0][0] as Int64
        try stack.context.performAndWait {
            let book = try DerivedAttributeTriggerTests.book("title 2 - author 2", in: stack.context)
            let page = NSEntityDescription.insertNewObject(forEntityName: "Page", into: stack.context)
            page.setValue(3001, forKey: "number")
            page.setValue(false, forKey: "isBookmarked")
            page.setValue(Data("page".utf8), forKey: "content")
            page.setValue(book, forKey: "book")
            try stack.context.save()
        }
        #expect(try StoreKit.rows(url, "SELECT count(*) FROM ZPAGE")[0][0] as Int64 == count + 1)
        #expect(try StoreProcesses.sqlite(url, "PRAGMA integrity_check") == "ok")
    }
}
