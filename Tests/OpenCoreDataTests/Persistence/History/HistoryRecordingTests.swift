import Foundation
import GRDB
import Testing

@testable import OpenCoreDataCore

/// What a store with `NSPersistentHistoryTrackingKey` writes into its history tables: Apple's layout,
/// one transaction per save or batch request, in the same SQLite transaction as the data.
@Suite("Persistent history: the tables and what each write records")
struct HistoryRecordingTests {
    /// The Apple-written store with history (framework 1344), for its statements.
    static let appleStore = Fixtures.stores.appendingPathComponent("alemar11__CoreDataPlus__SampleModel2_V1/SampleModel2_V1.sqlite")

    /// The `CREATE` statements of the history tables and indexes in a file, by name.
    static func historyStatements(_ url: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        for row in try StoreKit.rows(url, "SELECT name, sql FROM sqlite_master WHERE tbl_name LIKE 'A%' AND sql IS NOT NULL") {
            result[row[0]] = row[1]
        }
        return result
    }

    @Test("the tracking key creates ATRANSACTION, ACHANGE and ATRANSACTIONSTRING with Apple's statements and Z_PRIMARYKEY rows")
    func tablesAsApplesOwn() throws {
        // A model with no preserved attributes has no tombstone column, as the Apple store's.
        let model = NSManagedObjectModel()
        model.entities = [ModelKit.entity("Item", [ModelKit.attribute("title", .stringAttributeType)])]
        let stack = try HistoryKit.Stack(model: model)
        let ours = try Self.historyStatements(stack.url)
        let apple = try Self.historyStatements(Self.appleStore)
        #expect(ours.count == 11)
        #expect(ours == apple)
        let keys = try stack.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT")
        #expect(keys == [["16001", "CHANGE", "0", "0"], ["16002", "TRANSACTION", "0", "0"], ["16003", "TRANSACTIONSTRING", "0", "0"]])
    }

    @Test("without the key no history table is made")
    func noTablesWithoutTheKey() throws {
        let stack = try HistoryKit.Stack(options: nil)
        try stack.insertNotes(["a"])
        #expect(try Self.historyStatements(stack.url).isEmpty)
        #expect(try stack.rows("SELECT count(*) FROM Z_PRIMARYKEY WHERE Z_ENT > 16000") == [["0"]])
    }

    @Test("preserved attributes get one tombstone column each (external storage excepted), added to a file that has fewer")
    func tombstoneColumns() throws {
        let stack = try HistoryKit.Stack()
        // Note preserves rank and title (scan is stored externally): two columns.
        let sql = try #require(try Self.historyStatements(stack.url)["ACHANGE"])
        #expect(
            sql
                == "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB, ZTOMBSTONE0 BLOB, ZTOMBSTONE1 BLOB )"
        )
        try stack.close()

