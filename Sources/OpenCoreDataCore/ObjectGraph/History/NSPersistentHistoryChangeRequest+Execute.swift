/// Executing history requests: a context or a coordinator runs them on the coordinator's stores.
extension NSPersistentHistoryChangeRequest: ContextExecutableRequest, CoordinatorExecutableRequest {
    func execute(in context: NSManagedObjectContext) throws -> NSPersistentStoreResult {
        guard let coordinator = context.persistentStoreCoordinator else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreOperationError,
                userInfo: [
                    NSLocalizedDescriptionKey: "The context has no persistent store coordinator to read the persistent history of."
                ])
        }
        return try run(on: coordinator)
    }

    func execute(in coordinator: NSPersistentStoreCoordinator, context: NSManagedObjectContext) throws -> Any {
        try run(on: coordinator)
    }

    private func run(on coordinator: NSPersistentStoreCoordinator) throws -> NSPersistentHistoryResult {
        let result = try coordinator.executeHistoryRequest(self)
        return NSPersistentHistoryResult(result: result, resultType: resultType)
    }
}

extension NSPersistentHistoryTransaction {
    /// The `Transaction` entity, to make history fetch requests with
    /// (``NSPersistentHistoryChangeRequest/fetchHistory(withFetch:)``).
    public class func entityDescription(with context: NSManagedObjectContext) -> NSEntityDescription? {
        HistoryEntities.transaction
    }

    /// A did-save notification naming the transaction's changes by object ID
    /// (`NSManagedObjectContextDidSaveObjectIDs`, with `NSInsertedObjectIDsKey`, `NSUpdatedObjectIDsKey` and
    /// `NSDeletedObjectIDsKey`), for ``NSManagedObjectContext/mergeChanges(fromContextDidSave:)``: the
    /// inserted objects become fetchable, updated ones are refreshed, deleted ones are deleted — whichever
    /// process wrote the transaction.
    ///
    /// An object changed more than once in the transaction is listed once: as deleted when the last
    /// change deletes it, as inserted when it was inserted, as updated otherwise.
    public func objectIDNotification() -> Notification {
        var inserted = Set<NSManagedObjectID>(), updated = Set<NSManagedObjectID>(), deleted = Set<NSManagedObjectID>()
        for change in changes ?? [] {
            let id = change.changedObjectID
            switch change.changeType {
            case .insert:
                deleted.remove(id)
                inserted.insert(id)
            case .update:
                if !inserted.contains(id) && !deleted.contains(id) { updated.insert(id) }
            case .delete:
                inserted.remove(id)
                updated.remove(id)
                deleted.insert(id)
            }
        }
        return Notification(
            name: .NSManagedObjectContextDidSaveObjectIDs, object: nil,
            userInfo: [
                NSInsertedObjectIDsKey: inserted, NSUpdatedObjectIDsKey: updated, NSDeletedObjectIDsKey: deleted,
            ])
    }
}

extension NSPersistentHistoryChange {
    /// The `Change` entity, to make history fetch requests with
    /// (``NSPersistentHistoryChangeRequest/fetchHistory(withFetch:)``).
    public class func entityDescription(with context: NSManagedObjectContext) -> NSEntityDescription? {
        HistoryEntities.change
    }
}

extension NSManagedObjectContext {
    /// What a store with history tracking records of this context when it writes.
    var _historyAuthor: HistoryAuthor {
        HistoryAuthor(author: transactionAuthor, contextName: name)
    }
}
