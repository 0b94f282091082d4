extension NSManagedObjectContext {
    /// Merges the changes of another context's save, given its `NSManagedObjectContextDidSave` (or
    /// `NSManagedObjectContextDidSaveObjectIDs`) notification.
    ///
    /// Registered objects the other context updated are refreshed with the saved values (unsaved
    /// changes made here are kept on top of them); objects it inserted are registered here as faults;
    /// a registered object it deleted stays registered here, keeps its values and is ``NSManagedObject/isDeleted``
    /// (its row is gone, so fetches no longer find it). The context then posts
    /// `NSManagedObjectContextObjectsDidChange` (inserted, refreshed and deleted objects) and
    /// `NSManagedObjectContextDidMergeChangesObjectIDs`. Call it on the context's queue.
    public func mergeChanges(fromContextDidSave notification: Notification) {
        if let sender = notification.object as? NSManagedObjectContext, sender === self { return }
        let info = notification.userInfo ?? [:]
        let coordinator = persistentStoreCoordinator
        func ids(_ objectsKey: String, _ idsKey: String) -> Set<NSManagedObjectID> {
            Self._objectIDs(in: info[objectsKey], coordinator: coordinator)
                .union(Self._objectIDs(in: info[idsKey], coordinator: coordinator))
        }
        _mergeSaved(
            SavedObjectIDs(
                inserted: ids(NSInsertedObjectsKey, NSInsertedObjectIDsKey),
                updated: ids(NSUpdatedObjectsKey, NSUpdatedObjectIDsKey),
                deleted: ids(NSDeletedObjectsKey, NSDeletedObjectIDsKey)))
    }

    /// Merges changes saved elsewhere — by another coordinator or another process — into contexts.
    ///
    /// `changeNotificationData` holds, under `NSInsertedObjectsKey`, `NSUpdatedObjectsKey` and
    /// `NSDeletedObjectsKey` (or the object-ID keys), collections of `NSManagedObjectID`s or of their
    /// URI representations. Each context merges them on its own queue as with
    /// ``mergeChanges(fromContextDidSave:)``, reading updated objects' values from the store.
    public class func mergeChanges(
        fromRemoteContextSave changeNotificationData: [AnyHashable: Any],
        into contexts: [NSManagedObjectContext]
    ) {
        for context in contexts {
            context.performAndWait {
                let coordinator = context.persistentStoreCoordinator
                func ids(_ objectsKey: String, _ idsKey: String) -> Set<NSManagedObjectID> {
                    _objectIDs(in: changeNotificationData[objectsKey], coordinator: coordinator)
                        .union(_objectIDs(in: changeNotificationData[idsKey], coordinator: coordinator))
                }
                context._mergeSaved(
                    SavedObjectIDs(
                        inserted: ids(NSInsertedObjectsKey, NSInsertedObjectIDsKey),
                        updated: ids(NSUpdatedObjectsKey, NSUpdatedObjectIDsKey),
                        deleted: ids(NSDeletedObjectsKey, NSDeletedObjectIDsKey)))
            }
        }
    }

    /// A Boolean value that indicates whether the context merges the saves of its parent as they happen.
    ///
    /// For a child context these are its parent's saves; for a context connected to a coordinator they
    /// are the saves other contexts of the same coordinator make to the store (the usual setting for a
    /// persistent container's `viewContext`). The merges run asynchronously on the context's queue.
    public var automaticallyMergesChangesFromParent: Bool {
        get { _links.automaticallyMergesChangesFromParent }
        set {
            guard newValue != _links.automaticallyMergesChangesFromParent else { return }
            _links.automaticallyMergesChangesFromParent = newValue
            if let observer = _links.saveObserver {
                NotificationCenter.default.removeObserver(observer)
                _links.saveObserver = nil
            }
            if newValue { _observeSavesToMerge() }
        }
    }

    /// Starts merging the parent's saves (or, without a parent, the coordinator's other root contexts'
    /// saves) on the context's queue.
    private func _observeSavesToMerge() {
        let parent = _links.parent
        let coordinator = ParentlessCoordinator(value: parent == nil ? _coordinator : nil)
        let target = WeakContextBox(context: self)
        _links.saveObserver = NotificationCenter.default.addObserver(
            forName: .NSManagedObjectContextDidSaveObjectIDs, object: parent, queue: nil
        ) { note in
            guard let context = target.context, let sender = note.object as? NSManagedObjectContext, sender !== context else { return }
            if parent == nil {
                // Runs on the sender's queue: its own parent and coordinator may be read here.
                guard sender.parent == nil, let coordinator = coordinator.value,
                    sender.persistentStoreCoordinator === coordinator
                else { return }
            }
            let saved = SavedObjectIDs(note.userInfo ?? [:])
            guard !saved.isEmpty else { return }
            context.perform { context._mergeSaved(saved) }
        }
    }

    /// Brings the context up to date with a save made elsewhere; see ``mergeChanges(fromContextDidSave:)``.
    func _mergeSaved(_ saved: SavedObjectIDs) {
        _advanceQueryGeneration()
        let source = _objectSource
        var refreshed = Set<NSManagedObjectID>(), inserted = Set<NSManagedObjectID>(), deleted = Set<NSManagedObjectID>()
        // Updated objects this context never registered: reported under NSUpdatedObjectIDsKey of
        // DidMergeChangesObjectIDs (fetched results controllers look for objects that now match).
        var unregisteredUpdated = Set<NSManagedObjectID>()
        for id in saved.updated {
            guard let object = registry[_currentID(for: id)] else {
                if !id.isTemporaryID { unregisteredUpdated.insert(_currentID(for: id)) }
                continue
            }
            guard !object.isNewlyInserted else { continue }
            if object._isFault || object._isDeleted {
                // Keep the cache current so that the fault fires with the saved values.
                _ = try? source?.freshRow(for: object._objectID)
                // A fault's values changed too: observers (a controller whose predicate or order the
                // object may now satisfy) hear of it as refreshed.
                if !object._isDeleted { _changeEvents.refreshed[ObjectIdentifier(object)] = object }
            } else if object.changedKeys.isEmpty {
                guard let row = try? source?.freshRow(for: object._objectID) else { continue }
                fulfill(object, from: row)
                _changeEvents.refreshed[ObjectIdentifier(object)] = object
            } else {
                refresh(object, mergeChanges: true)
                _changeEvents.refreshed[ObjectIdentifier(object)] = object
            }
            refreshed.insert(object._objectID)
        }
        for id in saved.inserted {
            let current = _currentID(for: id)
            guard registry[current] == nil, !current.isTemporaryID else { continue }
            let object = self.object(with: current)
            _changeEvents.mergedInserted[ObjectIdentifier(object)] = object
            inserted.insert(current)
        }
        for id in saved.deleted {
            let current = _currentID(for: id)
            _ = try? source?.freshRow(for: current)
            // An object this context deletes itself (a parent taking its child's save) stays pending.
            guard let object = registry[current], _deleted[ObjectIdentifier(object)] == nil else { continue }
            // As in Apple's Core Data, the instance stays registered with its values, marked deleted;
            // its row is gone, so no fetch finds it again.
            object._isDeleted = true
            _changeEvents.mergedDeleted[ObjectIdentifier(object)] = object
            deleted.insert(current)
        }
        processPendingChanges()
        NotificationCenter.default.post(
            name: .NSManagedObjectContextDidMergeChangesObjectIDs, object: self,
            userInfo: [
                NSInsertedObjectIDsKey: inserted, NSUpdatedObjectIDsKey: unregisteredUpdated,
                NSDeletedObjectIDsKey: deleted, NSRefreshedObjectIDsKey: refreshed,
                NSInvalidatedObjectIDsKey: Set<NSManagedObjectID>(),
            ])
    }

    /// Object IDs from a notification value: collections of objects, object IDs or URIs.
    static func _objectIDs(in value: Any?, coordinator: NSPersistentStoreCoordinator?) -> Set<NSManagedObjectID> {
        guard let value else { return [] }
        let items: [Any]
        switch value {
        case let set as Set<NSManagedObject>: items = Array(set)
        case let set as Set<NSManagedObjectID>: items = Array(set)
        case let set as Set<URL>: items = Array(set)
        case let array as [Any]: items = array
        case let set as NSSet: items = set.allObjects
        case let set as Set<AnyHashable>: items = set.map(\.base)
        default: items = [value]
        }
        var result = Set<NSManagedObjectID>()
        for item in items {
            switch item {
            case let object as NSManagedObject: result.insert(object.objectID)
            case let id as NSManagedObjectID: result.insert(id)
            case let url as URL:
                if let id = coordinator?.managedObjectID(forURIRepresentation: url) { result.insert(id) }
            case let url as NSURL:
                if let id = coordinator?.managedObjectID(forURIRepresentation: url as URL) { result.insert(id) }
            default: continue
            }
        }
        return result
    }
}

extension SavedObjectIDs {
    /// The IDs in a did-save (object IDs) notification's `userInfo`.
    init(_ info: [AnyHashable: Any]) {
        self.init(
            inserted: info[NSInsertedObjectIDsKey] as? Set<NSManagedObjectID> ?? [],
            updated: info[NSUpdatedObjectIDsKey] as? Set<NSManagedObjectID> ?? [],
            deleted: info[NSDeletedObjectIDsKey] as? Set<NSManagedObjectID> ?? [])
    }
}

/// A weak reference to a context captured by a notification observer.
// @unchecked Sendable: the reference is only read; the context itself is Sendable and is used on its
// own queue through `perform`.
final class WeakContextBox: @unchecked Sendable {
    weak var context: NSManagedObjectContext?
    init(context: NSManagedObjectContext) { self.context = context }
}

/// The coordinator a parentless context merges the saves of, captured by its observer.
struct ParentlessCoordinator: Sendable {
    let value: NSPersistentStoreCoordinator?
}
