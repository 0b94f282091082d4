import Foundation
import OpenCoreData
import Testing

/// A `@Managed` class that keeps `NSManagedObject`'s access and change notifications.
class Meter: NSManagedObject {
    @Managed var count: Int64
    @Managed var level: Double
    @Managed var label: String?
    /// Longer than a string keeps in its own bits: looked up by its characters.
    @Managed var measurementTimestampValue: Int64
}

/// A `Meter` that overrides all four notifications, recording each call.
class WatchedMeter: Meter {
    var events: [String] = []

    override func willAccessValue(forKey key: String?) {
        events.append("willAccess \(key ?? "-")")
        super.willAccessValue(forKey: key)
    }

    override func didAccessValue(forKey key: String?) {
        events.append("didAccess \(key ?? "-")")
        super.didAccessValue(forKey: key)
    }

    override func willChangeValue(forKey key: String) {
        events.append("willChange \(key)")
        super.willChangeValue(forKey: key)
    }

    override func didChangeValue(forKey key: String) {
        events.append("didChange \(key)")
        super.didChangeValue(forKey: key)
    }
}

/// Inherits `WatchedMeter`'s overrides without declaring any.
final class InheritedWatchedMeter: WatchedMeter {}

/// Overrides only `didAccessValue(forKey:)` and `didChangeValue(forKey:)`.
final class LateWatchedMeter: Meter {
    var events: [String] = []

    override func didAccessValue(forKey key: String?) {
        events.append("didAccess \(key ?? "-")")
    }

    override func didChangeValue(forKey key: String) {
        events.append("didChange \(key)")
    }
}

/// A `Meter` whose `awakeFromFetch()` gives its context an undo manager, as an app might on first use.
final class UndoingMeter: Meter {
    override func awakeFromFetch() {
        super.awakeFromFetch()
        if let context = managedObjectContext, context.undoManager == nil { context.undoManager = UndoManager() }
    }
}

/// A `Meter` that counts the faults it fires.
final class AwakeCountingMeter: Meter {
    var awakenings = 0

    override func awakeFromFetch() {
        super.awakeFromFetch()
        awakenings += 1
    }
}

/// A `Meter` whose `awakeFromFetch()` lets go of the last owner of its context.
final class ContextReleasingMeter: Meter {
    nonisolated(unsafe) static var holder: NSManagedObjectContext?

    override func awakeFromFetch() {
        super.awakeFromFetch()
        Self.holder = nil
    }
}

/// `@Managed` accessors call the access and change notifications a class overrides around every read
/// and write (of objects loaded or not), and record changes, undo and store writes the same whether or
/// not the class overrides them.
@Suite("@Managed accessors and notifications")
struct ManagedAccessorNotificationTests {
    static func stack(class managedClass: Meter.Type) throws -> GraphStack {
        let meter = ModelKit.entity(
            "Meter",
            [
                ModelKit.attribute("count", .integer64AttributeType),
                ModelKit.attribute("level", .doubleAttributeType),
                ModelKit.attribute("label", .stringAttributeType),
                ModelKit.attribute("measurementTimestampValue", .integer64AttributeType),
            ])
        meter.managedObjectClassName = NSStringFromClass(managedClass)
        let model = NSManagedObjectModel()
        model.entities = [meter]
        return try GraphStack(model: model)
    }

    /// Saves one meter set up by `setUp`, through a context of its own.
    static func saveMeter(in stack: GraphStack, _ setUp: (Meter) -> Void) throws {
        let writer = stack.context()
        setUp(try #require(NSEntityDescription.insertNewObject(forEntityName: "Meter", into: writer) as? Meter))
        try writer.save()
    }

    /// Saves one meter set up by `setUp` and fetches it into a new context, as a fault.
    static func fetchedFault(in stack: GraphStack, _ setUp: (Meter) -> Void) throws -> (NSManagedObjectContext, Meter) {
        try saveMeter(in: stack, setUp)
        let context = stack.context()
        let meter = try #require(try context.fetch(NSFetchRequest<Meter>(entityName: "Meter")).first)
        return (context, meter)
    }

    static let watchedClassNames = ["WatchedMeter", "InheritedWatchedMeter"]

    static func watchedClass(_ name: String) -> WatchedMeter.Type {
        name == "WatchedMeter" ? WatchedMeter.self : InheritedWatchedMeter.self
    }

    @Test("a class overriding the access notifications is told of every read of a loaded object, its own or inherited", arguments: watchedClassNames)
    func accessNotificationsOnReads(className: String) throws {
        let stack = try Self.stack(class: Self.watchedClass(className))
        let context = stack.context()
        let meter = try #require(NSEntityDescription.insertNewObject(forEntityName: "Meter", into: context) as? WatchedMeter)
        meter.events = []
        _ = meter.count
        _ = meter.level
        _ = meter.count
        #expect(
            meter.events == [
                "willAccess count", "didAccess count", "willAccess level", "didAccess level",
                "willAccess count", "didAccess count",
            ])
    }

