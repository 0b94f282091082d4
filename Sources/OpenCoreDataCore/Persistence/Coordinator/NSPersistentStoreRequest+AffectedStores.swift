extension NSPersistentStoreRequest {
    /// The persistent stores the request is limited to; `nil` (the default) means every store of the
    /// coordinator that holds the request's entity.
    public var affectedStores: [NSPersistentStore]? {
        get { _affectedStores?.compactMap { $0 as? NSPersistentStore } }
        set { _affectedStores = newValue }
    }
}
