import Foundation
import GRDB
import Testing

@testable import OpenCoreDataCore

/// The persistent history of a store Apple's Core Data wrote (`SampleModel2_V1`, framework 1344: one
/// transaction of 5,468 inserts), opened with its own cached model and tracking on: read back as Apple
/// wrote it, and appended to as Apple would read it.
@Suite("Persistent history: an Apple-written store")
struct AppleStoreHistoryTests {
    /// The fixture with its model cache.
    static let fixture = CompiledFixtures.CachedStore(
        folder: "alemar11__CoreDataPlus__SampleModel2_V1",
        file: "SampleModel2_V1.sqlite", modelVersion: nil)

    /// A copy of the fixture in a directory of its own, opened with its cached model and tracking on.
    final class AppleStack {
        let directory: TemporaryDirectory
        let url: URL
        let model: NSManagedObjectModel
        let coordinator: NSPersistentStoreCoordinator
        let context: NSManagedObjectContext

        convenience init() throws {
            let directory = TemporaryDirectory()
            let url = try AppleStoreHistoryTests.fixture.copy(into: directory.url)
            for name in ["CoverTransformer", "ContentTransformer"] {
                ValueTransformer.setValueTransformer(StoredBytesTransformer(), forName: NSValueTransformerName(rawValue: name))
            }
            try self.init(directory: directory, url: url, model: try NSManagedObjectModel.load(cachedInStoreAt: url))
        }

        /// Another coordinator on the same file.
        convenience init(reopening stack: AppleStack) throws {
            try self.init(directory: stack.directory, url: stack.url, model: stack.model)
        }

        init(directory: TemporaryDirectory, url: URL, model: NSManagedObjectModel) throws {
            self.directory = directory
            self.url = url
            self.model = model
            coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            _ = try coordinator.addPersistentStore(type: .sqlite, at: url, options: HistoryKit.tracking)
            context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
        }

