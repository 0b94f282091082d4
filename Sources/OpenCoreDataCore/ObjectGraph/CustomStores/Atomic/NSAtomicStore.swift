import Foundation

/// An abstract superclass for stores that read and write all their data at once: Core Data keeps every
/// object of the store in memory as a cache node, fetches from the nodes, and asks the store to write
/// them all when a context saves.
///
/// Subclass it and register the subclass with ``NSPersistentStoreCoordinator/registerStoreClass(_:type:)``.
/// You must override:
///
/// - ``load()``: read the store's file, make a node for each object (``NSAtomicStoreCacheNode/init(objectID:)``
///   with an ID from ``objectID(for:withReferenceObject:)``), fill its ``NSAtomicStoreCacheNode/propertyCache``,
///   hand the nodes to ``addCacheNodes(_:)``, and set ``NSPersistentStore/metadata``;
/// - ``save()``: write every node of ``cacheNodes()``;
/// - ``newReferenceObject(for:)``: the store's unique key for a new object.
///
/// ``newCacheNode(for:)`` and ``updateCacheNode(_:from:)`` copy an object's values into a node; their
/// default implementations copy every attribute and relationship, and ``willRemoveCacheNodes(_:)`` is
/// told of the nodes of deleted objects. Don't override ``objectID(for:withReferenceObject:)``,
/// ``referenceObject(for:)``, ``cacheNodes()``, ``addCacheNodes(_:)`` or ``cacheNode(for:)``.
///
/// When a context saves, Core Data checks the versions of the changed nodes (optimistic locking), then
/// makes nodes for new objects with ``newCacheNode(for:)``, updates the nodes of new and changed
/// objects with ``updateCacheNode(_:from:)``, removes the nodes of deleted objects, and calls
/// ``save()``; when `save()` throws, the nodes are put back as they were.
// @unchecked Sendable: the nodes are read and written only while holding `_nodesLock` (changed only by
// saves, which the coordinator runs one at a time); the reference table guards its own state.
open class NSAtomicStore: NSPersistentStore, @unchecked Sendable {
    let _referenceKeys = ReferenceObjectKeys()
    @NonRetaining var _model: NSManagedObjectModel?
    let _nodesLock = NSLock()
    var _nodes: [NSManagedObjectID: NSAtomicStoreCacheNode] = [:]

    /// The type of the store: the ``NSStoreTypeKey`` of its metadata, or else the type its class is
    /// registered under.
    open override var type: String {
        if let type = metadata?[NSStoreTypeKey] as? String { return type }
        let own = ObjectIdentifier(Swift.type(of: self))
        return StoreTypeRegistry.shared.types.first { ObjectIdentifier($0.value) == own }?.key ?? "\(Swift.type(of: self))"
    }

    /// Loads the store's objects: override it to read the store's location, make the cache nodes and add
    /// them with ``addCacheNodes(_:)``, and set the metadata. A location with no file is a new, empty
    /// store. Throw when the store cannot be read.
    open func load() throws {
        throw _mustOverride("load()")
    }

    /// Writes every cache node of the store to its location. Throw when the store cannot be written.
    open func save() throws {
        throw _mustOverride("save()")
    }

    /// Loads the metadata by loading the store; when the metadata then has no ``NSStoreUUIDKey``, the
    /// store gets a new UUID, and ``NSStoreTypeKey`` its type.
    open override func loadMetadata() throws {
        try load()
        var metadata = self.metadata ?? [:]
        guard metadata[NSStoreUUIDKey] as? String == nil || metadata[NSStoreTypeKey] as? String == nil else { return }
        if metadata[NSStoreUUIDKey] as? String == nil { metadata[NSStoreUUIDKey] = UUID().uuidString }
        if metadata[NSStoreTypeKey] as? String == nil { metadata[NSStoreTypeKey] = type }
        self.metadata = metadata
    }

    /// Returns a new cache node for a newly inserted object, holding the object's values; by default a
    /// node with the object's ID whose property cache ``updateCacheNode(_:from:)`` then fills.
    open func newCacheNode(for managedObject: NSManagedObject) -> NSAtomicStoreCacheNode {
        NSAtomicStoreCacheNode(objectID: managedObject.objectID)
    }

    /// Returns the store's reference object for a newly inserted object: unique among the objects of
    /// its entity, typically a string or a number. Override it; the default is a new UUID string.
    open func newReferenceObject(for managedObject: NSManagedObject) -> Any {
        UUID().uuidString
    }

