/// Adding, removing and locating the coordinator's stores.
extension NSPersistentStoreCoordinator {
    /// Adds a store of a type at a location to the coordinator, opening it (or creating it when nothing
    /// is there yet), and returns it.
    ///
    /// - Throws: the model's consistency error; ``NSPersistentStoreInvalidTypeError`` for an unknown type;
    ///   ``NSPersistentStoreIncompatibleVersionHashError`` when the store was written for a different
    ///   model and no migration is asked for; an error naming the file when the file is not a store, is
    ///   damaged, is a directory or cannot be read. The file is left untouched when opening fails.
    @discardableResult
    public func addPersistentStore(
        type: NSPersistentStore.StoreType, configuration: String? = nil,
        at storeURL: URL, options: [AnyHashable: Any]? = nil
    ) throws -> NSPersistentStore {
        try addPersistentStore(ofType: type.rawValue, configurationName: configuration, at: storeURL, options: options)
    }

    /// Adds a store of a named type at a location to the coordinator, opening or creating it, and
    /// returns it. A `nil` URL is allowed only for in-memory stores.
    ///
    /// Posts `NSPersistentStoreCoordinatorStoresDidChange` with the store under `NSAddedPersistentStoresKey`.
    @discardableResult
    public func addPersistentStore(
        ofType storeType: String, configurationName configuration: String?,
        at storeURL: URL?, options: [AnyHashable: Any]? = nil
    ) throws -> NSPersistentStore {
        let store = try _addPersistentStore(ofType: storeType, configurationName: configuration, at: storeURL, options: options)
        _postStoresDidChange(added: [store])
        return store
    }

    /// Adds a store without posting a notification (see `addPersistentStore(ofType:configurationName:at:options:)`).
    func _addPersistentStore(
        ofType storeType: String, configurationName configuration: String?,
        at storeURL: URL?, options: [AnyHashable: Any]?
    ) throws -> NSPersistentStore {
        if let _modelError { throw _modelError }
        if let configuration, configuration != "PF_DEFAULT_CONFIGURATION_NAME",
            managedObjectModel.entities(forConfigurationName: configuration) == nil
        {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreInvalidTypeError,
                userInfo: [
                    NSLocalizedDescriptionKey: "The model has no configuration named \"\(configuration)\"."
                ])
        }
        let store: NSPersistentStore
        switch storeType {
        case NSSQLiteStoreType:
            guard let storeURL else {
                throw NSError(
                    domain: NSCocoaErrorDomain, code: NSPersistentStoreInvalidTypeError,
                    userInfo: [
                        NSLocalizedDescriptionKey: "A SQLite store needs a file URL."
                    ])
            }
            store = SQLiteStore(persistentStoreCoordinator: self, configurationName: configuration, at: storeURL, options: options)
        case NSInMemoryStoreType:
            store = InMemoryStore(
                persistentStoreCoordinator: self, configurationName: configuration,
                at: storeURL ?? URL(fileURLWithPath: "/dev/null"), options: options)
        default:
            store = try _registeredStore(ofType: storeType, configurationName: configuration, at: storeURL, options: options)
        }
        _writeLock.lock()
        defer { _writeLock.unlock() }
        if let storeURL, storeType == NSSQLiteStoreType, persistentStore(for: storeURL) != nil {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreOperationError,
                userInfo: [
                    NSLocalizedDescriptionKey: "The store at \(storeURL.path) has already been added to this coordinator.",
                    NSURLErrorKey: storeURL,
                ])
        }
        try store._open(model: managedObjectModel)
        _lock.withLock { _stores.append(store) }
        store.didAdd(to: self)
        return store
    }

    /// A new store of a type registered with ``registerStoreClass(_:forStoreType:)``, made with the class's
    /// `init(persistentStoreCoordinator:configurationName:at:options:)`.
    private func _registeredStore(
        ofType storeType: String, configurationName configuration: String?,
        at storeURL: URL?, options: [AnyHashable: Any]?
    ) throws -> NSPersistentStore {
        guard let registered = StoreTypeRegistry.shared.types[storeType] else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreInvalidTypeError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "Unknown persistent store type \"\(storeType)\" for \(storeURL?.path ?? "(no location)"); OpenCoreData supports \(NSSQLiteStoreType), \(NSInMemoryStoreType) and the types registered with registerStoreClass(_:forStoreType:)."
                ])
        }
        guard let storeClass = registered as? NSPersistentStore.Type else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreInvalidTypeError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "The class \(registered) registered for the store type \"\(storeType)\" is not a subclass of NSPersistentStore."
                ])
        }
        guard let storeURL else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreInvalidTypeError,
                userInfo: [
                    NSLocalizedDescriptionKey: "A store of type \"\(storeType)\" needs a URL."
                ])
        }
        return storeClass.init(persistentStoreCoordinator: self, configurationName: configuration, at: storeURL, options: options)
    }

    /// Adds the store a description describes, calling `block` with the description and the error, if
    /// any. The store is added before the method returns unless the description asks for asynchronous
    /// addition (``NSPersistentStoreDescription/shouldAddStoreAsynchronously``).
    public func addPersistentStore(
        with storeDescription: NSPersistentStoreDescription,
        completionHandler block: @escaping (NSPersistentStoreDescription, (any Error)?) -> Void
    ) {
        let add = { [self] in
            do {
                guard let type = Optional(storeDescription.type), !type.isEmpty else { return }
                try addPersistentStore(
                    ofType: type, configurationName: storeDescription.configuration,
                    at: storeDescription.url, options: storeDescription._effectiveOptions)
                block(storeDescription, nil)
            } catch {
                block(storeDescription, error)
            }
        }
        if storeDescription.shouldAddStoreAsynchronously {
            let work = UncheckedSendableBox(add)
            DispatchQueue.global().async { work.value() }
        } else {
            add()
        }
    }

    /// Removes a store from the coordinator; its objects can no longer be fetched or saved.
    ///
    /// Posts `NSPersistentStoreCoordinatorWillRemoveStore` (its object is the store) before, and
    /// `NSPersistentStoreCoordinatorStoresDidChange` with the store under `NSRemovedPersistentStoresKey`
    /// after.
    public func remove(_ store: NSPersistentStore) throws {
        if persistentStores.contains(where: { $0 === store }) { _postWillRemove(store) }
        try _remove(store)
        _postStoresDidChange(removed: [store])
    }

    /// Removes a store without posting notifications (see `remove(_:)`).
    func _remove(_ store: NSPersistentStore) throws {
        _writeLock.lock()
        defer { _writeLock.unlock() }
        let found = _lock.withLock { _stores.contains { $0 === store } }
        guard found else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreOperationError,
                userInfo: [
                    NSLocalizedDescriptionKey: "The store at \(store.url?.path ?? "(no location)") is not in this coordinator."
                ])
        }
        store.willRemove(from: self)
        _lock.withLock { _stores.removeAll { $0 === store } }
        _rowCache.removeAll(of: store)
        store._close()
    }

    /// Moves a store to a new location. Returns `false` when the store is not in the coordinator.
    public func setURL(_ url: URL, for store: NSPersistentStore) -> Bool {
        guard persistentStores.contains(where: { $0 === store }) else { return false }
        store.url = url
        return true
    }
}

/// A value moved to another thread that the compiler cannot prove safe to send.
// @unchecked Sendable: used only to hand a value to exactly one other queue or task, which alone uses
// it from then on: a closure that queue runs once (capturing the coordinator, which is Sendable, and a
// description the caller gives away), or a block's result handed back to the caller that waited for it.
struct UncheckedSendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
