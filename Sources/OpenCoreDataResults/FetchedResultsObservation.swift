import OpenCoreDataCore

/// The objects a context reported changed in one `NSManagedObjectContextObjectsDidChange` notification.
struct FetchedResultsContextChanges {
    var inserted: [NSManagedObject] = []
    var updated: [NSManagedObject] = []
    var deleted: [NSManagedObject] = []
    var refreshed: [NSManagedObject] = []
    var invalidated: [NSManagedObject] = []
    var invalidatedAll = false

    /// Changes naming only objects whose values changed.
    init(updated: [NSManagedObject]) {
        self.updated = updated
    }

    init(userInfo: [AnyHashable: Any]?) {
        guard let userInfo else { return }
        inserted = Self.objects(userInfo[NSInsertedObjectsKey])
        updated = Self.objects(userInfo[NSUpdatedObjectsKey])
        deleted = Self.objects(userInfo[NSDeletedObjectsKey])
        refreshed = Self.objects(userInfo[NSRefreshedObjectsKey])
        invalidated = Self.objects(userInfo[NSInvalidatedObjectsKey])
        invalidatedAll = userInfo[NSInvalidatedAllObjectsKey] != nil
    }

    /// The managed objects in a notification value (a set or an array).
    private static func objects(_ value: Any?) -> [NSManagedObject] {
        guard let value else { return [] }
        if let set = value as? Set<NSManagedObject> { return Array(set) }
        if let array = value as? [NSManagedObject] { return array }
        if let set = value as? NSSet { return set.allObjects.compactMap { $0 as? NSManagedObject } }
        if let array = value as? NSArray { return array.compactMap { $0 as? NSManagedObject } }
        return []
    }
}

/// A fetched results controller's subscription to its context's change notifications; it ends when
/// the value is released.
///
/// Besides `NSManagedObjectContextObjectsDidChange`, it follows
/// `NSManagedObjectContextDidMergeChangesObjectIDs`, whose `NSUpdatedObjectIDsKey` names objects another
/// save updated that the context had never registered (they may now belong to the results).
final class FetchedResultsObservation {
    private let tokens: [NSObjectProtocol]

    init(
        context: NSManagedObjectContext, handler: @escaping (FetchedResultsContextChanges) -> Void,
        mergedUnregistered: @escaping (Set<NSManagedObjectID>) -> Void
    ) {
        let box = HandlerBox(handler)
        let mergeBox = HandlerBox(mergedUnregistered)
        tokens = [
            NotificationCenter.default.addObserver(
                forName: .NSManagedObjectContextObjectsDidChange,
                object: context, queue: nil
            ) { notification in
                box.handler(FetchedResultsContextChanges(userInfo: notification.userInfo))
            },
            NotificationCenter.default.addObserver(
                forName: .NSManagedObjectContextDidMergeChangesObjectIDs,
                object: context, queue: nil
            ) { notification in
                let ids = notification.userInfo?[NSUpdatedObjectIDsKey] as? Set<NSManagedObjectID> ?? []
                if !ids.isEmpty { mergeBox.handler(ids) }
            },
        ]
    }

    deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }

    // @unchecked Sendable: the handler is immutable, and notifications are delivered synchronously on
    // the thread that posts them — the context's own queue, where the controller is used too.
    private final class HandlerBox<Value>: @unchecked Sendable {
        let handler: (Value) -> Void
        init(_ handler: @escaping (Value) -> Void) { self.handler = handler }
    }
}
