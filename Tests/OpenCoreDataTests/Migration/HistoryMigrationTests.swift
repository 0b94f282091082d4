import Foundation
import GRDB
import Testing

@testable import OpenCoreDataCore

/// Stores with persistent history keep it through a migration: the tables and their rows carry over,
/// each change still names its object, its updated properties and its tombstone under the new model,
/// and the migration itself records no transaction.
@Suite("Persistent history across migrations")
struct HistoryMigrationTests {
    /// The history model with a new entity (`Archive`, numbered first, so every entity's number moves),
    /// a new attribute (`author`, which moves the update bits of the properties after it) and `title`
    /// renamed `heading` (which moves the tombstone columns: `heading` now sorts before `rank`).
    static func modelV2() -> NSManagedObjectModel {
        let model = HistoryKit.model()
        let note = model.entitiesByName["Note"]!
        let heading = ModelKit.attribute("heading", .stringAttributeType)
        heading.renamingIdentifier = "title"
        heading.preservesValueInHistoryOnDeletion = true
        note.properties = note.properties.filter { $0.name != "title" } + [heading, ModelKit.attribute("author", .stringAttributeType)]
        let archive = ModelKit.entity("Archive", [ModelKit.attribute("label", .stringAttributeType)])
        archive.managedObjectClassName = "NSManagedObject"
        model.entities = [archive] + model.entities
        return model
    }

    /// What a change says, in names that survive the migration (`title` read as `heading`).
    struct Summary: Equatable, CustomStringConvertible {
        var transaction: Int64
        var author: String?
        var type: NSPersistentHistoryChangeType
        var entity: String
        var updated: Set<String>
        var tombstone: [String: String]

        var description: String { "\(transaction) \(author ?? "-") \(type.rawValue) \(entity) \(updated.sorted()) \(tombstone)" }
    }

    static func summaries(_ transactions: [NSPersistentHistoryTransaction], renaming: [String: String] = [:]) -> [Summary] {
        transactions.flatMap { transaction in
            (transaction.changes ?? []).map { change in
                Summary(
                    transaction: transaction.transactionNumber, author: transaction.author, type: change.changeType,
                    entity: change.changedObjectID.entity.name ?? "",
                    updated: Set((change.updatedProperties ?? []).map { renaming[$0.name] ?? $0.name }),
                    tombstone: Dictionary(
                        uniqueKeysWithValues: (change.tombstone ?? [:]).map {
                            (renaming[$0.key as! String] ?? $0.key as! String, "\($0.value)")
                        }))
            }
        }
    }

    /// A V1 store with history: two notes and a memo inserted, one note and the memo updated, one note
    /// deleted. Returns the stack (closed), and the kept note's title.
    static func historyStore() throws -> HistoryKit.Stack {
        let stack = try HistoryKit.Stack()
        stack.context.transactionAuthor = "app"
        try stack.context.performAndWait {
            let kept = NSEntityDescription.insertNewObject(forEntityName: "Note", into: stack.context)
            kept.setValue("kept", forKey: "title")
            kept.setValue(1, forKey: "rank")
            let gone = NSEntityDescription.insertNewObject(forEntityName: "Note", into: stack.context)
            gone.setValue("gone", forKey: "title")
            gone.setValue(2, forKey: "rank")
            let memo = NSEntityDescription.insertNewObject(forEntityName: "Memo", into: stack.context)
            memo.setValue("memo", forKey: "text")
            try stack.context.save()
            kept.setValue("kept, retitled", forKey: "title")
            kept.setValue(10, forKey: "rank")
            memo.setValue("calm", forKey: "mood")
            try stack.context.save()
            stack.context.delete(gone)
            try stack.context.save()
        }
        try stack.close()
        return stack
    }

