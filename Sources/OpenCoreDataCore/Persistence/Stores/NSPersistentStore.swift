/// A persistent store: one file or in-memory collection of rows that a coordinator reads and writes.
///
/// You don't create stores directly; add them to a ``NSPersistentStoreCoordinator`` with
/// ``NSPersistentStoreCoordinator/addPersistentStore(type:configuration:at:options:)``. A store knows its
/// type, location, identifier, configuration, options and metadata.
// @unchecked Sendable: the mutable state (identifier, metadata, read-only flag) is guarded by `_lock`;
// the rest is fixed at creation. Subclasses guard their own state (see each subclass).
open class NSPersistentStore: NSObject, @unchecked Sendable {
    let _lock = NSLock()
    @NonRetaining private var _coordinator: NSPersistentStoreCoordinator?
    private let _configurationName: String
    private let _options: [AnyHashable: Any]?
    private var _url: URL?
    private var _identifier: String?
    /// What the object IDs made under the current identifier share (under `_lock`), made when first
    /// asked for and dropped when the identifier changes.
    private var _idReference: ObjectIDStoreReference?
    private var _metadata: [String: Any]?
    private var _isReadOnly: Bool

    /// Creates a store for a coordinator, with a configuration, a location and options.
    ///
    /// A `nil` configuration name means the model's default configuration (every entity). The coordinator
    /// creates a store of a registered class (``NSPersistentStoreCoordinator/registerStoreClass(_:type:)``)
    /// with this initializer.
    public required init(
        persistentStoreCoordinator root: NSPersistentStoreCoordinator?, configurationName name: String?,
        at url: URL, options: [AnyHashable: Any]? = nil
    ) {
        _coordinator = root
        _configurationName = name ?? "PF_DEFAULT_CONFIGURATION_NAME"
        _options = options
        _url = url
        _isReadOnly = PersistentStoreOptions.bool(options?[NSReadOnlyPersistentStoreOption]) ?? false
        super.init()
    }

    /// The class of migration manager a store of this class migrates with: ``NSMigrationManager``.
    open class func migrationManagerClass() -> AnyClass {
        NSMigrationManager.self
    }

    /// The type of the store, for example ``NSSQLiteStoreType``.
    open var type: String {
        NSSQLiteStoreType
    }

    /// The coordinator the store was added to.
    open var persistentStoreCoordinator: NSPersistentStoreCoordinator? {
        _coordinator
    }

    /// The name of the configuration whose entities the store holds; `"PF_DEFAULT_CONFIGURATION_NAME"`
    /// for the default configuration.
    open var configurationName: String {
        _configurationName
    }

    /// The options the store was added with.
    open var options: [AnyHashable: Any]? {
        _options
    }

    /// The location of the store.
    open var url: URL? {
        get { _lock.withLock { _url } }
        set { _lock.withLock { _url = newValue } }
    }

    /// The unique identifier of the store, the ``NSStoreUUIDKey`` value of its metadata.
    open var identifier: String! {
        get { _lock.withLock { _identifier } }
        set { _replaceIdentifier { $0 = newValue } }
    }

    /// A Boolean value that indicates whether the store refuses saves.
    open var isReadOnly: Bool {
        get { _lock.withLock { _isReadOnly } }
        set { _lock.withLock { _isReadOnly = newValue } }
    }

    /// The store's metadata: its type, UUID, the model version hashes it was written with, and your own
    /// keys. Changes are written at the next save that reaches the store.
    open var metadata: [String: Any]! {
        get { _lock.withLock { _metadata } }
        set {
            _replaceIdentifier { identifier in
                _metadata = newValue
                if let uuid = newValue?[NSStoreUUIDKey] as? String { identifier = uuid }
            }
            _metadataDidChange()
        }
    }

    /// Loads the store's metadata from its location.
    open func loadMetadata() throws {
        let loaded = try _loadMetadata()
        _replaceIdentifier { identifier in
            _metadata = loaded
            identifier = loaded[NSStoreUUIDKey] as? String
        }
    }

    /// What the permanent object IDs of the store's rows share while its identifier stays as it is.
    var _objectIDReference: ObjectIDStoreReference {
        _lock.withLock {
            if let reference = _idReference { return reference }
            let reference = ObjectIDStoreReference(store: self, identifier: _identifier)
            _idReference = reference
            return reference
        }
    }

    /// Runs `change` with the store's lock held and its identifier to change; when the identifier
    /// changed, the IDs made from then on share a new reference, and the coordinator forgets the rows it
    /// cached under the old one (object IDs carry the identifier, so those rows could otherwise answer
    /// for a later store with that identifier).
    private func _replaceIdentifier(_ change: (inout String?) -> Void) {
        let (old, new) = _lock.withLock {
            let old = _identifier
            change(&_identifier)
            if _identifier != old { _idReference = nil }
            return (old, _identifier)
        }
        if let old, old != new { persistentStoreCoordinator?._rowCache.removeAll(storeIdentifier: old) }
    }

