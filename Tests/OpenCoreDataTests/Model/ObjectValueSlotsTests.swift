import GRDB
import OpenCoreData
import Testing

// Integer and Double attributes are kept unboxed in per-object slots and bound to SQLite as they are.
// These tests pin what a Core Data user sees at every place those values cross into the boxed
// (`NSNumber`) world: Key-Value Coding, change tracking, undo, store rows written by other programs,
// and the checks a save makes.

final class SlotGauge: NSManagedObject {
    @Managed var count: Int64
    @Managed var countOrNil: Int64?
    @Managed var level: Int16
    @Managed var reading: Double
    @Managed var label: String?
    @Managed var calibrationOffsetMillis: Int64
}

@Suite("Object values in slots")
final class ObjectValueSlotsTests {
    let directory: URL
    let url: URL

    init() throws {
        directory = try Fixtures.temporaryDirectory()
        url = directory.appendingPathComponent("Gauges.sqlite")
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    static func model() -> NSManagedObjectModel {
        let gauge = ModelKit.entity(
            "SlotGauge",
            [
                ModelKit.attribute("count", .integer64AttributeType),
                ModelKit.attribute("countOrNil", .integer64AttributeType),
                ModelKit.attribute("level", .integer16AttributeType),
                ModelKit.attribute("reading", .doubleAttributeType),
                ModelKit.attribute("label", .stringAttributeType),
                ModelKit.attribute("calibrationOffsetMillis", .integer64AttributeType),
            ])
        gauge.managedObjectClassName = NSStringFromClass(SlotGauge.self)
        let model = NSManagedObjectModel()
        model.entities = [gauge]
        return model
    }

    func context(_ coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    @Test("a key made at run time, short or longer than a literal's inline form, finds the property a @Managed literal names")
    func keysFoundWhateverTheirForm() throws {
        let (coordinator, _) = try StoreKit.sqliteCoordinator(Self.model(), at: url)
        let context = context(coordinator)
        try context.performAndWait {
            let gauge = SlotGauge(context: context)
            let longKey = ["calibration", "Offset", "Millis"].joined()
            let shortKey = String(decoding: Array("count".utf8), as: UTF8.self)
            gauge.calibrationOffsetMillis = -42
            gauge.setValue(7, forKey: shortKey)
            #expect((gauge.value(forKey: longKey) as? NSNumber)?.int64Value == -42)
            #expect(gauge.count == 7)
            gauge.setValue(1_000, forKey: longKey)
            #expect(gauge.calibrationOffsetMillis == 1_000)
            try context.save()
        }
        let rows = try DatabaseQueue(path: url.path).read { db in
            try Int64.fetchAll(db, sql: "SELECT ZCALIBRATIONOFFSETMILLIS FROM ZSLOTGAUGE")
        }
        #expect(rows == [1_000])
    }

    @Test("numbers set through @Managed read back as NSNumber through value(forKey:), and KVC sets read back through @Managed")
    func keyValueCodingSeesTypedValues() throws {
        let (coordinator, _) = try StoreKit.sqliteCoordinator(Self.model(), at: url)
        let context = context(coordinator)
        try context.performAndWait {
            let gauge = SlotGauge(context: context)
            gauge.count = 9_007_199_254_740_993
            gauge.reading = 0.1
            #expect((gauge.value(forKey: "count") as? NSNumber)?.int64Value == 9_007_199_254_740_993)
            #expect((gauge.value(forKey: "reading") as? NSNumber)?.doubleValue == 0.1)
            #expect(gauge.value(forKey: "countOrNil") == nil)
            #expect(gauge.countOrNil == nil)

            gauge.setValue(NSNumber(value: 42), forKey: "countOrNil")
            gauge.setValue(7, forKey: "level")
            #expect(gauge.countOrNil == 42)
            #expect(gauge.level == 7)
            let matching = NSPredicate(format: "count == %@ AND reading > 0.05", NSNumber(value: 9_007_199_254_740_993 as Int64))
            #expect(matching.evaluate(with: gauge))
            try context.save()
        }
        let reader = self.context(coordinator)
        try reader.performAndWait {
            let request = NSFetchRequest<SlotGauge>(entityName: "SlotGauge")
            request.predicate = NSPredicate(format: "count == %lld", 9_007_199_254_740_993 as Int64)
            let gauge = try #require(try reader.fetch(request).first)
            #expect(gauge.count == 9_007_199_254_740_993)
            #expect(gauge.countOrNil == 42)
            #expect(gauge.level == 7)
            #expect(gauge.reading == 0.1)
            #expect(gauge.committedValues(forKeys: ["count"])["count"] as? NSNumber == NSNumber(value: 9_007_199_254_740_993 as Int64))
        }
    }

    @Test("changedValues, changedValuesForCurrentEvent and undo see @Managed number changes")
    func changeTrackingOfTypedSets() throws {
        let (coordinator, _) = try StoreKit.sqliteCoordinator(Self.model(), at: url)
        let context = context(coordinator)
        try context.performAndWait {
            context.undoManager = UndoManager()
            let gauge = SlotGauge(context: context)
            gauge.count = 5
            gauge.reading = 1.5
            try context.save()

            context.processPendingChanges()
            gauge.count = 6
            gauge.count = 7
            gauge.reading = 2.5
            #expect(gauge.changedValues()["count"] as? NSNumber == NSNumber(value: 7))
            #expect(gauge.changedValuesForCurrentEvent()["count"] as? NSNumber == NSNumber(value: 5))
            #expect(gauge.changedValuesForCurrentEvent()["reading"] as? NSNumber == NSNumber(value: 1.5))
            #expect(gauge.committedValues(forKeys: nil)["count"] as? NSNumber == NSNumber(value: 5))

            context.processPendingChanges()
            context.undoManager?.undo()
            #expect(gauge.count == 5)
            #expect(gauge.reading == 1.5)
            #expect(!gauge.hasPersistentChangedValues)
        }
    }

    @Test(
        "integer and double columns written by other programs as NULL, REAL or TEXT read through the store's general conversion (3.75 → 3, 'twelve' → nil)"
    )
    func foreignStorageClassesConvert() throws {
        do {
            let (coordinator, _) = try StoreKit.sqliteCoordinator(Self.model(), at: url)
            let context = context(coordinator)
            try context.performAndWait {
                for _ in 0..<3 { _ = SlotGauge(context: context) }
                try context.save()
            }
            for store in coordinator.persistentStores { try coordinator.remove(store) }
        }
        try StoreKit.execute(
            url,
            """
            UPDATE ZSLOTGAUGE SET ZCOUNT = 3.75, ZREADING = 2, ZLEVEL = 70000 WHERE Z_PK = 1;
            UPDATE ZSLOTGAUGE SET ZCOUNT = 'twelve', ZREADING = NULL, ZCOUNTORNIL = '12' WHERE Z_PK = 2;
            UPDATE ZSLOTGAUGE SET ZCOUNT = NULL, ZCOUNTORNIL = 8 WHERE Z_PK = 3;
            """)
        let (coordinator, _) = try StoreKit.sqliteCoordinator(Self.model(), at: url)
        let context = context(coordinator)
        try context.performAndWait {
            let request = NSFetchRequest<SlotGauge>(entityName: "SlotGauge")
            let gauges = try context.fetch(request).sorted {
                $0.objectID.uriRepresentation().absoluteString < $1.objectID.uriRepresentation().absoluteString
            }
            try #require(gauges.count == 3)
            #expect(gauges[0].count == 3)
            #expect(gauges[0].reading == 2)
            #expect(gauges[0].level == Int16(truncatingIfNeeded: 70000))
            #expect(gauges[1].count == 0)
            #expect(gauges[1].value(forKey: "count") == nil)
            #expect(gauges[1].value(forKey: "reading") == nil)
            #expect(gauges[1].countOrNil == 12)
            #expect(gauges[2].count == 0)
            #expect(gauges[2].value(forKey: "count") == nil)
            #expect(gauges[2].countOrNil == 8)
        }
    }

    @Test("a NaN set through @Managed still fails the save with the unstorable-value error, writing nothing")
    func notANumberIsRefused() throws {
        let (coordinator, _) = try StoreKit.sqliteCoordinator(Self.model(), at: url)
        let context = context(coordinator)
        try context.performAndWait {
            let gauge = SlotGauge(context: context)
            gauge.count = 1
            gauge.reading = .nan
            #expect(throws: NSError.self) { try context.save() }
            gauge.reading = 3
            try context.save()
        }
        let rows = try StoreKit.rows(url, "SELECT ZCOUNT, ZREADING FROM ZSLOTGAUGE")
        #expect(rows.count == 1)
        #expect(rows.first?["ZREADING"] as Double? == 3)
    }

    @Test("an entity with more than 64 properties tracks changes to every one of them, before and after a save")
    func wideEntityChangeTracking() throws {
        let wide = ModelKit.entity("Wide", (0..<70).map { ModelKit.attribute("a\($0)", .integer64AttributeType) })
        let model = NSManagedObjectModel()
        model.entities = [wide]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: directory.appendingPathComponent("Wide.sqlite"))
        let context = context(coordinator)
        let object = NSEntityDescription.insertNewObject(forEntityName: "Wide", into: context)
        object.setValue(3, forKey: "a3")
        object.setValue(66, forKey: "a66")
        #expect(Set(object.changedValues().keys) == ["a3", "a66"])
        context.processPendingChanges()
        try context.save()
        #expect(object.changedValues().isEmpty)
        object.setValue(67, forKey: "a67")
        object.setValue(4, forKey: "a4")
        object.setValue(5, forKey: "a4")
        #expect(object.changedValues() as NSDictionary == ["a67": 67, "a4": 5] as NSDictionary)
        #expect(object.changedValuesForCurrentEvent() as NSDictionary == ["a67": NSNull(), "a4": NSNull()] as NSDictionary)
        context.processPendingChanges()
        #expect(object.changedValuesForCurrentEvent().isEmpty)
        object.setValue(68, forKey: "a67")
        #expect(object.changedValuesForCurrentEvent() as NSDictionary == ["a67": 67] as NSDictionary)
        try context.save()
        let reader = self.context(coordinator)
        let read = try #require(try reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Wide")).first)
        #expect(read.value(forKey: "a3") as? Int == 3)
        #expect(read.value(forKey: "a4") as? Int == 5)
        #expect(read.value(forKey: "a66") as? Int == 66)
        #expect(read.value(forKey: "a67") as? Int == 68)
    }
}
