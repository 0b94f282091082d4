import Foundation
import GRDB
import Testing

@testable import OpenCoreDataCore

/// Apple's derived-attribute triggers: the Apple-written `SampleModel2_V1` keeps `Book.pagesCount`
/// (`pages.@count`) with `Z_DA_` triggers on `ZPAGE` and `ZBOOK` that call Core Data's SQL functions.
/// Saves through contexts fire them; the counts in the file, in the saving context and in another
/// coordinator agree with the pages, counted once.
@Suite("Apple's derived-attribute triggers")
struct DerivedAttributeTriggerTests {
    typealias AppleStack = AppleStoreHistoryTests.AppleStack

    /// The file's `ZPAGESCOUNT` of every book, and the pages that name each book, by primary key.
    static func fileCounts(_ url: URL) throws -> (stored: [Int64: Int64], counted: [Int64: Int64]) {
        var stored: [Int64: Int64] = [:]
        var counted: [Int64: Int64] = [:]
        for row in try StoreKit.rows(url, "SELECT Z_PK, ZPAGESCOUNT, (SELECT count(*) FROM ZPAGE WHERE ZPAGE.ZBOOK = ZBOOK.Z_PK) FROM ZBOOK") {
            stored[row[0]] = row[1]
            counted[row[0]] = row[2]
        }
        return (stored, counted)
    }

