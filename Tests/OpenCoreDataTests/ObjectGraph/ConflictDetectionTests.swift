import GRDB
import Testing

@testable import OpenCoreDataCore

/// `detectConflicts(for:)`: an object the context did not change still fails (or goes through the merge
/// policy at) the next save when its row changed in the store since the context read it.
@Suite("Conflict detection for unchanged objects")
struct ConflictDetectionTests {
    struct Stack {
        let url: URL
        let coordinator: NSPersistentStoreCoordinator
        let context: NSManagedObjectContext
        let watched: NSManagedObjectID
        let other: NSManagedObjectID

        init(_ directory: URL) throws {
            url = directory.appendingPathComponent("S.sqlite")
            let model = NSManagedObjectModel()
            model.entities = [
                ModelKit.entity(
                    "Account",
                    [
                        ModelKit.attribute("owner", .stringAttributeType),
                        ModelKit.attribute("balance", .integer64AttributeType),
                    ])
            ]
            coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(type: .sqlite, at: url)
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            self.context = context
            (watched, other) = try context.performAndWait {
                let a = NSEntityDescription.insertNewObject(forEntityName: "Account", into: context)
                a.setValuesForKeys(["owner": "ann", "balance": 10])
                let b = NSEntityDescription.insertNewObject(forEntityName: "Account", into: context)
                b.setValuesForKeys(["owner": "bob", "balance": 20])
                try context.save()
                return (a.objectID, b.objectID)
            }
        }

        /// Another context changes the watched account's balance and saves.
        func changeElsewhere(to balance: Int) throws {
            let elsewhere = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            elsewhere.persistentStoreCoordinator = coordinator
            try elsewhere.performAndWait {
                elsewhere.object(with: watched).setValue(balance, forKey: "balance")
                try elsewhere.save()
            }
        }

        func storedRow(_ id: NSManagedObjectID) throws -> (balance: Int64, version: Int64) {
            let row = try #require(StoreKit.rows(url, "SELECT ZBALANCE, Z_OPT FROM ZACCOUNT WHERE Z_PK = ?", [id.primaryKey]).first)
            return (row["ZBALANCE"], row["Z_OPT"])
        }
    }

    @Test("with the error merge policy the save fails with NSManagedObjectMergeError and writes nothing")
    func errorPolicyFails() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stack = try Stack(directory)
        let context = stack.context
        context.performAndWait {
            let watched = context.object(with: stack.watched)
            _ = watched.value(forKey: "balance")
            context.detectConflicts(for: watched)
            context.object(with: stack.other).setValue(25, forKey: "balance")
        }
        try stack.changeElsewhere(to: 99)
        context.performAndWait {
            let error = #expect(throws: NSError.self) { try context.save() }
            #expect(error?.code == NSManagedObjectMergeError)
            let conflicts = error?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict]
            #expect(conflicts?.map(\.sourceObject.objectID) == [stack.watched])
            #expect(context.hasChanges)
        }
        #expect(try stack.storedRow(stack.other).balance == 20)
        #expect(try stack.storedRow(stack.watched).balance == 99)
    }

    @Test("without the mark the same save succeeds")
    func unmarkedSaves() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stack = try Stack(directory)
        let context = stack.context
        context.performAndWait {
            _ = context.object(with: stack.watched).value(forKey: "balance")
            context.object(with: stack.other).setValue(25, forKey: "balance")
        }
        try stack.changeElsewhere(to: 99)
        try context.performAndWait { try context.save() }
        #expect(try stack.storedRow(stack.other).balance == 25)
    }

    @Test("a merge policy resolves the conflict, and the unchanged row is checked, never written")
    func policyResolves() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stack = try Stack(directory)
        let context = stack.context
        context.performAndWait {
            context.mergePolicy = NSMergeByPropertyStoreTrumpMergePolicy
            let watched = context.object(with: stack.watched)
            _ = watched.value(forKey: "balance")
            context.detectConflicts(for: watched)
            context.object(with: stack.other).setValue(25, forKey: "balance")
        }
        try stack.changeElsewhere(to: 99)
        let versionBefore = try stack.storedRow(stack.watched).version
        try context.performAndWait {
            try context.save()
            #expect((context.object(with: stack.watched).value(forKey: "balance") as? NSNumber)?.intValue == 99)
            #expect(!context.hasChanges)
        }
        #expect(try stack.storedRow(stack.other).balance == 25)
        #expect(try stack.storedRow(stack.watched).version == versionBefore)
    }

    @Test("an unchanged row passes the check, and the mark ends with a successful save")
    func unchangedRowPasses() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stack = try Stack(directory)
        let context = stack.context
        let versionBefore = try stack.storedRow(stack.watched).version
        try context.performAndWait {
            context.detectConflicts(for: context.object(with: stack.watched))
            context.object(with: stack.other).setValue(25, forKey: "balance")
            try context.save()
        }
        #expect(try stack.storedRow(stack.watched).version == versionBefore)
        try stack.changeElsewhere(to: 50)
        try context.performAndWait {
            // The mark was used up by the successful save: a later change elsewhere is no conflict.
            context.object(with: stack.other).setValue(30, forKey: "balance")
            try context.save()
        }
        #expect(try stack.storedRow(stack.other).balance == 30)
    }

    @Test("a child context's mark reaches the parent's save")
    func childMarkReachesParent() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stack = try Stack(directory)
        let parent = stack.context
        parent.performAndWait { _ = parent.object(with: stack.watched).value(forKey: "balance") }
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = parent
        try child.performAndWait {
            let watched = child.object(with: stack.watched)
            _ = watched.value(forKey: "balance")
            child.detectConflicts(for: watched)
            child.object(with: stack.other).setValue(25, forKey: "balance")
            try child.save()
        }
        try stack.changeElsewhere(to: 99)
        parent.performAndWait {
            let error = #expect(throws: NSError.self) { try parent.save() }
            #expect(error?.code == NSManagedObjectMergeError)
        }
        #expect(try stack.storedRow(stack.other).balance == 20)
    }
}
