/// The objects a context reported changed in one `NSManagedObjectContextObjectsDidChange` notification.
struct FetchedResultsContextChanges {
    var inserted: [NSManagedObject] = []
    var updated: [NSManagedObject] = []
    var deleted: [NSManagedObject] = []
    var refreshed: [NSManagedObject] = []
    var invalidated: [NSManagedObject] = []
    var invalidatedAll = false

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
final class FetchedResultsObservation {
    private let token: NSObjectProtocol

    init(context: NSManagedObjectContext, handler: @escaping (FetchedResultsContextChanges) -> Void) {
        let box = HandlerBox(handler)
        token = NotificationCenter.default.addObserver(forName: .NSManagedObjectContextObjectsDidChange,
                                                       object: context, queue: nil) { notification in
            box.handler(FetchedResultsContextChanges(userInfo: notification.userInfo))
        }
    }

    deinit {
        NotificationCenter.default.removeObserver(token)
    }

    // @unchecked Sendable: the handler is immutable, and notifications are delivered synchronously on
    // the thread that posts them — the context's own queue, where the controller is used too.
    private final class HandlerBox: @unchecked Sendable {
        let handler: (FetchedResultsContextChanges) -> Void
        init(_ handler: @escaping (FetchedResultsContextChanges) -> Void) { self.handler = handler }
    }
}