        func transactions() throws -> [NSPersistentHistoryTransaction] {
            try context.performAndWait {
                let result = try #require(
                    try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: Date.distantPast))
                        as? NSPersistentHistoryResult)
                return try #require(result.result as? [NSPersistentHistoryTransaction])
            }
        }
    }

    /// The entity names of the store by number, from its `Z_PRIMARYKEY`.
    static func entityNames(_ url: URL) throws -> [Int64: String] {
        var names: [Int64: String] = [:]
        for row in try StoreKit.rows(url, "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY") { names[row[0]] = row[1] }
        return names
    }

    @Test("Apple's transaction reads back: timestamp, no author or context name, bundle and process strings, number, store")
    func transactionReadsBack() throws {
        let stack = try AppleStack()
        let transactions = try stack.transactions()
        try #require(transactions.count == 1)
        let transaction = transactions[0]
        #expect(transaction.transactionNumber == 1)
        #expect(transaction.timestamp == Date(timeIntervalSinceReferenceDate: 737057647.288022))
        #expect(transaction.author == nil)
        #expect(transaction.contextName == nil)
        #expect(transaction.bundleID == "com.apple.dt.xctest.tool")
        #expect(transaction.processID == "xctest")
        #expect(transaction.storeID == stack.coordinator.persistentStores.first?.identifier)
        #expect(transaction.token == stack.coordinator.currentPersistentHistoryToken(fromStores: nil))
    }

    @Test("Apple's 5,468 changes read back in order: change numbers, entities, primary keys, inserts with no properties")
    func changesReadBack() throws {
        let stack = try AppleStack()
        // The transaction is held: a change refers to its transaction without keeping it.
        let transaction = try #require(try stack.transactions().first)
        let changes = try #require(transaction.changes)
        let names = try Self.entityNames(stack.url)
        let rows = try StoreKit.rows(stack.url, "SELECT Z_PK, ZENTITY, ZENTITYPK, ZCHANGETYPE FROM ACHANGE ORDER BY Z_PK")
        #expect(changes.count == 5468)
        try #require(changes.count == rows.count)
        for (change, row) in zip(changes, rows) {
            #expect(change.changeID == row[0] as Int64)
            #expect(change.changedObjectID.entity.name == names[row[1] as Int64])
            #expect(change.changedObjectID.primaryKey == row[2] as Int64)
            #expect(change.changeType.rawValue == row[3] as Int)
            #expect(change.updatedProperties == nil && change.tombstone == nil)
            #expect(change.transaction?.transactionNumber == 1)
        }
        var counts: [String: Int] = [:]
        for change in changes { counts[change.changedObjectID.entity.name ?? "", default: 0] += 1 }
        #expect(counts == ["Book": 51, "GraphicNovel": 1, "Feedback": 444, "Page": 4970, "Author": 2])
        #expect(Set(changes.map(\.changeType)) == [.insert])

        // Every change names an object the store holds.
        try stack.context.performAndWait {
            for change in changes.prefix(50) + changes.suffix(50) {
                let object = try stack.context.existingObject(with: change.changedObjectID)
                #expect(object.entity.name == change.changedObjectID.entity.name)
            }
        }
    }

    @Test("new saves append transactions in Apple's tables: strings reused, Z_PRIMARYKEY kept, the file intact")
    func savesAppend() throws {
        let stack = try AppleStack()
        let statementsBefore = try HistoryRecordingTests.historyStatements(stack.url)
        // Apple's own strings as author and context name: interned once, so their keys are reused.
        stack.context.transactionAuthor = "xctest"
        stack.context.name = "com.apple.dt.xctest.tool"
        let (writer, book, feedback) = try stack.context.performAndWait { () -> (NSManagedObjectID, NSManagedObjectID, NSManagedObjectID) in
            let writer = NSEntityDescription.insertNewObject(forEntityName: "Author", into: stack.context)
            writer.setValue("Linus", forKey: "alias")
            writer.setValue(55, forKey: "age")
            let books = NSFetchRequest<NSManagedObject>(entityName: "Book")
            books.predicate = NSPredicate(format: "title == %@", "title 2 - author 2")
            let book = try #require(try stack.context.fetch(books).first)
            book.setValue("retitled on Linux", forKey: "title")
            let feedback = try #require(try stack.context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Feedback")).first)
            let feedbackID = feedback.objectID
            stack.context.delete(feedback)
            try stack.context.save()
            return (writer.objectID, book.objectID, feedbackID)
        }

        // The rows as Apple's: Z_ENT numbers, NULL Z_OPT, interned keys, changes numbered after Apple's.
        let transaction = try StoreKit.rows(
            stack.url,
            """
            SELECT Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZCONTEXTNAMETS, ZBUNDLEIDTS, ZPROCESSIDTS, ZAUTHOR, ZBUNDLEID, ZQUERYGEN
            FROM ATRANSACTION ORDER BY Z_PK
            """)
        try #require(transaction.count == 2)
        let row = transaction[1]
        #expect(row["Z_PK"] as Int64 == 2)
        #expect(row["Z_ENT"] as Int64 == 16002)
        #expect((row["Z_OPT"] as DatabaseValue).isNull)
        #expect(row["ZAUTHORTS"] as Int64 == 2, "the author reuses Apple's string 'xctest'")
        #expect(row["ZCONTEXTNAMETS"] as Int64 == 1, "the context name reuses Apple's string")
        for column in ["ZAUTHOR", "ZBUNDLEID", "ZQUERYGEN"] { #expect((row[column] as DatabaseValue).isNull) }
        let strings = try StoreKit.rows(stack.url, "SELECT Z_PK, ZNAME FROM ATRANSACTIONSTRING ORDER BY Z_PK").map {
            ($0[0] as Int64, $0[1] as String)
        }
        #expect(strings.prefix(2).map(\.1) == ["com.apple.dt.xctest.tool", "xctest"])
        let ours = Set([HistoryAuthor.bundleID, HistoryAuthor.processID])
        #expect(Set(strings.dropFirst(2).map(\.1)) == ours)
        #expect(Set(strings.map(\.1)).count == strings.count, "each string once")
        let bundleKey = try #require(strings.first { $0.1 == HistoryAuthor.bundleID }?.0)
        #expect(row["ZBUNDLEIDTS"] as Int64 == bundleKey)

        let changes = try StoreKit.rows(stack.url, "SELECT Z_PK, Z_ENT, ZCHANGETYPE, ZTRANSACTIONID FROM ACHANGE WHERE Z_PK > 5468 ORDER BY Z_PK")
        #expect(changes.map { $0[0] as Int64 } == [5469, 5470, 5471])
        #expect(changes.allSatisfy { $0[1] as Int64 == 16001 && $0[3] as Int64 == 2 })
        #expect(changes.map { $0[2] as Int } == [0, 1, 2])

        // Z_PRIMARYKEY's history rows hold the last keys used, as Apple's do.
        let keys = try StoreKit.rows(stack.url, "SELECT Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT")
        #expect(keys.map { $0[0] as String } == ["CHANGE", "TRANSACTION", "TRANSACTIONSTRING"])
        #expect(keys.map { $0[1] as Int64 } == [0, 0, 0])
        #expect(keys.map { $0[2] as Int64 } == [5471, 2, Int64(strings.count)])
        for (table, max) in [("ACHANGE", 5471), ("ATRANSACTION", 2), ("ATRANSACTIONSTRING", strings.count)] {
            #expect(try StoreKit.rows(stack.url, "SELECT max(Z_PK) FROM \(table)")[0][0] as Int == max)
        }
        // No table, column or index was added to Apple's history tables.
        #expect(try HistoryRecordingTests.historyStatements(stack.url) == statementsBefore)
        #expect(try StoreProcesses.sqlite(stack.url, "PRAGMA integrity_check") == "ok")

        // Another coordinator reads both transactions: Apple's unchanged, and the new one.
        let reopened = try AppleStack(reopening: stack)
        let transactions = try reopened.transactions()
        #expect(transactions.map(\.transactionNumber) == [1, 2])
        #expect(transactions[0].changes?.count == 5468)
        #expect(transactions[0].bundleID == "com.apple.dt.xctest.tool")
        let new = transactions[1]
        #expect(new.author == "xctest")
        #expect(new.contextName == "com.apple.dt.xctest.tool")
        #expect(new.bundleID == HistoryAuthor.bundleID)
        #expect(new.processID == HistoryAuthor.processID)
        #expect(new.changes?.map(\.changeType) == [.insert, .update, .delete])
        #expect(
            new.changes?.map { $0.changedObjectID.uriRepresentation() }
                == [writer, book, feedback].map { $0.uriRepresentation() })
        #expect(new.changes?[1].updatedProperties?.map(\.name) == ["title"])
    }
}
