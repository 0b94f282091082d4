import Foundation
import GRDB
import Testing

@testable import OpenCoreDataCore

/// A model and stacks for the persistent history tests.
enum HistoryKit {
    /// The options of a store with history tracking.
    static var tracking: [AnyHashable: Any] { [NSPersistentHistoryTrackingKey: true as NSNumber] }

    /// Note(text, title ⟨preserved⟩, rank ⟨preserved⟩, scan ⟨preserved, external storage⟩, folder → Folder)
    /// and Folder(name, notes ↠ Note, nullify); Memo, a subentity of Note with `mood`.
    static func model() -> NSManagedObjectModel {
        let note = ModelKit.entity("Note")
        let memo = ModelKit.entity("Memo")
        let folder = ModelKit.entity("Folder")
        for entity in [note, memo, folder] { entity.managedObjectClassName = "NSManagedObject" }
        let title = ModelKit.attribute("title", .stringAttributeType)
        title.preservesValueInHistoryOnDeletion = true
        let rank = ModelKit.attribute("rank", .integer64AttributeType)
        rank.preservesValueInHistoryOnDeletion = true
        let scan = ModelKit.attribute("scan", .binaryDataAttributeType)
        scan.allowsExternalBinaryDataStorage = true
        scan.preservesValueInHistoryOnDeletion = true
        let notes = ModelKit.relationship("notes", to: note, toMany: true)
        let noteFolder = ModelKit.relationship("folder", to: folder)
        ModelKit.pair(notes, noteFolder)
        notes.deleteRule = .nullifyDeleteRule
        note.properties = [ModelKit.attribute("text", .stringAttributeType), title, rank, scan, noteFolder]
        memo.properties = [ModelKit.attribute("mood", .stringAttributeType)]
        note.subentities = [memo]
        folder.properties = [ModelKit.attribute("name", .stringAttributeType), notes]
        let model = NSManagedObjectModel()
        model.entities = [folder, note, memo]
        return model
    }

    /// A coordinator and a context on a store in a directory of its own.
    final class Stack {
        let directory = TemporaryDirectory()
        let url: URL
        let model: NSManagedObjectModel
        let coordinator: NSPersistentStoreCoordinator
        let store: NSPersistentStore
        let context: NSManagedObjectContext

        init(
            model: NSManagedObjectModel = HistoryKit.model(), options: [AnyHashable: Any]? = HistoryKit.tracking,
            fileName: String = "Notes.sqlite"
        ) throws {
            url = directory.file(fileName)
            self.model = model
            coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            store = try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
            context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
        }

        /// Another coordinator and context on the same file.
        func second(options: [AnyHashable: Any]? = HistoryKit.tracking) throws -> (NSPersistentStoreCoordinator, NSManagedObjectContext) {
            let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
            _ = try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
            let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            context.persistentStoreCoordinator = coordinator
            return (coordinator, context)
        }

        /// Inserts notes with these texts and saves; returns their IDs.
        @discardableResult
        func insertNotes(_ texts: [String], in context: NSManagedObjectContext? = nil) throws -> [NSManagedObjectID] {
            let context = context ?? self.context
            return try context.performAndWait {
                let objects = texts.map { text -> NSManagedObject in
                    let note = NSEntityDescription.insertNewObject(forEntityName: "Note", into: context)
                    note.setValue(text, forKey: "text")
                    return note
                }
                try context.save()
                return objects.map(\.objectID)
            }
        }

        /// Executes a history request on the context; the result's `result`.
        func execute(_ request: NSPersistentHistoryChangeRequest, in context: NSManagedObjectContext? = nil) throws -> Any? {
            let context = context ?? self.context
            return try context.performAndWait {
                let result = try #require(try context.execute(request) as? NSPersistentHistoryResult)
                #expect(result.resultType == request.resultType)
                return result.result
            }
        }

        /// The transactions (with changes) a request returns.
        func transactions(
            _ request: NSPersistentHistoryChangeRequest = .fetchHistory(after: Date.distantPast),
            in context: NSManagedObjectContext? = nil
        ) throws -> [NSPersistentHistoryTransaction] {
            try #require(try execute(request, in: context) as? [NSPersistentHistoryTransaction])
        }

        /// Rows of a query on the store file, through a connection of their own.
        func rows(_ sql: String) throws -> [[DatabaseValueText]] {
            try StoreKit.rows(url, sql).map { row in row.databaseValues.map(DatabaseValueText.init) }
        }

        func close() throws {
            for store in coordinator.persistentStores { try coordinator.remove(store) }
        }
    }
}


/// A SQL value as text, for comparing rows in expectations: `NULL`, integers and reals as SQLite prints
/// them, text as it is, blobs as `x'…'`.
struct DatabaseValueText: Equatable, CustomStringConvertible, ExpressibleByStringLiteral {
    let text: String

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: text = "NULL"
        case .int64(let v): text = String(v)
        case .double(let v): text = String(v)
        case .string(let s): text = s
        case .blob(let data): text = "x'" + data.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }

    init(stringLiteral value: String) {
        text = value
    }

    var description: String { text }
}