    @Test("a class overriding the change notifications is told of every write, in order, and the values are kept", arguments: watchedClassNames)
    func changeNotificationsOnWrites(className: String) throws {
        let stack = try Self.stack(class: Self.watchedClass(className))
        let context = stack.context()
        let meter = try #require(NSEntityDescription.insertNewObject(forEntityName: "Meter", into: context) as? WatchedMeter)
        meter.count = 5
        meter.level = 1.5
        #expect(meter.events == ["willChange count", "didChange count", "willChange level", "didChange level"])
        meter.events = []
        #expect(meter.count == 5 && meter.level == 1.5)
        #expect(meter.events.count == 4)
    }

    @Test("a class overriding only the did- notifications is told of every read and write of a fetched object")
    func onlyDidNotifications() throws {
        let stack = try Self.stack(class: LateWatchedMeter.self)
        let writer = stack.context()
        let written = try #require(NSEntityDescription.insertNewObject(forEntityName: "Meter", into: writer) as? LateWatchedMeter)
        written.count = 3
        try writer.save()
        let context = stack.context()
        let meter = try #require(try context.fetch(NSFetchRequest<LateWatchedMeter>(entityName: "Meter")).first)
        #expect(meter.count == 3)
        #expect(meter.count == 3)
        meter.level = 2
        #expect(meter.events == ["didAccess count", "didAccess count", "didChange level"])
    }

    @Test("the first @Managed read of a fetched fault fires it and reads the row's values")
    func firstReadFiresFetchedFault() throws {
        let stack = try Self.stack(class: Meter.self)
        let (context, meter) = try Self.fetchedFault(in: stack) { written in
            written.count = 3
            written.level = 1.5
            written.label = "north"
        }
        #expect(meter.isFault)
        #expect(meter.level == 1.5)
        #expect(!meter.isFault)
        #expect(meter.count == 3 && meter.label == "north")
        #expect(!meter.hasChanges && !context.hasChanges)
        // A refreshed object keeps its layout with every slot empty until it fires again.
        context.refresh(meter, mergeChanges: false)
        #expect(meter.isFault)
        #expect(meter.count == 3)
        #expect(!meter.isFault && meter.level == 1.5)
    }

    @Test("a fault fires once, on its first @Managed access, and again after a refresh")
    func faultFiresOncePerLoad() throws {
        let stack = try Self.stack(class: AwakeCountingMeter.self)
        let (context, fetched) = try Self.fetchedFault(in: stack) { $0.count = 3 }
        let meter = try #require(fetched as? AwakeCountingMeter)
        #expect(meter.awakenings == 0)
        #expect(meter.count == 3 && meter.level == 0)
        meter.level = 0.5
        #expect(meter.awakenings == 1)
        context.refresh(meter, mergeChanges: false)
        meter.count = 4
        #expect(meter.awakenings == 2)
        #expect(meter.count == 4 && meter.level == 0)
    }

    @Test("the first @Managed write to a fetched fault fires it and records the change against the row's value")
    func firstWriteFiresFetchedFault() throws {
        let stack = try Self.stack(class: Meter.self)
        let (context, meter) = try Self.fetchedFault(in: stack) { written in
            written.count = 3
            written.level = 1.5
        }
        #expect(meter.isFault)
        meter.count = 9
        #expect(!meter.isFault)
        #expect(meter.level == 1.5)
        #expect(meter.changedValues().keys.sorted() == ["count"])
        #expect(meter.committedValues(forKeys: ["count"])["count"] as? Int64 == 3)
        try context.save()
        let reader = stack.context()
        let read = try #require(try reader.fetch(NSFetchRequest<Meter>(entityName: "Meter")).first)
        #expect(read.count == 9 && read.level == 1.5)
    }