    /// Returns the metadata of the store at a location.
    open class func metadataForPersistentStore(with url: URL) throws -> [String: Any] {
        try SQLiteStoreMetadata.read(fromStoreAt: url).dictionary
    }

    /// Writes metadata into the store at a location.
    open class func setMetadata(_ metadata: [String: Any]?, forPersistentStoreAt url: URL) throws {
        try SQLiteStore.writeMetadata(metadata ?? [:], toStoreAt: url)
    }

    /// Called after the store has been added to a coordinator.
    open func didAdd(to coordinator: NSPersistentStoreCoordinator) {}

    /// Called before the store is removed from a coordinator.
    open func willRemove(from coordinator: NSPersistentStoreCoordinator?) {}

    // MARK: Internal store API (overridden by the SQLite and in-memory stores)

    /// Sets the identifier and metadata without notifying the subclass.
    func _setLoadedMetadata(_ metadata: [String: Any]) {
        _replaceIdentifier { identifier in
            _metadata = metadata
            identifier = metadata[NSStoreUUIDKey] as? String
        }
    }

    /// Sets the metadata (as the coordinator's `setMetadata(_:for:)` does) without changing the
    /// identifier the store's object IDs carry while it is open; then notifies the subclass.
    func _setMetadataKeepingIdentifier(_ metadata: [String: Any]) {
        _lock.withLock { _metadata = metadata }
        _metadataDidChange()
    }

    /// Reads the metadata from the store's location.
    func _loadMetadata() throws -> [String: Any] {
        throw _unsupported("reading metadata")
    }

    /// Called after `metadata` is set.
    func _metadataDidChange() {}

    /// Opens or creates the store for the coordinator's model; called once by the coordinator.
    func _open(model: NSManagedObjectModel) throws {
        throw NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreInvalidTypeError,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "The store class \(Swift.type(of: self)) for type \(type) at \(url?.path ?? "(no location)") subclasses NSPersistentStore directly; a custom store subclasses NSIncrementalStore or NSAtomicStore."
            ])
    }

    /// Releases the store's resources; called when the store leaves its coordinator.
    func _close() {}

    /// The rows selected by a request for `entity`, in result order.
    func _fetchRows<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> [StoreRow] {
        throw _unsupported("fetching")
    }

    /// The IDs selected by a request for `entity`, in result order.
    func _fetchObjectIDs<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> [NSManagedObjectID] {
        throw _unsupported("fetching")
    }

    /// The identities of the objects a request for `entity` selects, in result order: their IDs, unless
    /// the store names rows without making IDs.
    func _fetchObjectIdentities<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> [ObjectIdentity] {
        try _fetchObjectIDs(request, entity: entity).map(ObjectIdentity.id)
    }

    /// The number of objects a request for `entity` selects.
    func _count<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> Int {
        throw _unsupported("counting")
    }

    /// The stored row of one object, `nil` when it does not exist.
    func _row(for objectID: NSManagedObjectID) throws -> StoreRow? {
        throw _unsupported("reading rows")
    }

    /// Every row of the store, in entity-number then key order (used to copy a store).
    func _allRows() throws -> [StoreRow] {
        throw _unsupported("reading all rows")
    }

    /// The destinations of a to-many relationship of one object, ordered when it is ordered.
    func _relatedObjectIDs(for relationship: NSRelationshipDescription, of objectID: NSManagedObjectID) throws -> [NSManagedObjectID] {
        throw _unsupported("reading relationships")
    }

    /// Allocates `count` new primary keys for rows of `entity`'s inheritance tree.
    func _allocatePrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] {
        throw _unsupported("allocating primary keys")
    }

    /// Permanent IDs for the temporary IDs of new objects of `entity` (or its subentities) the store will
    /// hold, in the same order. By default, IDs with keys from ``_allocatePrimaryKeys(for:count:)``.
    func _newPermanentIDs(for temporaryIDs: [NSManagedObjectID], entity: NSEntityDescription) throws -> [NSManagedObjectID] {
        let keys = try _allocatePrimaryKeys(for: entity, count: temporaryIDs.count)
        return zip(temporaryIDs, keys).map { id, key in NSManagedObjectID(entity: id.entity, store: self, primaryKey: key) }
    }

    /// Writes the part of a save that belongs to this store in one transaction: permanent keys for the
    /// temporary IDs of `changes`, optimistic locking on `Z_OPT`, the writes, commit. On any failure
    /// nothing is written. Throws ``StoreSaveConflicts`` for locking failures.
    func _save(_ changes: StoreSaveChanges) throws -> StoreSaveResult {
        throw _unsupported("saving")
    }

    /// The error for an operation this kind of store does not support.
    func _unsupported(_ operation: String) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError,
            userInfo: [
                NSLocalizedDescriptionKey: "The persistent store of type \(type) at \(url?.path ?? "(no location)") does not support \(operation)."
            ])
    }
}
