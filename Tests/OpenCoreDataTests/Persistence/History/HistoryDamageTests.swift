import Foundation
import GRDB
import Testing

@testable import OpenCoreDataCore

/// History rows another program damaged: read leniently (what a row names that does not exist reads as
/// nothing), or a thrown `NSError` naming the file; never a crash, and a history read leaves every other
/// table as it was.
@Suite("Persistent history: damaged history rows")
struct HistoryDamageTests {
    /// A store with three transactions: two notes inserted (1), both updated (2), one deleted (3).
    static func damagedStack(_ damage: String) throws -> (HistoryKit.Stack, before: [String]) {
        let stack = try HistoryKit.Stack()
        stack.context.transactionAuthor = "app"
        stack.context.name = "main"
        let ids = try stack.context.performAndWait { () -> [NSManagedObjectID] in
            let notes = (0..<2).map { index -> NSManagedObject in
                let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: stack.context)
                note.setValue("note \(index)", forKey: "title")
                note.setValue(index, forKey: "rank")
                return note
            }
            try stack.context.save()
            for note in notes { note.setValue("changed", forKey: "title") }
            try stack.context.save()
            stack.context.delete(notes[1])
            try stack.context.save()
            return notes.map(\.objectID)
        }
        #expect(ids.count == 2)
        let queue = try DatabaseQueue(path: stack.url.path)
        try queue.write { try $0.execute(sql: damage) }
        try queue.close()
        return (stack, try dataTables(stack.url))
    }

    /// Every row of every table but the history's, as text: what a history read must leave alone.
    static func dataTables(_ url: URL) throws -> [String] {
        var rows: [String] = []
        for table in try StoreKit.rows(url, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'A%' ORDER BY name") {
            let name: String = table[0]
            for row in try StoreKit.rows(url, "SELECT * FROM \(name) ORDER BY 1") {
                rows.append(name + ": " + row.databaseValues.map { DatabaseValueText($0).text }.joined(separator: "|"))
            }
        }
        return rows
    }

    @Test("a string key naming no row, or not an integer, reads as no string")
    func danglingStringKeys() throws {
        let (stack, before) = try Self.damagedStack(
            """
            UPDATE ATRANSACTION SET ZAUTHORTS = 999, ZBUNDLEIDTS = 'x', ZCONTEXTNAMETS = -1 WHERE Z_PK = 1;
            UPDATE ATRANSACTIONSTRING SET ZNAME = NULL WHERE ZNAME = 'main';
            """)
        let transactions = try stack.transactions()
        #expect(transactions.map(\.transactionNumber) == [1, 2, 3])
        #expect(transactions.map(\.author) == [nil, "app", "app"])
        #expect(transactions[0].bundleID == "")
        #expect(transactions.map(\.contextName) == [nil, nil, nil])
        #expect(transactions[1].bundleID == HistoryAuthor.bundleID)
        #expect(transactions[0].processID == HistoryAuthor.processID)
        #expect(try Self.dataTables(stack.url) == before)
    }

    @Test("a change of an entity number naming no entity, or of an unknown change type, is left out; the others read")
    func unknownEntitiesAndTypes() throws {
        let (stack, before) = try Self.damagedStack(
            """
            UPDATE ACHANGE SET ZENTITY = 77 WHERE Z_PK = 1;
            UPDATE ACHANGE SET ZCHANGETYPE = 9 WHERE Z_PK = 3;
            UPDATE ACHANGE SET ZENTITY = NULL WHERE Z_PK = 5;
            """)
        let transactions = try stack.transactions()
        #expect(transactions.map { $0.changes?.map(\.changeID) ?? [] } == [[2], [4], []])
        #expect(transactions.last?.changes?.isEmpty == true)
        #expect(try Self.dataTables(stack.url) == before)
        // The object-ID list and a Change fetch read the same, without the damaged rows.
        let request = NSPersistentHistoryChangeRequest.fetchHistory(after: Date.distantPast)
        request.resultType = .objectIDs
        #expect((try stack.execute(request) as? [NSManagedObjectID])?.count == 2)
    }

    @Test("a ZCOLUMNS blob of the wrong size: a longer one with bits past the entity's properties names no properties, a shorter one what it holds")
    func wrongSizedColumns() throws {
        // Note numbers five properties (one byte); change 3 and 4 are the updates.
        let (stack, before) = try Self.damagedStack(
            """
            UPDATE ACHANGE SET ZCOLUMNS = x'FFFFFFFFFFFF' WHERE Z_PK = 3;
            UPDATE ACHANGE SET ZCOLUMNS = x'0800000000' WHERE Z_PK = 4;
            INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS)
                SELECT 100, 16001, 1, ZENTITY, ZENTITYPK, 2, x'' FROM ACHANGE WHERE Z_PK = 3;
            INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS)
                SELECT 101, 16001, 1, ZENTITY, ZENTITYPK, 2, 'text' FROM ACHANGE WHERE Z_PK = 3;
            """)
        let updates = try #require(try stack.transactions()[1].changes)
        #expect(updates.map(\.changeID) == [3, 4, 100, 101])
        #expect(updates[0].updatedProperties == nil)
        #expect(updates[1].updatedProperties?.map(\.name) == ["title"])
        #expect(updates[2].updatedProperties?.isEmpty == true)
        #expect(updates[3].updatedProperties?.isEmpty ?? true)
        #expect(try Self.dataTables(stack.url) == before)
    }

    @Test("a change whose transaction is missing belongs to no transaction read; a tombstone value of the wrong type is left out")
    func orphanChangesAndBadTombstones() throws {
        let (stack, before) = try Self.damagedStack(
            """
            UPDATE ACHANGE SET ZTRANSACTIONID = 999 WHERE Z_PK = 1;
            UPDATE ACHANGE SET ZTRANSACTIONID = NULL WHERE Z_PK = 3;
            UPDATE ACHANGE SET ZTOMBSTONE0 = x'00FF' WHERE ZCHANGETYPE = 2;
            """)
        let transactions = try stack.transactions()
        #expect(transactions.map { $0.changes?.map(\.changeID) ?? [] } == [[2], [4], [5]])
        let tombstone = try #require(transactions[2].changes?.first?.tombstone)
        #expect(tombstone["title"] as? String == "changed")
        #expect(tombstone["rank"] == nil, "rank's column holds a blob, not an integer")
        // A transaction with all its changes gone, read with changes, has none; counting still counts it.
        let deleted = try Self.damagedStack("DELETE FROM ACHANGE WHERE ZTRANSACTIONID = 2").0
        #expect(try deleted.transactions().map { $0.changes?.count ?? -1 } == [2, 0, 1])
        #expect(try Self.dataTables(stack.url) == before)
    }

    @Test("a timestamp that is not a number reads as the reference date; tokens after it still work")
    func damagedTimestamps() throws {
        let (stack, before) = try Self.damagedStack("UPDATE ATRANSACTION SET ZTIMESTAMP = 'yesterday' WHERE Z_PK = 2")
        let transactions = try stack.transactions(.fetchHistory(after: Date.distantPast))
        // A date bound compares the stored value as SQLite does: text sorts after every number.
        #expect(transactions.map(\.transactionNumber) == [1, 2, 3])
        let all = try stack.transactions(.fetchHistory(after: nil as NSPersistentHistoryToken?))
        #expect(all.map(\.transactionNumber) == [1, 2, 3])
        #expect(all[1].timestamp == Date(timeIntervalSinceReferenceDate: 0))
        #expect(try stack.transactions(.fetchHistory(after: all[0].token)).map(\.transactionNumber) == [2, 3])
        #expect(try Self.dataTables(stack.url) == before)
    }

    @Test("a history table dropped by another program gives 134070 naming the file, not a crash")
    func missingTable() throws {
        let (stack, before) = try Self.damagedStack("DROP TABLE ACHANGE")
        do {
            _ = try stack.transactions()
            Issue.record("a read without ACHANGE must fail")
        } catch let error as NSError {
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSPersistentStoreOperationError)
            #expect(error.localizedDescription.contains(stack.url.path))
        }
        #expect(try Self.dataTables(stack.url) == before)
    }
}
