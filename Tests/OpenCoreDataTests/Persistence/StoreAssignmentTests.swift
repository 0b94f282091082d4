import GRDB
import Testing

@testable import OpenCoreDataCore

/// `NSManagedObjectContext.assign(_:to:)`: with two SQLite stores whose configurations both hold an
/// entity, new objects are saved in the store they were assigned to, and in the first store otherwise.
@Suite("Assigning new objects to stores")
struct StoreAssignmentTests {
    /// Item is in the configurations "Live" and "Archive"; Note only in "Notes".
    static func model() -> NSManagedObjectModel {
        let item = ModelKit.entity("Item", [ModelKit.attribute("name", .stringAttributeType)])
        let note = ModelKit.entity("Note", [ModelKit.attribute("text", .stringAttributeType)])
        let model = NSManagedObjectModel()
        model.entities = [item, note]
        model.setEntities([item], forConfigurationName: "Live")
        model.setEntities([item], forConfigurationName: "Archive")
        model.setEntities([note], forConfigurationName: "Notes")
        return model
    }

    /// A coordinator with the Live store first and the Archive store second, in `directory`.
    struct Stack {
        let coordinator: NSPersistentStoreCoordinator
        let live: NSPersistentStore
        let archive: NSPersistentStore
        let context: NSManagedObjectContext

        init(_ directory: URL, model: NSManagedObjectModel = StoreAssignmentTests.model()) throws {
            coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            live = try coordinator.addPersistentStore(
                type: .sqlite, configuration: "Live",
                at: directory.appendingPathComponent("Live.sqlite"))
            archive = try coordinator.addPersistentStore(
                type: .sqlite, configuration: "Archive",
                at: directory.appendingPathComponent("Archive.sqlite"))
            context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
        }
    }

    static func item(_ name: String, in context: NSManagedObjectContext) -> NSManagedObject {
        let object = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
        object.setValue(name, forKey: "name")
        return object
    }

