import OpenCoreData
import Testing

/// A Note subclass that records the snapshot events it is woken with.
final class SnapshotNote: NSManagedObject {
    var events: [NSSnapshotEventType] = []

    override func awake(fromSnapshotEvents flags: NSSnapshotEventType) {
        super.awake(fromSnapshotEvents: flags)
        events.append(flags)
    }
}

/// `awake(fromSnapshotEvents:)`: an object hears when its values are set again from a snapshot by
/// undo or redo, rollback, a refresh that merges changes, or a merge policy.
@Suite("Snapshot events")
struct SnapshotEventTests {
    static func context(at url: URL? = nil) throws -> (NSManagedObjectContext, NSPersistentStoreCoordinator) {
        let note = ModelKit.entity("Note", [ModelKit.attribute("text", .stringAttributeType)])
        note.managedObjectClassName = NSStringFromClass(SnapshotNote.self)
        let model = NSManagedObjectModel()
        model.entities = [note]
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        if let url {
            try coordinator.addPersistentStore(type: .sqlite, at: url)
        } else {
            try coordinator.addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil)
        }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return (context, coordinator)
    }

    static func note(_ text: String, in context: NSManagedObjectContext) throws -> SnapshotNote {
        let object = try #require(NSEntityDescription.insertNewObject(forEntityName: "Note", into: context) as? SnapshotNote)
        object.setValue(text, forKey: "text")
        return object
    }

    @Test("the event types have Core Data's bit values")
    func rawValues() {
        #expect(NSSnapshotEventType.undoInsertion.rawValue == 2)
        #expect(NSSnapshotEventType.undoDeletion.rawValue == 4)
        #expect(NSSnapshotEventType.undoUpdate.rawValue == 8)
        #expect(NSSnapshotEventType.rollback.rawValue == 16)
        #expect(NSSnapshotEventType.refresh.rawValue == 32)
        #expect(NSSnapshotEventType.mergePolicy.rawValue == 64)
    }

    @Test("undo and redo of a property change wake the object once with undoUpdate")
    func undoUpdate() throws {
        let (context, _) = try Self.context()
        try context.performAndWait {
            context.undoManager = UndoManager()
            let note = try Self.note("first", in: context)
            try context.save()
            context.processPendingChanges()
            note.setValue("second", forKey: "text")
            context.processPendingChanges()
            note.events = []
            context.undo()
            #expect(note.value(forKey: "text") as? String == "first")
            #expect(note.events == [.undoUpdate])
            context.redo()
            #expect(note.value(forKey: "text") as? String == "second")
            #expect(note.events == [.undoUpdate, .undoUpdate])
        }
    }

    @Test("undoing a delete wakes with undoDeletion; undoing an insert with undoInsertion")
    func undoMembership() throws {
        let (context, _) = try Self.context()
        try context.performAndWait {
            context.undoManager = UndoManager()
            let saved = try Self.note("saved", in: context)
            try context.save()
            context.undoManager?.removeAllActions()
            context.delete(saved)
            context.processPendingChanges()
            saved.events = []
            context.undo()
            #expect(!saved.isDeleted)
            #expect(saved.events.count == 1)
            #expect(saved.events.first?.contains(.undoDeletion) == true)

            let fresh = try Self.note("fresh", in: context)
            context.processPendingChanges()
            fresh.events = []
            context.undo()
            #expect(fresh.managedObjectContext == nil)
            #expect(fresh.events.count == 1)
            #expect(fresh.events.first?.contains(.undoInsertion) == true)
        }
    }

    @Test("rollback wakes changed and deleted objects with rollback, not new ones")
    func rollback() throws {
        let (context, _) = try Self.context()
        try context.performAndWait {
            let changed = try Self.note("a", in: context)
            let deleted = try Self.note("b", in: context)
            try context.save()
            changed.setValue("a2", forKey: "text")
            context.delete(deleted)
            let inserted = try Self.note("c", in: context)
            context.rollback()
            #expect(changed.events == [.rollback])
            #expect(deleted.events == [.rollback])
            #expect(inserted.events.isEmpty)
            #expect(changed.value(forKey: "text") as? String == "a")
        }
    }

    @Test("a refresh that merges changes wakes with refresh; one that makes a fault does not")
    func refresh() throws {
        let (context, _) = try Self.context()
        try context.performAndWait {
            let merged = try Self.note("a", in: context)
            let faulted = try Self.note("b", in: context)
            try context.save()
            merged.setValue("a2", forKey: "text")
            context.refresh(merged, mergeChanges: true)
            context.refresh(faulted, mergeChanges: false)
            #expect(merged.events == [.refresh])
            #expect(faulted.events.isEmpty)
            #expect(merged.value(forKey: "text") as? String == "a2")
        }
    }

    @Test("a merge policy resolving a locking conflict wakes the object with mergePolicy")
    func mergePolicy() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (context, coordinator) = try Self.context(at: directory.appendingPathComponent("S.sqlite"))
        let id = try context.performAndWait {
            let note = try Self.note("original", in: context)
            try context.save()
            return note.objectID
        }
        let other = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        other.persistentStoreCoordinator = coordinator
        try other.performAndWait {
            other.object(with: id).setValue("theirs", forKey: "text")
            try other.save()
        }
        try context.performAndWait {
            context.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
            let note = try #require(context.object(with: id) as? SnapshotNote)
            note.setValue("mine", forKey: "text")
            note.events = []
            try context.save()
            #expect(note.events == [.mergePolicy])
            #expect(note.value(forKey: "text") as? String == "mine")
        }
    }
}