    /// Updates a cache node with the values of an object: by default every stored attribute, each to-one
    /// relationship as the destination's node and each to-many relationship as a set of nodes (an array
    /// for an ordered relationship).
    open func updateCacheNode(_ node: NSAtomicStoreCacheNode, from managedObject: NSManagedObject) {
        let cache = node.propertyCache ?? NSMutableDictionary()
        for (name, attribute) in managedObject.entity.attributesByName where !attribute.isTransient {
            if let value = managedObject.value(forKey: name) { cache[name] = value } else { cache.removeObject(forKey: name) }
        }
        for (name, relationship) in managedObject.entity.relationshipsByName where !relationship.isTransient {
            let value = managedObject.value(forKey: name)
            if relationship.isToMany {
                let objects =
                    (value as? Set<NSManagedObject>).map(Array.init)
                    ?? (value as? NSOrderedSet)?.array.compactMap { $0 as? NSManagedObject } ?? []
                let nodes = objects.compactMap { cacheNode(for: $0.objectID) }
                cache[name] = relationship.isOrdered ? nodes as [Any] : Set(nodes) as Any
            } else if let destination = value as? NSManagedObject, let target = cacheNode(for: destination.objectID) {
                cache[name] = target
            } else {
                cache.removeObject(forKey: name)
            }
        }
        node.propertyCache = cache
    }

    /// The store's cache nodes.
    public final func cacheNodes() -> Set<NSAtomicStoreCacheNode> {
        _nodesLock.withLock { Set(_nodes.values) }
    }

    /// Adds cache nodes to the store (in ``load()``, or for objects other than those of a save).
    public final func addCacheNodes(_ cacheNodes: Set<NSAtomicStoreCacheNode>) {
        _nodesLock.withLock {
            for node in cacheNodes { _nodes[node.objectID] = node }
        }
    }

    /// Tells the store that cache nodes are about to be removed: the nodes of deleted objects. The
    /// default does nothing.
    open func willRemoveCacheNodes(_ cacheNodes: Set<NSAtomicStoreCacheNode>) {}

    /// Returns the cache node of an object, or `nil` when the store has none.
    public final func cacheNode(for objectID: NSManagedObjectID) -> NSAtomicStoreCacheNode? {
        _nodesLock.withLock { _nodes[objectID] }
    }

    /// Returns the object ID of the object of an entity with a reference object.
    ///
    /// Two IDs made from equal reference objects are equal.
    public final func objectID(for entity: NSEntityDescription, withReferenceObject data: Any) -> NSManagedObjectID {
        let name = entity.name ?? ""
        let own = _model?.entitiesByName[name] ?? entity
        return NSManagedObjectID(entity: own, store: self, primaryKey: _referenceKeys.key(for: data))
    }

    /// Returns the reference object an object ID of the store was made with (an `NSNumber` for an
    /// integer); `NSNull` for an ID this store did not make.
    public final func referenceObject(for objectID: NSManagedObjectID) -> Any {
        guard let key = objectID.primaryKey, objectID.storeIdentifier == identifier else { return NSNull() }
        return _referenceKeys.reference(for: key) ?? NSNull()
    }

    // MARK: The coordinator's store hooks (NSAtomicStore+Rows.swift, NSAtomicStore+Saving.swift)

    override func _open(model: NSManagedObjectModel) throws { try _openStore(model: model) }
    override func _loadMetadata() throws -> [String: Any] {
        try loadMetadata()
        return metadata ?? [:]
    }
    override func _close() { _nodesLock.withLock { _nodes = [:] } }
    override func _fetchRows<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> [StoreRow] {
        try _selectedNodes(request, entity: entity).map(_row(from:))
    }
    override func _fetchObjectIDs<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> [NSManagedObjectID] {
        try _selectedNodes(request, entity: entity).map(\.objectID)
    }
    override func _count<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> Int {
        try _selectedNodes(request, entity: entity).count
    }
    override func _row(for objectID: NSManagedObjectID) throws -> StoreRow? {
        try cacheNode(for: objectID).map(_row(from:))
    }
    override func _allRows() throws -> [StoreRow] {
        try cacheNodes().map(_row(from:))
    }
    override func _relatedObjectIDs(for relationship: NSRelationshipDescription, of objectID: NSManagedObjectID) throws -> [NSManagedObjectID] {
        guard let node = cacheNode(for: objectID) else { return [] }
        return try _destinationIDs(node.value(forKey: relationship.name), of: relationship, in: node)
    }
    override func _newPermanentIDs(for temporaryIDs: [NSManagedObjectID], entity: NSEntityDescription) throws -> [NSManagedObjectID] {
        try _storePermanentIDs(for: temporaryIDs)
    }
    override func _allocatePrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] {
        throw _unsupported("allocating primary keys (it gives permanent IDs through newReferenceObject(for:))")
    }
    override func _save(_ changes: StoreSaveChanges) throws -> StoreSaveResult { try _saveToStore(changes) }

    // MARK: Helpers

    /// The error for a required method the subclass did not override.
    func _mustOverride(_ method: String) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError,
            userInfo: [
                NSLocalizedDescriptionKey: "The atomic store \(Swift.type(of: self)) does not override \(method)."
            ])
    }

    /// The error for a value the subclass gave that Core Data cannot use.
    func _badValue(_ message: String) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreOperationError,
            userInfo: [
                NSLocalizedDescriptionKey: "The atomic store \(Swift.type(of: self)) at \(url?.path ?? "(no location)") \(message)",
                NSAffectedStoresErrorKey: [self],
            ])
    }
}
