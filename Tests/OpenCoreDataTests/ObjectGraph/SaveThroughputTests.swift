import GRDB
import GRDBSQLite
import Testing

@testable import OpenCoreDataCore

/// Saving many new objects at once, as the insert benchmark does: every object becomes exactly one
/// row with its values, primary keys are allocated in one run, and every saved object ends with a
/// permanent ID — checked on the file with SQLite-level queries.
@Suite("Save throughput", .tags(.stress))
final class SaveThroughputTests {
    let directory: URL
    let url: URL

    init() throws {
        directory = try Fixtures.temporaryDirectory()
        url = directory.appendingPathComponent("Throughput.sqlite")
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Bulk: ten Integer 64 attributes (`i0`…`i9`, default 0); Jot: optional attributes without defaults
    /// and a to-one relationship to Bulk; Scribble: a subentity of Jot sharing its table.
    static func model() -> NSManagedObjectModel {
        let bulk = ModelKit.entity(
            "Bulk",
            (0..<10).map { column in
                let attribute = ModelKit.attribute("i\(column)", .integer64AttributeType, optional: false)
                attribute.defaultValue = 0
                return attribute
            })
        let note = ModelKit.entity(
            "Jot",
            [
                ModelKit.attribute("text", .stringAttributeType),
                ModelKit.attribute("score", .doubleAttributeType),
                ModelKit.attribute("stamp", .dateAttributeType),
            ])
        let memo = ModelKit.entity("Scribble", [ModelKit.attribute("level", .integer16AttributeType)])
        note.subentities = [memo]
        note.properties += [ModelKit.relationship("item", to: bulk)]
        let model = NSManagedObjectModel()
        model.entities = [bulk, note, memo]
        return model
    }

    func context() throws -> NSManagedObjectContext {
        let (coordinator, _) = try StoreKit.sqliteCoordinator(Self.model(), at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// Inserts `count` Bulk objects whose `iN` value is `row * 10 + N`, starting at row `first`.
    func insertItems(_ count: Int, from first: Int = 0, into context: NSManagedObjectContext) -> [NSManagedObject] {
        (first..<(first + count)).map { row in
            let item = NSEntityDescription.insertNewObject(forEntityName: "Bulk", into: context)
            for column in 0..<10 { item.setValue(Int64(row * 10 + column), forKey: "i\(column)") }
            return item
        }
    }

    @Test("one save of 5,000 new objects writes exactly those rows, with their values")
    func manyObjectsOneSave() throws {
        let context = try context()
        let count = 5_000
        try context.performAndWait {
            let items = insertItems(count, into: context)
            let recorder = NotificationRecorder([.NSManagedObjectContextDidSave], object: context)
            try context.save()
            #expect(!context.hasChanges)
            #expect(items.allSatisfy { !$0.objectID.isTemporaryID && !$0.isInserted && !$0.hasChanges })
            #expect(recorder.named(.NSManagedObjectContextDidSave).first?.objects(NSInsertedObjectsKey).count == count)
            // Each object kept its values and names the row that holds them.
            for item in items.prefix(50) {
                let pk = try #require(item.objectID.primaryKey)
                let row = try #require(try StoreKit.rows(url, "SELECT ZI0, ZI9 FROM ZBULK WHERE Z_PK = ?", [pk]).first)
                #expect(row[0] as Int64? == item.value(forKey: "i0") as? Int64)
                #expect(row[1] as Int64? == item.value(forKey: "i9") as? Int64)
                #expect(context.registeredObject(for: item.objectID) === item)
            }
        }
        let summary = try #require(
            try StoreKit.rows(
                url,
                """
                SELECT COUNT(*), MIN(Z_PK), MAX(Z_PK), MIN(Z_OPT), MAX(Z_OPT), COUNT(DISTINCT Z_ENT), \
                TOTAL(ZI0), TOTAL(ZI5), TOTAL(ZI9) FROM ZBULK
                """
            ).first)
        let rows = Double(count)
        #expect(summary[0] as Int64? == Int64(count))
        #expect(summary[1] as Int64? == 1)
        #expect(summary[2] as Int64? == Int64(count))
        #expect(summary[3] as Int64? == 1 && summary[4] as Int64? == 1)
        #expect(summary[5] as Int64? == 1)
        // Σ (row × 10 + column) over rows 0..<count.
        let base = 10 * rows * (rows - 1) / 2
        #expect(summary[6] as Double? == base)
        #expect(summary[7] as Double? == base + 5 * rows)
        #expect(summary[8] as Double? == base + 9 * rows)
        #expect(try StoreKit.rows(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Bulk'").first?[0] as Int64? == Int64(count))
    }

    @Test("objects inserted and deleted before a save leave no rows; the others are saved with their values, keys given in insertion order")
    func insertsDeletedBeforeSave() throws {
        let context = try context()
        try context.performAndWait {
            let items = insertItems(1_000, into: context)
            // Every item but each fifth one, deleted in the reverse of insertion order.
            let doomed = items.indices.filter { $0 % 5 != 0 }
            for index in doomed.reversed() { context.delete(items[index]) }
            context.processPendingChanges()
            #expect(context.insertedObjects.count == 200)
            #expect(context.deletedObjects.isEmpty)
            let kept = items.indices.filter { $0 % 5 == 0 }.map { items[$0] }
            #expect(context.insertedObjects == Set(kept))
            try context.save()
            #expect(kept.allSatisfy { !$0.objectID.isTemporaryID && !$0.hasChanges })
            // Keys follow the order of insertion.
            let keys = kept.compactMap(\.objectID.primaryKey)
            #expect(keys == Array(1...200))
            #expect(context.registeredObject(for: kept[7].objectID) === kept[7])
        }
        let rows = try StoreKit.rows(url, "SELECT Z_PK, ZI0 FROM ZBULK ORDER BY Z_PK").map { ($0[0] as Int64, $0[1] as Int64) }
        #expect(rows.map(\.0) == Array(1...200))
        #expect(rows.map(\.1) == (0..<200).map { Int64($0 * 50) })
    }

    @Test("a later save continues the primary keys where the last one stopped")
    func primaryKeysContinue() throws {
        let context = try context()
        try context.performAndWait {
            _ = insertItems(300, into: context)
            try context.save()
            let second = insertItems(200, from: 300, into: context)
            try context.save()
            #expect(Set(second.compactMap(\.objectID.primaryKey)) == Set(301...500))
        }
        let keys = try StoreKit.rows(url, "SELECT Z_PK, ZI0 FROM ZBULK ORDER BY Z_PK").map { ($0[0] as Int64, $0[1] as Int64) }
        #expect(keys.map(\.0) == Array(1...500))
        #expect(Set(keys.map(\.1)) == Set((0..<500).map { Int64($0 * 10) }))
        #expect(try StoreKit.rows(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Bulk'").first?[0] as Int64? == 500)
    }

    @Test("values never set are stored as NULL, next to the values that were set")
    func unsetValuesAreNull() throws {
        let context = try context()
        let stamp = Date(timeIntervalSinceReferenceDate: 1_000)
        try context.performAndWait {
            let item = NSEntityDescription.insertNewObject(forEntityName: "Bulk", into: context)
            let bare = NSEntityDescription.insertNewObject(forEntityName: "Jot", into: context)
            let full = NSEntityDescription.insertNewObject(forEntityName: "Jot", into: context)
            full.setValue("full", forKey: "text")
            full.setValue(2.5, forKey: "score")
            full.setValue(stamp, forKey: "stamp")
            full.setValue(item, forKey: "item")
            let partial = NSEntityDescription.insertNewObject(forEntityName: "Jot", into: context)
            partial.setValue("partial", forKey: "text")
            _ = (bare, partial)
            try context.save()
        }
        let rows = try StoreKit.rows(url, "SELECT ZTEXT, ZSCORE, ZSTAMP, ZITEM FROM ZJOT ORDER BY ZTEXT")
        #expect(rows.count == 3)
        // Sorted by text (NULL first): keys follow no particular order of insertion.
        #expect(rows.map { $0[0] as String? } == [nil, "full", "partial"])
        #expect(rows.map { $0[1] as Double? } == [nil, 2.5, nil])
        #expect(rows.map { $0[2] as Double? } == [nil, 1_000, nil])
        #expect(rows.map { $0[3] as Int64? } == [nil, 1, nil])
        // The item was saved with its default values.
        #expect(try StoreKit.rows(url, "SELECT ZI0, ZI9 FROM ZBULK").first.map { [$0[0], $0[1]] as [Int64] } == [0, 0])
    }

    @Test("objects of an entity and of its subentity saved together share the table, each with its entity number")
    func subentityRowsInOneSave() throws {
        let context = try context()
        try context.performAndWait {
            for index in 0..<40 {
                let object = NSEntityDescription.insertNewObject(forEntityName: index.isMultiple(of: 2) ? "Jot" : "Scribble", into: context)
                object.setValue("n\(index)", forKey: "text")
                if !index.isMultiple(of: 2) { object.setValue(Int16(index), forKey: "level") }
            }
            try context.save()
        }
        let numbers = try StoreKit.rows(url, "SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY").reduce(into: [String: Int64]()) {
            $0[$1[0] as String] = $1[1] as Int64
        }
        let rows = try StoreKit.rows(url, "SELECT Z_ENT, ZTEXT, ZLEVEL FROM ZJOT ORDER BY Z_PK")
        #expect(rows.count == 40)
        #expect(rows.filter { $0[0] as Int64? == numbers["Jot"] }.allSatisfy { $0[2] as Int64? == nil })
        #expect(rows.filter { $0[0] as Int64? == numbers["Scribble"] }.count == 20)
        let memoLevels = rows.filter { $0[0] as Int64? == numbers["Scribble"] }.compactMap { $0[2] as Int64? }
        #expect(Set(memoLevels) == Set(stride(from: 1, to: 40, by: 2).map(Int64.init)))
        // Jots and scribbles share the root entity's keys.
        #expect(try StoreKit.rows(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Jot'").first?[0] as Int64? == 40)
    }

    @Test("objects saved in one save are read back by a second coordinator with every value")
    func readBackElsewhere() throws {
        let context = try context()
        try context.performAndWait {
            _ = insertItems(1_000, into: context)
            try context.save()
        }
        let (coordinator, _) = try StoreKit.sqliteCoordinator(Self.model(), at: url)
        let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        reader.persistentStoreCoordinator = coordinator
        try reader.performAndWait {
            let items = try reader.fetch(StoreKit.request("Bulk"))
            #expect(items.count == 1_000)
            var sum: Int64 = 0
            for item in items {
                for column in 0..<10 { sum += item.value(forKey: "i\(column)") as? Int64 ?? -1_000_000 }
            }
            // Σ over 1,000 rows and ten columns of row × 10 + column.
            #expect(sum == 100 * 999 * 1_000 / 2 + 45 * 1_000)
        }
    }

    /// A context that saved ten Bulk objects (rows 1…10), after which another program ran `sql` on the
    /// store.
    func contextAfterTenSaved(thenRunning sql: String) throws -> NSManagedObjectContext {
        let context = try context()
        try context.performAndWait {
            _ = insertItems(10, into: context)
            try context.save()
        }
        try StoreKit.execute(url, sql)
        return context
    }

    /// `(Z_PK, ZI0…ZI9)` of every Bulk row, in key order.
    func bulkRows() throws -> [[Int64]] {
        try StoreKit.rows(url, "SELECT Z_PK, ZI0, ZI1, ZI2, ZI3, ZI4, ZI5, ZI6, ZI7, ZI8, ZI9 FROM ZBULK ORDER BY Z_PK")
            .map { row in (0..<11).map { row[$0] as Int64 } }
    }

    @Test(
        "saves of every size write each new row once, with its own key and values",
        arguments: [1, 3, 4, 17, 63, 64, 65, 150, 1_000])
    func everyRunLength(count: Int) throws {
        let context = try context()
        try context.performAndWait {
            // Two saves: the second continues where the first stopped.
            let first = insertItems(count, into: context)
            try context.save()
            let second = insertItems(count, from: count, into: context)
            try context.save()
            let keys: [Int64] = (first + second).compactMap(\.objectID.primaryKey)
            #expect(keys == Array(1...Int64(2 * count)))
        }
        let expected: [[Int64]] = (0..<(2 * count)).map { (row: Int) -> [Int64] in
            [Int64(row + 1)] + (0..<10).map { (column: Int) -> Int64 in Int64(row * 10 + column) }
        }
        #expect(try bulkRows() == expected)
    }

    @Test("new objects of several entities inserted in turns are saved each to its table, in order")
    func entitiesInTurns() throws {
        let context = try context()
        // Runs of Bulk objects of 70, 1, 130 and 5 rows between Jots and Scribbles, and single objects in
        // alternation at the end.
        var bulkCount = 0
        var notes: [(entity: String, text: String)] = []
        try context.performAndWait {
            func bulk(_ count: Int) {
                _ = insertItems(count, from: bulkCount, into: context)
                bulkCount += count
            }
            func note(_ entity: String) {
                let text = "n\(notes.count)"
                NSEntityDescription.insertNewObject(forEntityName: entity, into: context).setValue(text, forKey: "text")
                notes.append((entity, text))
            }
            bulk(70)
            note("Jot")
            bulk(1)
            note("Scribble")
            note("Jot")
            bulk(130)
            for _ in 0..<20 { note("Jot") }
            bulk(5)
            for index in 0..<30 {
                if index.isMultiple(of: 2) { bulk(1) } else { note(index.isMultiple(of: 3) ? "Jot" : "Scribble") }
            }
            try context.save()
        }
        let bulkRows = try bulkRows()
        #expect(bulkRows.count == bulkCount)
        // Each Bulk row holds the values of the object it was made for, in insertion order.
        let values = bulkRows.map { Array($0.dropFirst()) }
        let expected: [[Int64]] = (0..<bulkCount).map { (row: Int) -> [Int64] in
            (0..<10).map { (column: Int) -> Int64 in Int64(row * 10 + column) }
        }
        #expect(values == expected)
        #expect(bulkRows.map { $0[0] } == Array(1...Int64(bulkCount)))
        let numbers = try StoreKit.rows(url, "SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY").reduce(into: [String: Int64]()) {
            $0[$1[0] as String] = $1[1] as Int64
        }
        let noteRows = try StoreKit.rows(url, "SELECT Z_PK, Z_ENT, Z_OPT, ZTEXT FROM ZJOT ORDER BY Z_PK")
        #expect(noteRows.map { $0[0] as Int64 } == Array(1...Int64(notes.count)))
        #expect(noteRows.map { $0[1] as Int64? } == notes.map { numbers[$0.entity] })
        #expect(noteRows.allSatisfy { $0[2] as Int64? == 1 })
        #expect(noteRows.map { $0[3] as String? } == notes.map(\.text))
    }

    @Test("an entity whose rows fill the connection's limit of bound values saves every row and value")
    func boundValueLimit() throws {
        let columns = 40
        let wide = ModelKit.entity("Wide", (0..<columns).map { ModelKit.attribute("v\($0)", .integer32AttributeType) })
        let model = NSManagedObjectModel()
        model.entities = [wide]
        let (coordinator, store) = try StoreKit.sqliteCoordinator(model, at: url)
        // A connection that binds at most 999 values in one statement, as SQLite builds before 3.32 do:
        // 24 rows of a key and 40 columns, not 64.
        let limited = try #require(store as? SQLiteStore).database()
        limited.writeWithoutTransaction { db in
            _ = sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, 999)
        }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let count = 130
        try context.performAndWait {
            for row in 0..<count {
                let object = NSEntityDescription.insertNewObject(forEntityName: "Wide", into: context)
                // Every seventh value left unset: NULL.
                for column in 0..<columns where (row + column) % 7 != 0 {
                    object.setValue(Int32(row * columns + column), forKey: "v\(column)")
                }
            }
            try context.save()
        }
        let list = (0..<columns).map { "ZV\($0)" }.joined(separator: ", ")
        let rows = try StoreKit.rows(url, "SELECT Z_PK, \(list) FROM ZWIDE ORDER BY Z_PK")
        #expect(rows.count == count)
        for (row, stored) in rows.enumerated() {
            #expect(stored[0] as Int64 == Int64(row + 1))
            let values = (0..<columns).map { stored[$0 + 1] as Int64? }
            let expected = (0..<columns).map { column in (row + column) % 7 == 0 ? nil : Int64(row * columns + column) }
            #expect(values == expected, "row \(row + 1)")
        }
    }

    @Test("a row the store refuses in the middle of a save's inserts leaves the store as it was and the objects unsaved")
    func refusedRowRollsBack() throws {
        // Another program's trigger refuses one value: the 100th new row of the next save.
        let context = try contextAfterTenSaved(
            thenRunning: """
                CREATE TRIGGER refuse BEFORE INSERT ON ZBULK WHEN NEW.ZI0 = 1090
                BEGIN SELECT RAISE(ABORT, 'refused'); END
                """)
        let before = try bulkRows()
        context.performAndWait {
            let items = insertItems(200, from: 10, into: context)
            // SQLite's refusal reaches the caller as Core Data's SQLite error, with SQLite's code.
            let error = #expect(throws: NSError.self) { try context.save() }
            #expect(error?.domain == NSCocoaErrorDomain && error?.code == NSSQLiteError)
            #expect(error?.userInfo[NSSQLiteErrorDomain] as? Int == 19)
            // Nothing was saved: the objects are still new, with temporary IDs, and can be saved later.
            #expect(context.insertedObjects.count == 200)
            #expect(items.allSatisfy { $0.objectID.isTemporaryID && $0.isInserted })
        }
        #expect(try bulkRows() == before)
        #expect(try StoreKit.rows(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Bulk'").first?[0] as Int64? == 10)
        #expect(try StoreKit.rows(url, "PRAGMA integrity_check").first?[0] as String? == "ok")
        try StoreKit.execute(url, "DROP TRIGGER refuse")
        try context.performAndWait { try context.save() }
        #expect(try bulkRows().count == 210)
    }

    @Test("new rows after deleted last rows keep the keys their objects were given")
    func keysAfterDeletedLastRows() throws {
        let context = try context()
        var saved: [NSManagedObject] = []
        try context.performAndWait {
            let first = insertItems(100, into: context)
            try context.save()
            // The table's largest key (70) falls behind Z_PRIMARYKEY's (100).
            for item in first.suffix(30) { context.delete(item) }
            try context.save()
            saved = insertItems(200, from: 100, into: context)
            try context.save()
            #expect(saved.compactMap(\.objectID.primaryKey) == Array(101...300))
        }
        let rows = try bulkRows()
        #expect(rows.map { $0[0] } == Array(1...70) + Array(101...300))
        // Each row holds the values of the object whose ID names it.
        let byKey = Dictionary(uniqueKeysWithValues: rows.map { ($0[0], $0[1]) })
        #expect((0..<200).allSatisfy { byKey[Int64(101 + $0)] == Int64((100 + $0) * 10) })
        try context.performAndWait {
            context.reset()
            let items = try context.fetch(StoreKit.request("Bulk"))
            #expect(items.allSatisfy { ($0.value(forKey: "i0") as? Int64) == (($0.objectID.primaryKey ?? 0) - 1) * 10 })
        }
    }

    @Test("a table whose Z_PK is not its rowid gets every new row with its own key")
    func keyThatIsNotTheRowID() throws {
        // Another program rebuilt the table with `Z_PK INT PRIMARY KEY`: a key SQLite does not assign.
        let columns = (0..<10).map { "ZI\($0) INTEGER" }.joined(separator: ", ")
        _ = try contextAfterTenSaved(
            thenRunning: """
                CREATE TABLE ZBULK_NEW (Z_PK INT PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, \(columns));
                INSERT INTO ZBULK_NEW SELECT * FROM ZBULK;
                DROP TABLE ZBULK;
                ALTER TABLE ZBULK_NEW RENAME TO ZBULK;
                """)
        let (coordinator, _) = try StoreKit.sqliteCoordinator(Self.model(), at: url)
        let second = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        second.persistentStoreCoordinator = coordinator
        try second.performAndWait {
            _ = insertItems(200, from: 10, into: second)
            try second.save()
        }
        let expected: [[Int64]] = (0..<210).map { (row: Int) -> [Int64] in
            [Int64(row + 1)] + (0..<10).map { (column: Int) -> Int64 in Int64(row * 10 + column) }
        }
        #expect(try bulkRows() == expected)
    }

    @Test("a trigger that inserts into the table while a save inserts fails the save and leaves the store as it was")
    func triggerInsertingIntoTheTable() throws {
        // The trigger's row would take the key of the next new row.
        let context = try contextAfterTenSaved(
            thenRunning: """
                CREATE TRIGGER echo AFTER INSERT ON ZBULK WHEN NEW.ZI0 = 1090
                BEGIN INSERT INTO ZBULK (Z_ENT, Z_OPT, ZI0) VALUES (NEW.Z_ENT, 1, -1); END
                """)
        let before = try bulkRows()
        context.performAndWait {
            // Three statements of 64 rows, with no one-row statement after them to collide with a key.
            let items = insertItems(192, from: 10, into: context)
            let error = #expect(throws: NSError.self) { try context.save() }
            #expect(error?.domain == NSCocoaErrorDomain)
            #expect(items.allSatisfy { $0.objectID.isTemporaryID && $0.isInserted })
        }
        #expect(try bulkRows() == before)
        #expect(try StoreKit.rows(url, "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Bulk'").first?[0] as Int64? == 10)
    }
}