    /// The item names in one store file, opened alone by a new coordinator.
    static func namesInStore(_ url: URL, configuration: String) throws -> [String] {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model())
        try coordinator.addPersistentStore(type: .sqlite, configuration: configuration, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            return try context.fetch(request).compactMap { $0.value(forKey: "name") as? String }.sorted()
        }
    }

    /// The item names in a store file, read with SQL.
    static func namesInFile(_ url: URL) throws -> [String] {
        try StoreKit.rows(url, "SELECT ZNAME FROM ZITEM ORDER BY ZNAME").map { $0["ZNAME"] }
    }

    @Test("saved objects land in the store they were assigned to; unassigned ones in the first store")
    func saveRoutesAssignedObjects() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stack = try Stack(directory)
        let context = stack.context
        let ids = try context.performAndWait {
            let a = Self.item("a-live", in: context)
            let b = Self.item("b-archive", in: context)
            let c = Self.item("c-unassigned", in: context)
            let d = Self.item("d-archive", in: context)
            context.assign(a, to: stack.live)
            context.assign(b, to: stack.archive)
            context.assign(d, to: stack.live)
            context.assign(d, to: stack.archive)  // the last assignment counts
            try context.save()
            return [a, b, c, d].map(\.objectID)
        }
        #expect(ids.map { $0.persistentStore === stack.live } == [true, false, true, false])
        #expect(ids.map { $0.persistentStore === stack.archive } == [false, true, false, true])
        #expect(ids.allSatisfy { !$0.isTemporaryID })

        // A fetch through the coordinator sees all four, each from its store.
        let fetched = try context.performAndWait {
            try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Item")).count
        }
        #expect(fetched == 4)

        let liveURL = directory.appendingPathComponent("Live.sqlite")
        let archiveURL = directory.appendingPathComponent("Archive.sqlite")
        #expect(try Self.namesInStore(liveURL, configuration: "Live") == ["a-live", "c-unassigned"])
        #expect(try Self.namesInStore(archiveURL, configuration: "Archive") == ["b-archive", "d-archive"])
        #expect(try Self.namesInFile(liveURL) == ["a-live", "c-unassigned"])
        #expect(try Self.namesInFile(archiveURL) == ["b-archive", "d-archive"])
    }

    @Test("obtainPermanentIDs(for:) gives IDs of the assigned store, and the save keeps them there")
    func permanentIDsNameAssignedStore() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stack = try Stack(directory)
        let context = stack.context
        try context.performAndWait {
            let archived = Self.item("archived", in: context)
            let plain = Self.item("plain", in: context)
            context.assign(archived, to: stack.archive)
            try context.obtainPermanentIDs(for: [archived, plain])
            #expect(!archived.objectID.isTemporaryID)
            #expect(archived.objectID.persistentStore === stack.archive)
            #expect(plain.objectID.persistentStore === stack.live)
            let obtained = archived.objectID
            try context.save()
            #expect(archived.objectID == obtained)
            // Assigning a saved object to the store it is in changes nothing.
            context.assign(archived, to: stack.archive)
            #expect(archived.objectID == obtained)
        }
        #expect(try Self.namesInFile(directory.appendingPathComponent("Archive.sqlite")) == ["archived"])
        #expect(try Self.namesInFile(directory.appendingPathComponent("Live.sqlite")) == ["plain"])
        // Primary keys come from the assigned store's own Z_PRIMARYKEY.
        let keys = try StoreKit.rows(
            directory.appendingPathComponent("Archive.sqlite"),
            "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'")
        #expect(keys.map { $0["Z_MAX"] as Int64 } == [1])
    }

    @Test("an assignment made in a child context holds through the parent's save")
    func childAssignmentReachesParentSave() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stack = try Stack(directory)
        let parent = stack.context
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        try child.performAndWait {
            let archived = Self.item("child-archived", in: child)
            _ = Self.item("child-plain", in: child)
            let early = Self.item("child-early-id", in: child)
            child.assign(archived, to: stack.archive)
            child.assign(early, to: stack.archive)
            try child.obtainPermanentIDs(for: [early])
            #expect(early.objectID.persistentStore === stack.archive)
            try child.save()
        }
        try parent.performAndWait {
            #expect(parent.insertedObjects.count == 3)
            try parent.save()
        }
        #expect(try Self.namesInFile(directory.appendingPathComponent("Archive.sqlite")) == ["child-archived", "child-early-id"])
        #expect(try Self.namesInFile(directory.appendingPathComponent("Live.sqlite")) == ["child-plain"])
    }

    @Test("a store whose configuration lacks the entity fails the save with NSPersistentStoreIncompatibleSchemaError")
    func storeWithoutEntityFailsSave() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stack = try Stack(directory)
        let notes = try stack.coordinator.addPersistentStore(
            type: .sqlite, configuration: "Notes",
            at: directory.appendingPathComponent("Notes.sqlite"))
        let context = stack.context
        try context.performAndWait {
            let misplaced = Self.item("misplaced", in: context)
            _ = Self.item("fine", in: context)
            context.assign(misplaced, to: notes)
            let error = #expect(throws: NSError.self) { try context.save() }
            #expect(error?.domain == NSCocoaErrorDomain)
            #expect(error?.code == NSPersistentStoreIncompatibleSchemaError)
            #expect((error?.userInfo[NSAffectedStoresErrorKey] as? [NSPersistentStore])?.first === notes)
            #expect(error?.localizedDescription.contains("Notes") == true)
            // Nothing was written and the changes are still pending; a new assignment fixes the save.
            #expect(context.insertedObjects.count == 2)
            #expect(misplaced.objectID.isTemporaryID)
            #expect(throws: NSError.self) { try context.obtainPermanentIDs(for: [misplaced]) }
            context.assign(misplaced, to: stack.archive)
            try context.save()
        }
        #expect(try Self.namesInFile(directory.appendingPathComponent("Live.sqlite")) == ["fine"])
        #expect(try Self.namesInFile(directory.appendingPathComponent("Archive.sqlite")) == ["misplaced"])
    }

    @Test("a store removed from the coordinator after the assignment fails the save with NSPersistentStoreSaveError")
    func removedStoreFailsSave() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stack = try Stack(directory)
        let context = stack.context
        try context.performAndWait {
            let object = Self.item("orphan", in: context)
            context.assign(object, to: stack.archive)
            try stack.coordinator.remove(stack.archive)
            let error = #expect(throws: NSError.self) { try context.save() }
            #expect(error?.code == NSPersistentStoreSaveError)
            #expect(context.hasChanges)
        }
        #expect(try Self.namesInFile(directory.appendingPathComponent("Live.sqlite")) == [])
    }

    @Test("assignments of rolled-back objects are forgotten; later objects go to the first store")
    func rollbackForgetsAssignments() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stack = try Stack(directory)
        let context = stack.context
        try context.performAndWait {
            let dropped = Self.item("dropped", in: context)
            context.assign(dropped, to: stack.archive)
            context.rollback()
            _ = Self.item("kept", in: context)
            try context.save()
            #expect(context._storeAssignments.isEmpty)
        }
        #expect(try Self.namesInFile(directory.appendingPathComponent("Live.sqlite")) == ["kept"])
        #expect(try Self.namesInFile(directory.appendingPathComponent("Archive.sqlite")) == [])
    }
}
