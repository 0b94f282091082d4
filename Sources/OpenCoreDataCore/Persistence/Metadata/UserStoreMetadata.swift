/// Metadata a user gives a store through `NSPersistentStoreCoordinator.setMetadata(_:for:)`, completed
/// with the keys Core Data adds to it.
enum UserStoreMetadata {
    /// The dictionary with the store's type (``NSStoreTypeKey``, always the store's), and its UUID
    /// (``NSStoreUUIDKey``) unless the dictionary sets one: Core Data adds the UUID only when it is not
    /// set manually. A UUID that is not a string is not a UUID: the store's own is used.
    static func completed(_ metadata: [String: Any]?, for store: NSPersistentStore) -> [String: Any] {
        var completed = metadata ?? [:]
        if !(completed[NSStoreUUIDKey] is String) { completed[NSStoreUUIDKey] = store.identifier }
        completed[NSStoreTypeKey] = store.type
        return completed
    }
}