    @Test("a write to a saved object through @Managed records its change for the context, the event and the store")
    func writeToSavedObject() throws {
        let stack = try Self.stack(class: Meter.self)
        let writer = stack.context()
        let written = try #require(NSEntityDescription.insertNewObject(forEntityName: "Meter", into: writer) as? Meter)
        written.count = 3
        try writer.save()

        let context = stack.context()
        let meter = try #require(try context.fetch(NSFetchRequest<Meter>(entityName: "Meter")).first)
        #expect(meter.count == 3)
        #expect(!context.hasChanges)
        meter.count = 7
        meter.level = 0.25
        #expect(meter.isUpdated && context.updatedObjects.contains(meter))
        #expect(meter.changedValues()["count"] as? Int64 == 7)
        #expect(meter.changedValues()["level"] as? Double == 0.25)
        #expect(meter.changedValuesForCurrentEvent()["count"] as? Int64 == 3)
        #expect(meter.committedValues(forKeys: ["count"])["count"] as? Int64 == 3)

        let recorder = NotificationRecorder([.NSManagedObjectContextObjectsDidChange], object: context)
        context.processPendingChanges()
        let changes = recorder.named(.NSManagedObjectContextObjectsDidChange)
        #expect(changes.count == 1 && changes.allSatisfy { $0.objects(NSUpdatedObjectsKey).contains(meter) })
        #expect(meter.changedValuesForCurrentEvent().isEmpty)

        try context.save()
        let reader = stack.context()
        let read = try #require(try reader.fetch(NSFetchRequest<Meter>(entityName: "Meter")).first)
        #expect(read.count == 7 && read.level == 0.25)
    }

    @Test("with an undo manager, a write through @Managed is undone and redone")
    func writeUnderUndo() throws {
        let stack = try Self.stack(class: Meter.self)
        let context = stack.context()
        context.undoManager = UndoManager()
        let meter = try #require(NSEntityDescription.insertNewObject(forEntityName: "Meter", into: context) as? Meter)
        meter.count = 3
        try context.save()
        meter.count = 9
        context.undo()
        #expect(meter.count == 3)
        #expect(!context.hasChanges)
        context.redo()
        #expect(meter.count == 9)
    }

    @Test("a @Managed read of a fault whose awakeFromFetch lets go of its context's last owner reads the row")
    func readAfterAwakeReleasesContext() throws {
        let stack = try Self.stack(class: ContextReleasingMeter.self)
        try Self.saveMeter(in: stack) { written in
            written.count = 3
            written.level = 1.5
        }
        var fault: Meter?
        do {
            let reader = stack.context()
            ContextReleasingMeter.holder = reader
            fault = try reader.fetch(NSFetchRequest<Meter>(entityName: "Meter")).first
        }
        let meter = try #require(fault)
        #expect(meter.isFault)
        #expect(meter.count == 3)
        #expect(ContextReleasingMeter.holder == nil && meter.managedObjectContext == nil)
        #expect(!meter.isFault && meter.level == 1.5)
    }

    @Test("a first write whose fault's awakeFromFetch gives the context an undo manager is recorded for undo")
    func firstWriteAfterAwakeSetsUndo() throws {
        let stack = try Self.stack(class: UndoingMeter.self)
        let (context, meter) = try Self.fetchedFault(in: stack) { $0.count = 3 }
        #expect(context.undoManager == nil)
        meter.count = 9
        #expect(context.undoManager != nil)
        context.undo()
        #expect(meter.count == 3)
        #expect(!context.hasChanges)
    }

    @Test("a property whose name is longer than fifteen bytes reads and writes through @Managed, Key-Value Coding and the store")
    func longPropertyName() throws {
        let stack = try Self.stack(class: Meter.self)
        let context = stack.context()
        let meter = try #require(NSEntityDescription.insertNewObject(forEntityName: "Meter", into: context) as? Meter)
        meter.measurementTimestampValue = 1_700_000_000
        #expect(meter.measurementTimestampValue == 1_700_000_000)
        #expect(meter.value(forKey: "measurementTimestampValue") as? Int64 == 1_700_000_000)
        meter.setValue(12, forKey: "measurementTimestampValue")
        #expect(meter.measurementTimestampValue == 12)
        try context.save()
        let reader = stack.context()
        let read = try #require(try reader.fetch(NSFetchRequest<Meter>(entityName: "Meter")).first)
        #expect(read.measurementTimestampValue == 12)
        read.measurementTimestampValue = 13
        #expect(read.changedValues()["measurementTimestampValue"] as? Int64 == 13)
    }
}
