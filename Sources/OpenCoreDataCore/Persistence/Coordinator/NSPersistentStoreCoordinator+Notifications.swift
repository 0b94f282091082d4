extension Notification.Name {
    /// A notification that the coordinator posts after its registered stores change.
    ///
    /// The notification's `object` is the coordinator. Its `userInfo` holds the added, removed and
    /// migrated stores under `NSAddedPersistentStoresKey`, `NSRemovedPersistentStoresKey` and
    /// `NSUUIDChangedPersistentStoresKey`. It is posted on the thread that changed the stores.
    public static let NSPersistentStoreCoordinatorStoresDidChange =
        Notification.Name("NSPersistentStoreCoordinatorStoresDidChangeNotification")

    /// A notification that the coordinator posts before it removes a store.
    ///
    /// The notification's `object` is the store about to be removed.
    public static let NSPersistentStoreCoordinatorWillRemoveStore =
        Notification.Name("NSPersistentStoreCoordinatorWillRemoveStoreNotification")

    /// A notification that a coordinator posts before its stores change because of ubiquitous content.
    ///
    /// OpenCoreData has no ubiquitous (iCloud) content, so it never posts this notification.
    public static let NSPersistentStoreCoordinatorStoresWillChange =
        Notification.Name("NSPersistentStoreCoordinatorStoresWillChangeNotification")

    /// A notification that a store was written, by this coordinator, another coordinator or another
    /// process, for stores added with ``NSPersistentStoreRemoteChangeNotificationPostOptionKey``.
    ///
    /// The object is the coordinator; `userInfo` holds the store's URL under ``NSPersistentStoreURLKey``,
    /// its UUID under `NSStoreUUIDKey` and, when the store tracks persistent history, the current history
    /// token under ``NSPersistentHistoryTokenKey``. On Linux the store's files are watched with inotify
    /// (see Docs/History.md for the delay).
    public static let NSPersistentStoreRemoteChange =
        Notification.Name("NSPersistentStoreRemoteChangeNotification")
}

/// The key, in a `NSPersistentStoreRemoteChange` notification, for the URL of the store that changed.
public let NSPersistentStoreURLKey = "storeURL"

/// The key, in a `NSPersistentStoreRemoteChange` notification, for the persistent history token of the
/// change.
public let NSPersistentHistoryTokenKey = "historyToken"

/// The key, in a `NSPersistentStoreCoordinatorStoresDidChange` notification, for the array of stores
/// that were added.
public let NSAddedPersistentStoresKey = "added"

/// The key, in a `NSPersistentStoreCoordinatorStoresDidChange` notification, for the array of stores
/// that were removed.
public let NSRemovedPersistentStoresKey = "removed"

/// The key, in a `NSPersistentStoreCoordinatorStoresDidChange` notification, for an array holding the old
/// store and the new store that replaced it (after `migratePersistentStore`).
public let NSUUIDChangedPersistentStoresKey = "changedUUID"

extension NSPersistentStoreCoordinator {
    /// Posts `NSPersistentStoreCoordinatorStoresDidChange`; a key is present only when its list is not empty.
    func _postStoresDidChange(
        added: [NSPersistentStore] = [], removed: [NSPersistentStore] = [],
        uuidChanged: [NSPersistentStore] = []
    ) {
        var userInfo: [AnyHashable: Any] = [:]
        if !added.isEmpty { userInfo[NSAddedPersistentStoresKey] = added }
        if !removed.isEmpty { userInfo[NSRemovedPersistentStoresKey] = removed }
        if !uuidChanged.isEmpty { userInfo[NSUUIDChangedPersistentStoresKey] = uuidChanged }
        NotificationCenter.default.post(name: .NSPersistentStoreCoordinatorStoresDidChange, object: self, userInfo: userInfo)
    }

    /// Posts `NSPersistentStoreCoordinatorWillRemoveStore` for a store about to leave the coordinator.
    func _postWillRemove(_ store: NSPersistentStore) {
        NotificationCenter.default.post(name: .NSPersistentStoreCoordinatorWillRemoveStore, object: store)
    }
}
