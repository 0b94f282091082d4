/// An object that connects a managed object model to persistent stores, and contexts to those stores.
///
/// A coordinator presents its stores as one: contexts fetch and save through it, and it routes each
/// request to the stores that hold the request's entity. Create a coordinator with a model, then add
/// stores with ``addPersistentStore(type:configuration:at:options:)``.
///
/// A coordinator may be used from any thread. Saves are serialized by a write lock (one save at a
/// time per coordinator); fetches run in parallel, each on its own SQLite connection under WAL.
// @unchecked Sendable: the store list, the row cache and the model's use error are guarded by `_lock`;
// saves are additionally serialized by `_writeLock`; the model is immutable once in use.
open class NSPersistentStoreCoordinator: NSObject, @unchecked Sendable {
    let _lock = NSLock()
    /// Serializes saves and store additions/removals.
    let _writeLock = NSRecursiveLock()
    private let _model: NSManagedObjectModel
    /// The error the model's consistency check threw; thrown when a store is added.
    let _modelError: Error?
    var _stores: [NSPersistentStore] = []
    var _name: String?
    var _sqlDebugLog: SQLDebugLog?
    /// Snapshots of rows by object ID, carrying `Z_OPT`.
    let _rowCache = StoreRowCache()
    /// Models registered as possible sources of a migration (guarded by `_lock`).
    var _migrationSourceModels: [NSManagedObjectModel] = []

    /// Creates a coordinator for a managed object model.
    ///
    /// The model becomes immutable: from now on changing it stops the program. When the model is
    /// inconsistent, adding a store throws the error that names the problem.
    public init(managedObjectModel model: NSManagedObjectModel) {
        _model = model
        var modelError: Error?
        do {
            try model._markInUse()
        } catch {
            modelError = error
        }
        _modelError = modelError
        super.init()
    }

    /// The coordinator's managed object model.
    open var managedObjectModel: NSManagedObjectModel {
        _model
    }

    /// The stores the coordinator manages, in the order they were added.
    open var persistentStores: [NSPersistentStore] {
        _lock.withLock { _stores }
    }

    /// A name for the coordinator, shown when debugging.
    open var name: String? {
        get { _lock.withLock { _name } }
        set { _lock.withLock { _name = newValue } }
    }

    /// Returns the store at a location, or `nil` when no store of the coordinator is there.
    open func persistentStore(for URL: URL) -> NSPersistentStore? {
        let wanted = URL.standardizedFileURL.resolvingSymlinksInPath()
        return persistentStores.first { store in
            guard let url = store.url else { return false }
            return url == URL || url.standardizedFileURL.resolvingSymlinksInPath() == wanted
        }
    }

    /// Returns the location of a store.
    open func url(for store: NSPersistentStore) -> URL {
        store.url ?? URL(fileURLWithPath: "/dev/null")
    }

    /// Returns the metadata of one of the coordinator's stores.
    open func metadata(for store: NSPersistentStore) -> [String: Any] {
        store.metadata ?? [:]
    }

    /// Sets the metadata of one of the coordinator's stores; it is written with the next save, or right
    /// away when the store has nothing to save.
    ///
    /// The store type (``NSStoreTypeKey``) and UUID (``NSStoreUUIDKey``) are added automatically; the
    /// UUID only when the dictionary does not set one. A UUID you set is the store's from then on in its
    /// metadata and file; the store's ``NSPersistentStore/identifier`` (and so the object IDs of its
    /// objects) takes it when the store is next added to a coordinator.
    open func setMetadata(_ metadata: [String: Any]?, for store: NSPersistentStore) {
        store._setMetadataKeepingIdentifier(UserStoreMetadata.completed(metadata, for: store))
    }

    /// Returns the ID of the object a URI names, or `nil` when the URI names no store of the
    /// coordinator or no entity of its model.
    ///
    /// The URI is one ``NSManagedObjectID/uriRepresentation()`` returned, possibly in an earlier launch.
    open func managedObjectID(forURIRepresentation url: URL) -> NSManagedObjectID? {
        guard url.scheme == "x-coredata" else { return nil }
        let parts = url.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard parts.count == 2, let entity = _model.entitiesByName[parts[0]] else { return nil }
        let key = parts[1]
        let host = url.host ?? ""
        if host.isEmpty {
            return nil
        }
        guard key.hasPrefix("p"), let pk = Int64(key.dropFirst()), pk > 0,
            let store = persistentStores.first(where: { $0.identifier?.caseInsensitiveCompare(host) == .orderedSame })
        else { return nil }
        return NSManagedObjectID(entity: entity, store: store, primaryKey: pk)
    }
}
