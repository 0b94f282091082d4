import Foundation
import Testing

@testable import OpenCoreDataCore

// Entities of one shape (the same property names and kinds, in the same order) share one slot layout
// for the whole process, and shared layouts are never freed. These tests pin what that must not change:
// each entity keeps its own default values and rows, and loading a model again and again does not
// grow the process.

@Suite("Slot layouts shared by entities of one shape")
struct SharedSlotLayoutTests {
    /// A model with one entity `Gauge` whose attributes default to `count` and `label`.
    static func gaugeModel(count: Int64, label: String, entityName: String = "Gauge") -> NSManagedObjectModel {
        let countAttribute = ModelKit.attribute("count", .integer64AttributeType)
        countAttribute.defaultValue = count
        let labelAttribute = ModelKit.attribute("label", .stringAttributeType)
        labelAttribute.defaultValue = label
        let model = NSManagedObjectModel()
        model.entities = [ModelKit.entity(entityName, [countAttribute, labelAttribute])]
        return model
    }

    @Test("models loaded apart with entities of one shape give new objects each its own entity's default values")
    func defaultValuesStayPerEntity() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var contexts: [NSManagedObjectContext] = []
        for (count, label) in [(Int64(1), "first"), (2, "second"), (3, "third")] {
            let (coordinator, _) = try StoreKit.sqliteCoordinator(
                Self.gaugeModel(count: count, label: label),
                at: directory.appendingPathComponent("\(label).sqlite"))
            let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            contexts.append(context)
        }
        // Objects of every model made in turn, so that no model's defaults are the last ones computed.
        for (index, context) in contexts.enumerated() {
            let gauge = NSEntityDescription.insertNewObject(forEntityName: "Gauge", into: context)
            #expect((gauge.value(forKey: "count") as? NSNumber)?.int64Value == Int64(index + 1))
            #expect(gauge.value(forKey: "label") as? String == ["first", "second", "third"][index])
            try context.save()
        }
        for (index, context) in contexts.enumerated() {
            context.reset()
            let rows = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Gauge"))
            #expect(rows.count == 1)
            #expect((rows.first?.value(forKey: "count") as? NSNumber)?.int64Value == Int64(index + 1))
        }
    }

    @Test("two entities of one shape in one model keep their own default values, rows and objects")
    func entitiesOfOneShapeInOneModel() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = NSManagedObjectModel()
        model.entities = [
            Self.gaugeModel(count: 5, label: "dial", entityName: "Dial").entities[0].copy() as! NSEntityDescription,
            Self.gaugeModel(count: 7, label: "meter", entityName: "Meter").entities[0].copy() as! NSEntityDescription,
        ]
        let (coordinator, _) = try StoreKit.sqliteCoordinator(model, at: directory.appendingPathComponent("Gauges.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        let dial = NSEntityDescription.insertNewObject(forEntityName: "Dial", into: context)
        let meter = NSEntityDescription.insertNewObject(forEntityName: "Meter", into: context)
        #expect((dial.value(forKey: "count") as? NSNumber)?.int64Value == 5)
        #expect((meter.value(forKey: "count") as? NSNumber)?.int64Value == 7)
        meter.setValue("changed", forKey: "label")
        try context.save()
        context.reset()
        let dials = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Dial"))
        let meters = try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Meter"))
        #expect(dials.map { $0.entity.name } == ["Dial"])
        #expect(meters.map { $0.entity.name } == ["Meter"])
        #expect(dials.first?.value(forKey: "label") as? String == "dial")
        #expect(meters.first?.value(forKey: "label") as? String == "changed")
    }

    @Test("a model loaded again and again shares one slot layout per entity shape, so the process does not grow")
    func reloadedModelsShareLayouts() throws {
        var layouts: [ObjectIdentifier] = []
        for round in 0..<50 {
            let model = Self.gaugeModel(count: Int64(round), label: "round \(round)")
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            _ = try coordinator.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
            let entity = try #require(coordinator.managedObjectModel.entitiesByName["Gauge"])
            layouts.append(ObjectIdentifier(entity._slotLayout))
        }
        #expect(Set(layouts).count == 1)
        // A different shape is a different layout.
        let other = NSManagedObjectModel()
        other.entities = [
            ModelKit.entity(
                "Gauge",
                [
                    ModelKit.attribute("count", .doubleAttributeType),
                    ModelKit.attribute("label", .stringAttributeType),
                ])
        ]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: other)
        _ = try coordinator.addPersistentStore(type: .inMemory, at: URL(fileURLWithPath: "/dev/null"))
        let entity = try #require(coordinator.managedObjectModel.entitiesByName["Gauge"])
        #expect(ObjectIdentifier(entity._slotLayout) != layouts[0])
    }
}