    /// Opens the store with `model` and tracking on (migrating it when the options say so); the
    /// history read back and the context.
    static func open(_ url: URL, _ model: NSManagedObjectModel, migrating: Bool) throws
        -> (transactions: [NSPersistentHistoryTransaction], context: NSManagedObjectContext)
    {
        var options = HistoryKit.tracking
        if migrating {
            options[NSMigratePersistentStoresAutomaticallyOption] = true
            options[NSInferMappingModelAutomaticallyOption] = true
        }
        let context = try MigrationKit.open(model, at: url, sources: [HistoryKit.model()], options: options)
        let transactions = try context.performAndWait {
            let result = try #require(
                try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: Date.distantPast))
                    as? NSPersistentHistoryResult)
            return try #require(result.result as? [NSPersistentHistoryTransaction])
        }
        return (transactions, context)
    }

    /// The checks both migrations pass: the same transactions and changes under the new names, the
    /// objects the changes name, `Z_PRIMARYKEY`'s history rows, and a new save appended after them.
    static func checkCarriedOver(
        _ url: URL, before: [Summary], after transactions: [NSPersistentHistoryTransaction],
        context: NSManagedObjectContext
    ) throws {
        #expect(Self.summaries(transactions) == before)
        #expect(transactions.map(\.transactionNumber) == [1, 2, 3], "the migration recorded no transaction")
        #expect(try StoreKit.rows(url, "SELECT count(*) FROM ATRANSACTION")[0][0] as Int == 3)
        let keys = try StoreKit.rows(url, "SELECT Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT > 16000 ORDER BY Z_ENT")
        #expect(
            keys.map { "\($0[0] as String) \($0[1] as Int64)" } == ["CHANGE 6", "TRANSACTION 3", "TRANSACTIONSTRING \(keys.last?[1] as Int64? ?? 0)"])
        #expect(try StoreKit.rows(url, "SELECT count(*) FROM ATRANSACTIONSTRING")[0][0] as Int64 == keys.last?[1] as Int64?)
        // The update of the kept note names the object that now holds its new heading.
        let update = try #require(transactions[1].changes?.first { $0.changedObjectID.entity.name == "Note" })
        try context.performAndWait {
            let note = try context.existingObject(with: update.changedObjectID)
            #expect(note.value(forKey: "heading") as? String == "kept, retitled")
            let memoChange = try #require(transactions[0].changes?.first { $0.changedObjectID.entity.name == "Memo" })
            #expect(try context.existingObject(with: memoChange.changedObjectID).value(forKey: "mood") as? String == "calm")
            note.setValue("after the migration", forKey: "author")
            try context.save()
            let result = try #require(
                try context.execute(NSPersistentHistoryChangeRequest.fetchHistory(after: transactions.last?.token))
                    as? NSPersistentHistoryResult)
            let new = try #require(result.result as? [NSPersistentHistoryTransaction])
            #expect(new.map(\.transactionNumber) == [4])
            #expect(new.first?.changes?.first?.updatedProperties?.map(\.name) == ["author"])
        }
        #expect(try StoreProcesses.sqlite(url, "PRAGMA integrity_check") == "ok")
    }

    /// The history of the V1 store, in V2's names.
    static let expected: [Summary] = [
        Summary(transaction: 1, author: "app", type: .insert, entity: "Note", updated: [], tombstone: [:]),
        Summary(transaction: 1, author: "app", type: .insert, entity: "Note", updated: [], tombstone: [:]),
        Summary(transaction: 1, author: "app", type: .insert, entity: "Memo", updated: [], tombstone: [:]),
        Summary(transaction: 2, author: "app", type: .update, entity: "Note", updated: ["heading", "rank"], tombstone: [:]),
        Summary(transaction: 2, author: "app", type: .update, entity: "Memo", updated: ["mood"], tombstone: [:]),
        Summary(transaction: 3, author: "app", type: .delete, entity: "Note", updated: [], tombstone: ["heading": "gone", "rank": "2"]),
    ]

    @Test("a lightweight migration keeps every transaction and change, renamed and renumbered for the new model")
    func lightweight() throws {
        let stack = try Self.historyStore()
        let v1 = try Self.open(stack.url, HistoryKit.model(), migrating: false)
        let before = Self.summaries(v1.transactions, renaming: ["title": "heading"])
        #expect(before.sorted { $0.description < $1.description } == Self.expected.sorted { $0.description < $1.description })
        for store in v1.context.persistentStoreCoordinator!.persistentStores { try v1.context.persistentStoreCoordinator!.remove(store) }
        let numbersBefore = try StoreKit.rows(stack.url, "SELECT DISTINCT ZENTITY FROM ACHANGE ORDER BY 1").map { $0[0] as Int64 }

        let v2 = try Self.open(stack.url, Self.modelV2(), migrating: true)
        #expect(try MigrationKit.differences(stack.url, Self.modelV2()).isEmpty)
        let numbersAfter = try StoreKit.rows(stack.url, "SELECT DISTINCT ZENTITY FROM ACHANGE ORDER BY 1").map { $0[0] as Int64 }
        #expect(numbersAfter != numbersBefore, "Archive, numbered first, moved the other entities' numbers")
        try Self.checkCarriedOver(stack.url, before: before, after: v2.transactions, context: v2.context)
    }

    @Test("a migration manager's run keeps the history too, each change naming the object the manager made")
    func withMigrationManager() throws {
        let stack = try Self.historyStore()
        let v1 = try Self.open(stack.url, HistoryKit.model(), migrating: false)
        let before = Self.summaries(v1.transactions, renaming: ["title": "heading"])
        for store in v1.context.persistentStoreCoordinator!.persistentStores { try v1.context.persistentStoreCoordinator!.remove(store) }
        // A manager makes new objects with keys of their own; the changes follow them.
        let mapping = try NSMappingModel.inferredMappingModel(forSourceModel: HistoryKit.model(), destinationModel: Self.modelV2())
        try SQLiteStore.migrateWithManager(at: stack.url, from: HistoryKit.model(), to: Self.modelV2(), mapping: mapping, report: nil)

        let v2 = try Self.open(stack.url, Self.modelV2(), migrating: false)
        try Self.checkCarriedOver(stack.url, before: before, after: v2.transactions, context: v2.context)
    }
}