        // A model preserving one more attribute opens the same file and adds a column.
        let model = HistoryKit.model()
        let text = try #require(model.entitiesByName["Note"]?.attributesByName["text"])
        text.preservesValueInHistoryOnDeletion = true
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        _ = try coordinator.addPersistentStore(
            type: .sqlite, at: stack.url,
            options: HistoryKit.tracking.merging([NSIgnorePersistentStoreVersioningOption: true]) { $1 })
        let columns = try StoreKit.rows(stack.url, "SELECT name FROM pragma_table_info('ACHANGE')").map { $0[0] as String }
        #expect(columns.suffix(3) == ["ZTOMBSTONE0", "ZTOMBSTONE1", "ZTOMBSTONE2"])
        #expect(try StoreProcesses.sqlite(stack.url, "PRAGMA integrity_check") == "ok")
    }

    @Test("a save writes one transaction: Z_ENT 16002, Z_OPT NULL, the 2001 timestamp, interned author, bundle, context and process")
    func transactionRow() throws {
        let stack = try HistoryKit.Stack()
        stack.context.transactionAuthor = "importer"
        stack.context.name = "import context"
        let before = Date().timeIntervalSinceReferenceDate
        let ids = try stack.insertNotes(["a", "b"])
        let after = Date().timeIntervalSinceReferenceDate

        let transactions = try StoreKit.rows(
            stack.url,
            """
            SELECT Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP,
                   ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID, ZQUERYGEN FROM ATRANSACTION
            """)
        try #require(transactions.count == 1)
        let row = transactions[0]
        #expect(row["Z_PK"] as Int64 == 1)
        #expect(row["Z_ENT"] as Int64 == 16002)
        #expect((row["Z_OPT"] as DatabaseValue).isNull)
        let timestamp: Double = row["ZTIMESTAMP"]
        #expect(timestamp >= before - 0.001 && timestamp <= after + 0.001)
        for column in ["ZAUTHOR", "ZBUNDLEID", "ZCONTEXTNAME", "ZPROCESSID", "ZQUERYGEN"] {
            #expect((row[column] as DatabaseValue).isNull, "\(column) stays NULL, as in Apple's files")
        }
        func string(_ column: String) throws -> String? {
            let key: Int64 = row[column]
            return try StoreKit.rows(stack.url, "SELECT ZNAME FROM ATRANSACTIONSTRING WHERE Z_PK = ?", [key]).first?[0]
        }
        #expect(try string("ZAUTHORTS") == "importer")
        #expect(try string("ZCONTEXTNAMETS") == "import context")
        #expect(try string("ZPROCESSIDTS") == ProcessInfo.processInfo.processName)
        #expect(try string("ZBUNDLEIDTS") == (Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName))
        #expect(try stack.rows("SELECT Z_ENT, Z_OPT FROM ATRANSACTIONSTRING GROUP BY Z_ENT, Z_OPT") == [["16003", "NULL"]])

        let changes = try stack.rows(
            "SELECT Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS, ZTOMBSTONE0 FROM ACHANGE ORDER BY Z_PK")
        let keys = ids.compactMap(\.primaryKey).map { DatabaseValueText(stringLiteral: String($0)) }
        let note = try StoreKit.rows(stack.url, "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Note'")[0][0] as Int64
        #expect(
            changes == [
                ["1", "16001", "NULL", "0", .init(stringLiteral: "\(note)"), keys[0], "1", "NULL", "NULL"],
                ["2", "16001", "NULL", "0", .init(stringLiteral: "\(note)"), keys[1], "1", "NULL", "NULL"],
            ])
        // author, context name, process name and bundle identifier, each once (a program without a bundle
        // identifier records its process name for both).
        let strings = Set(["importer", "import context", HistoryAuthor.processID, HistoryAuthor.bundleID]).count
        #expect(
            try stack.rows("SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT")
                == [["CHANGE", "2"], ["TRANSACTION", "1"], ["TRANSACTIONSTRING", .init(stringLiteral: "\(strings)")]])

        // The same strings again are not added again; a context without author or name records NULL keys.
        stack.context.transactionAuthor = nil
        stack.context.name = nil
        try stack.insertNotes(["c"])
        #expect(try stack.rows("SELECT count(*) FROM ATRANSACTIONSTRING") == [[.init(stringLiteral: "\(strings)")]])
        #expect(try stack.rows("SELECT ZAUTHORTS, ZCONTEXTNAMETS FROM ATRANSACTION WHERE Z_PK = 2") == [["NULL", "NULL"]])
        #expect(try StoreProcesses.sqlite(stack.url, "PRAGMA integrity_check") == "ok")
    }

    @Test("an update records its changed attributes and relationships in ZCOLUMNS, one bit per property in name order")
    func updatedColumns() throws {
        let stack = try HistoryKit.Stack()
        let ids = try stack.insertNotes(["a"])
        try stack.context.performAndWait {
            let note = try stack.context.existingObject(with: ids[0])
            note.setValue("new title", forKey: "title")
            note.setValue(7, forKey: "rank")
            try stack.context.save()
        }
        // Note's properties by name: folder, rank, scan, text, title → bits 0…4; rank and title set.
        let columns = try stack.rows("SELECT ZCHANGETYPE, hex(ZCOLUMNS) FROM ACHANGE WHERE ZTRANSACTIONID = 2")
        #expect(columns == [["1", "48"]])
        let transactions = try stack.transactions()
        let change = try #require(transactions.last?.changes?.first)
        #expect(change.changeType == .update)
        #expect(Set((change.updatedProperties ?? []).map(\.name)) == ["rank", "title"])
        #expect(change.tombstone == nil)
    }

    @Test("a delete keeps the preserved attributes' values in the tombstone columns, not an externally stored one's")
    func tombstones() throws {
        let stack = try HistoryKit.Stack()
        try stack.context.performAndWait {
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: stack.context)
            note.setValue("Keep me", forKey: "title")
            note.setValue(42, forKey: "rank")
            note.setValue("gone", forKey: "text")
            note.setValue(Data([1, 2, 3]), forKey: "scan")
            try stack.context.save()
            stack.context.delete(note)
            try stack.context.save()
        }
        #expect(
            try stack.rows("SELECT ZCHANGETYPE, ZCOLUMNS, ZTOMBSTONE0, ZTOMBSTONE1 FROM ACHANGE WHERE ZTRANSACTIONID = 2")
                == [["2", "NULL", "42", "Keep me"]])
        let change = try #require(try stack.transactions().last?.changes?.first)
        #expect(change.changeType == .delete)
        let tombstone = try #require(change.tombstone)
        #expect(tombstone.count == 2)
        #expect(tombstone["title"] as? String == "Keep me")
        #expect((tombstone["rank"] as? NSNumber)?.int64Value == 42 || tombstone["rank"] as? Int64 == 42)
        #expect(tombstone["scan"] == nil)
    }

    @Test("a subentity's change names the subentity's number and its own property list")
    func subentityChanges() throws {
        let stack = try HistoryKit.Stack()
        let id = try stack.context.performAndWait { () -> NSManagedObjectID in
            let memo = NSEntityDescription.insertNewObject(forEntityName: "Memo", into: stack.context)
            memo.setValue("m", forKey: "text")
            try stack.context.save()
            memo.setValue("happy", forKey: "mood")
            try stack.context.save()
            return memo.objectID
        }
        let memoNumber = try StoreKit.rows(stack.url, "SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Memo'")[0][0] as Int64
        // Memo's properties: folder, mood, rank, scan, text, title: mood is bit 1.
        let memoText = DatabaseValueText(stringLiteral: "\(memoNumber)")
        #expect(try stack.rows("SELECT ZENTITY, hex(ZCOLUMNS) FROM ACHANGE ORDER BY Z_PK") == [[memoText, ""], [memoText, "40"]])
        let changes = try stack.transactions().flatMap { $0.changes ?? [] }
        #expect(changes.map(\.changedObjectID) == [id, id])
        #expect(changes.last?.updatedProperties?.map(\.name) == ["mood"])
    }

    @Test("history commits with the data or not at all: a failure writing a change leaves no row and no transaction")
    func sameTransaction() throws {
        let stack = try HistoryKit.Stack()
        try stack.insertNotes(["kept"])
        // A trigger makes the next history row fail, after the save's data rows were written.
        let queue = try DatabaseQueue(path: stack.url.path)
        try queue.write { try $0.execute(sql: "CREATE TRIGGER fail_history BEFORE INSERT ON ACHANGE BEGIN SELECT RAISE(ABORT, 'no history'); END") }
        try queue.close()
        #expect(throws: (any Error).self) { try stack.insertNotes(["lost"]) }
        #expect(try stack.rows("SELECT ZTEXT FROM ZNOTE") == [["kept"]])
        #expect(try stack.rows("SELECT count(*) FROM ATRANSACTION") == [["1"]])
        #expect(
            try stack.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME IN ('Note', 'TRANSACTION', 'CHANGE') ORDER BY Z_ENT")
                == [["1"], ["1"], ["1"]])
    }

    @Test("batch insert, update and delete each write one transaction with their rows' changes and the context's author")
    func batchRequests() throws {
        let stack = try HistoryKit.Stack()
        stack.context.transactionAuthor = "batcher"
        try stack.context.performAndWait {
            let insert = NSBatchInsertRequest(
                entityName: "Note", objects: [["text": "m1", "rank": 1], ["text": "m2", "rank": 2], ["text": "m3", "rank": 3]])
            _ = try stack.context.execute(insert)
            let update = NSBatchUpdateRequest(entityName: "Note")
            update.predicate = NSPredicate(format: "rank >= 2")
            update.propertiesToUpdate = ["text": "changed"]
            _ = try stack.context.execute(update)
            let delete = NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Note"))
            delete.fetchRequest.predicate = NSPredicate(format: "rank == 3")
            _ = try stack.context.execute(delete)
        }
        let transactions = try stack.transactions()
        try #require(transactions.count == 3)
        #expect(transactions.map(\.author) == ["batcher", "batcher", "batcher"])
        #expect(transactions[0].changes?.map(\.changeType) == [.insert, .insert, .insert])
        #expect(transactions[1].changes?.map(\.changeType) == [.update, .update])
        #expect(transactions[1].changes?.compactMap { $0.updatedProperties?.map(\.name) } == [["text"], ["text"]])
        #expect(transactions[2].changes?.map(\.changeType) == [.delete])
        #expect((transactions[2].changes?.first?.tombstone?["rank"] as? NSNumber)?.intValue == 3)
        #expect(try StoreProcesses.sqlite(stack.url, "PRAGMA integrity_check") == "ok")
    }

    @Test("a batch delete records the rows whose references it cleared as updates")
    func batchDeleteNullifies() throws {
        let stack = try HistoryKit.Stack()
        let (folder, note) = try stack.context.performAndWait { () -> (NSManagedObjectID, NSManagedObjectID) in
            let folder = NSEntityDescription.insertNewObject(forEntityName: "Folder", into: stack.context)
            let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: stack.context)
            note.setValue(folder, forKey: "folder")
            try stack.context.save()
            return (folder.objectID, note.objectID)
        }
        try stack.context.performAndWait {
            _ = try stack.context.execute(NSBatchDeleteRequest(objectIDs: [folder]))
        }
        let changes = try #require(try stack.transactions().last?.changes)
        #expect(changes.map(\.changeType) == [.delete, .update])
        #expect(changes.map(\.changedObjectID) == [folder, note])
    }

    @Test("a save of many new rows of several entities, beside updates, records one change per row, in order, with its row's key")
    func manyInserts() throws {
        let stack = try HistoryKit.Stack()
        let first = try stack.insertNotes(["first"])
        let ids = try stack.context.performAndWait { () -> [NSManagedObjectID] in
            let notes = (0..<100).map { index -> NSManagedObject in
                let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: stack.context)
                note.setValue("note \(index)", forKey: "text")
                return note
            }
            let memos = (0..<40).map { _ in NSEntityDescription.insertNewObject(forEntityName: "Memo", into: stack.context) }
            let folders = (0..<3).map { _ in NSEntityDescription.insertNewObject(forEntityName: "Folder", into: stack.context) }
            try stack.context.existingObject(with: first[0]).setValue("changed", forKey: "text")
            try stack.context.save()
            return (notes + memos + folders).map(\.objectID)
        }
        let changes = try #require(try stack.transactions().last?.changes)
        #expect(changes.count == 144)
        #expect(changes.map(\.changeID) == Array(2...145))
        #expect(Set(changes.filter { $0.changeType == .insert }.map(\.changedObjectID)) == Set(ids))
        #expect(changes.filter { $0.changeType == .update }.map(\.changedObjectID) == first)
        // Each insert change names a row of its entity's table with that key.
        let rows = try stack.rows(
            """
            SELECT count(*) FROM ACHANGE c JOIN Z_PRIMARYKEY e ON e.Z_ENT = c.ZENTITY
            WHERE c.ZTRANSACTIONID = 2 AND c.ZCHANGETYPE = 0 AND c.Z_ENT = 16001 AND c.Z_OPT IS NULL AND c.ZCOLUMNS IS NULL
            AND (EXISTS (SELECT 1 FROM ZNOTE n WHERE n.Z_PK = c.ZENTITYPK AND n.Z_ENT = c.ZENTITY)
                 OR EXISTS (SELECT 1 FROM ZFOLDER f WHERE f.Z_PK = c.ZENTITYPK AND f.Z_ENT = c.ZENTITY))
            """)
        #expect(rows == [["143"]])
        #expect(try stack.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16001") == [["145"]])
        #expect(try StoreProcesses.sqlite(stack.url, "PRAGMA integrity_check") == "ok")
    }

    @Test("once the newest history is deleted, a save's many inserts keep the change keys Z_PRIMARYKEY hands out")
    func manyInsertsAfterDeletedHistory() throws {
        let stack = try HistoryKit.Stack()
        try stack.insertNotes((0..<40).map { "old \($0)" })
        _ = try stack.execute(NSPersistentHistoryChangeRequest.deleteHistory(before: Date.distantFuture))
        #expect(try stack.rows("SELECT count(*) FROM ACHANGE") == [["0"]])
        #expect(try stack.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16001") == [["40"]])
        let ids = try stack.insertNotes((0..<40).map { "new \($0)" })
        let changes = try #require(try stack.transactions().last?.changes)
        #expect(changes.map(\.changeID) == Array(41...80))
        #expect(changes.map(\.changedObjectID) == ids)
        #expect(
            try stack.rows("SELECT count(*) FROM ACHANGE c JOIN ZNOTE n ON n.Z_PK = c.ZENTITYPK AND n.Z_ENT = c.ZENTITY")
                == [["40"]])
        #expect(try stack.rows("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = 16001") == [["80"]])
        #expect(try StoreProcesses.sqlite(stack.url, "PRAGMA integrity_check") == "ok")
    }

    @Test("a store written without the key and opened with it later starts its history then, empty")
    func trackingTurnedOnLater() throws {
        let stack = try HistoryKit.Stack(options: nil)
        try stack.insertNotes(["a"])
        try stack.close()
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: stack.model)
        _ = try coordinator.addPersistentStore(type: .sqlite, at: stack.url, options: HistoryKit.tracking)
        #expect(try StoreKit.rows(stack.url, "SELECT count(*) FROM ATRANSACTION")[0][0] as Int64 == 0)
        #expect(
            coordinator.currentPersistentHistoryToken(fromStores: nil)
                == NSPersistentHistoryToken(
                    transactionNumbers: [coordinator.persistentStores[0].identifier: 0]))
    }
}