    /// The book titled `title`.
    static func book(_ title: String, in context: NSManagedObjectContext) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: "Book")
        request.predicate = NSPredicate(format: "title == %@", title)
        return try #require(try context.fetch(request).first)
    }

    /// The derived count of a book as a fresh coordinator on the file reads it.
    static func reopenedCount(_ stack: AppleStack, title: String) throws -> Int? {
        let other = try AppleStack(reopening: stack)
        return try other.context.performAndWait {
            try book(title, in: other.context).value(forKey: "pagesCount") as? Int
        }
    }

    /// Checks that every book's stored count is its number of pages and that the file is sound.
    static func expectConsistentFile(_ url: URL) throws {
        let counts = try fileCounts(url)
        #expect(counts.stored == counts.counted)
        #expect(try StoreProcesses.sqlite(url, "PRAGMA integrity_check") == "ok")
    }

    @Test("the store finds the triggers' columns: ZBOOK.ZPAGESCOUNT")
    func maintainedColumns() throws {
        let stack = try AppleStack()
        let store = try #require(stack.coordinator.persistentStores.first as? SQLiteStore)
        #expect(store._triggerMaintainedColumns == ["ZBOOK": ["ZPAGESCOUNT"]])
        let calls = SQLiteDerivedAttributeTriggers.reportingCalls(
            in:
                "BEGIN UPDATE ZBOOK SET ZPAGESCOUNT = ZPAGESCOUNT + 1; SELECT NSCoreDataDATriggerUpdatedAffectedObjectValue('ZBOOK', Z_ENT, Z_PK, 'pagesCount', ZPAGESCOUNT) FROM ZBOOK; END"
        )
        #expect(calls.map(\.table) == ["ZBOOK"] && calls.map(\.attribute) == ["pagesCount"] && calls.map(\.column) == ["ZPAGESCOUNT"])
    }

    @Test("inserting pages into a book counts each once, in the file, the context and another coordinator; history records the save")
    func insertPages() throws {
        let stack = try AppleStack()
        stack.context.transactionAuthor = "pages"
        let title = "title 2 - author 2"
        let before = try Self.fileCounts(stack.url)
        let bookKey = try stack.context.performAndWait { () -> Int64 in
            let book = try Self.book(title, in: stack.context)
            let count = try #require(book.value(forKey: "pagesCount") as? Int)
            #expect(count == 99)
            for number in 1...3 {
                let page = NSEntityDescription.insertNewObject(forEntityName: "Page", into: stack.context)
                page.setValue(1000 + number, forKey: "number")
                page.setValue(false, forKey: "isBookmarked")
                page.setValue(Data("page \(number)".utf8), forKey: "content")
                page.setValue(book, forKey: "book")
            }
            try stack.context.save()
            #expect(book.value(forKey: "pagesCount") as? Int == 102)
            #expect(!book.hasChanges)
            return try #require(book.objectID.primaryKey)
        }
        let after = try Self.fileCounts(stack.url)
        #expect(after.stored[bookKey] == 102)
        #expect(after.stored.filter { $0.key != bookKey } == before.stored.filter { $0.key != bookKey })
        try Self.expectConsistentFile(stack.url)
        #expect(try Self.reopenedCount(stack, title: title) == 102)

        let transaction = try #require(try stack.transactions().last)
        #expect(transaction.author == "pages")
        let changes = try #require(transaction.changes)
        #expect(changes.filter { $0.changeType == .insert }.map { $0.changedObjectID.entity.name } == ["Page", "Page", "Page"])
        #expect(changes.contains { $0.changeType == .update && $0.changedObjectID.primaryKey == bookKey })
    }

    @Test("moving a page to another book and deleting pages: both books' counts follow, once")
    func moveAndDeletePages() throws {
        let stack = try AppleStack()
        let (from, to) = ("title 2 - author 2", "title 13 - author 2")
        try stack.context.performAndWait {
            let source = try Self.book(from, in: stack.context)
            let destination = try Self.book(to, in: stack.context)
            let pages = try #require(source.value(forKey: "pages") as? Set<NSManagedObject>)
            let sorted = pages.sorted { ($0.value(forKey: "number") as? Int ?? 0) < ($1.value(forKey: "number") as? Int ?? 0) }
            sorted[0].setValue(destination, forKey: "book")
            try stack.context.save()
            #expect(source.value(forKey: "pagesCount") as? Int == 98)
            #expect(destination.value(forKey: "pagesCount") as? Int == 100)

            stack.context.delete(sorted[1])
            stack.context.delete(sorted[2])
            try stack.context.save()
            #expect(source.value(forKey: "pagesCount") as? Int == 96)
            #expect(destination.value(forKey: "pagesCount") as? Int == 100)
        }
        try Self.expectConsistentFile(stack.url)
        #expect(try Self.reopenedCount(stack, title: from) == 96)
        #expect(try Self.reopenedCount(stack, title: to) == 100)
        let transactions = try stack.transactions()
        #expect(transactions.count == 3)
        #expect(transactions.last?.changes?.filter { $0.changeType == .delete }.count == 2)
    }

    @Test("a new book with new pages, and a book updated only in other attributes: counts right, the file sound")
    func newBookWithPages() throws {
        let stack = try AppleStack()
        try stack.context.performAndWait {
            let template = try Self.book("title 2 - author 2", in: stack.context)
            let book = NSEntityDescription.insertNewObject(forEntityName: "Book", into: stack.context)
            book.setValue("title written on Linux", forKey: "title")
            book.setValue(UUID(), forKey: "uniqueID")
            book.setValue(template.value(forKey: "price"), forKey: "price")
            book.setValue(Date(), forKey: "publishedAt")
            book.setValue(template.value(forKey: "author"), forKey: "author")
            book.setValue(template.value(forKey: "cover"), forKey: "cover")
            for number in 1...2 {
                let page = NSEntityDescription.insertNewObject(forEntityName: "Page", into: stack.context)
                page.setValue(number, forKey: "number")
                page.setValue(false, forKey: "isBookmarked")
                page.setValue(Data("new \(number)".utf8), forKey: "content")
                page.setValue(book, forKey: "book")
            }
            template.setValue("title retitled", forKey: "title")
            try stack.context.save()
            #expect(book.value(forKey: "pagesCount") as? Int == 2)
            #expect(template.value(forKey: "pagesCount") as? Int == 99)
        }
        try Self.expectConsistentFile(stack.url)
        #expect(try Self.reopenedCount(stack, title: "title written on Linux") == 2)
        #expect(try Self.reopenedCount(stack, title: "title retitled") == 99)
    }

    @Test("a batch delete of pages fires the triggers too; sqlite3 still reads the file")
    func batchDeleteAndOutsideReads() throws {
        let stack = try AppleStack()
        let title = "title 2 - author 2"
        try stack.context.performAndWait {
            let book = try Self.book(title, in: stack.context)
            let request = NSFetchRequest<NSFetchRequestResult>(entityName: "Page")
            request.predicate = NSPredicate(format: "book == %@ AND number < 60", book)
            let expected = try stack.context.count(for: request)
            #expect(expected > 0)
            _ = try stack.context.execute(NSBatchDeleteRequest(fetchRequest: request))
            #expect(try Self.reopenedCount(stack, title: title) == 99 - expected)
        }
        try Self.expectConsistentFile(stack.url)
        // A sqlite3 without Core Data's functions reads the maintained column as any other.
        let key = try StoreProcesses.sqlite(stack.url, "SELECT ZPAGESCOUNT FROM ZBOOK WHERE ZTITLE = '\(title)'")
        #expect(Int(key) == (try Self.reopenedCount(stack, title: title)))
        // Its writes to a table with such triggers fail, leaving the derived values as they are.
        let write = try StoreProcesses.run(try StoreProcesses.sqlite3(), [stack.url.path, "DELETE FROM ZPAGE WHERE ZBOOK = 1"])
        #expect(write.status != 0 && write.error.contains("no such function"))
        try Self.expectConsistentFile(stack.url)
    }
}
