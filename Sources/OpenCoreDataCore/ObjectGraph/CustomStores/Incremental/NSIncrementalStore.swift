import Foundation

/// An abstract superclass defining the API through which Core Data communicates with a store that
/// loads and saves data incrementally, allowing for the management of large or shared data sets.
///
/// Subclass it to keep objects in any backend — a file, a web service, a database server — and
/// register the subclass with ``NSPersistentStoreCoordinator/registerStoreClass(_:type:)``. The
/// coordinator then creates the store for ``NSPersistentStoreCoordinator/addPersistentStore(type:configuration:at:options:)``
/// and calls:
///
/// - ``loadMetadata()`` once, when the store is added;
/// - ``execute(_:with:)`` for each fetch request (every result type) and for each save, with an
///   ``NSSaveChangesRequest``;
/// - ``newValuesForObject(with:with:)`` when a fault fires, and before a save for the objects the save
///   changes or deletes (their versions are compared with those the context read);
/// - ``newValue(forRelationship:forObjectWith:with:)`` when a to-many relationship is first read, or a
///   to-one relationship the node left out;
/// - ``obtainPermanentIDs(for:)`` for new objects, before the save that inserts them.
///
/// You must override those five methods; ``identifierForNewStore(at:)``,
/// ``managedObjectContextDidRegisterObjects(with:)`` and ``managedObjectContextDidUnregisterObjects(with:)``
/// are optional. Don't override ``newObjectID(for:referenceObject:)`` or ``referenceObject(for:)``.
// @unchecked Sendable: the reference table and the registration ledger guard their own state
// (`ReferenceObjectKeys` and `_registrationLock`); the model is read only.
open class NSIncrementalStore: NSPersistentStore, @unchecked Sendable {
    /// The reference objects of the store's object IDs.
    let _referenceKeys = ReferenceObjectKeys()
    /// The coordinator's model, set when the store is added.
    @NonRetaining var _model: NSManagedObjectModel?
    /// The IDs reported to ``managedObjectContextDidRegisterObjects(with:)`` and not yet unregistered,
    /// by context (guarded by `_registrationLock`).
    var _registered: [ObjectIdentifier: Set<NSManagedObjectID>] = [:]
    let _registrationLock = NSLock()

    /// Returns the identifier for a new store at a location: a new UUID string by default.
    ///
    /// Use the value as the ``NSStoreUUIDKey`` of the new store's metadata in ``loadMetadata()``.
    open class func identifierForNewStore(at storeURL: URL) -> Any {
        UUID().uuidString
    }

    /// The type of the store: the ``NSStoreTypeKey`` of its metadata, or else the type its class is
    /// registered under.
    open override var type: String {
        if let type = metadata?[NSStoreTypeKey] as? String { return type }
        let own = ObjectIdentifier(Swift.type(of: self))
        return StoreTypeRegistry.shared.types.first { ObjectIdentifier($0.value) == own }?.key ?? "\(Swift.type(of: self))"
    }

    /// Loads the metadata of the store.
    ///
    /// Override it to check that the store's location is usable (it exists and, if needed, is writable,
    /// its schema fits, and so on) and to set ``NSPersistentStore/metadata``, which must contain at
    /// least ``NSStoreTypeKey`` and ``NSStoreUUIDKey``; throw an error when the store cannot be used. A
    /// file-based store must accept a location with no file or an empty file, and treat it as a new
    /// store. When the metadata has ``NSStoreModelVersionHashesKey``, the coordinator checks them
    /// against its model.
    open override func loadMetadata() throws {
        throw _mustOverride("loadMetadata()")
    }

    /// Returns a value as appropriate for a request, or throws when the request cannot be completed.
    ///
    /// A fetch request arrives as an `NSFetchRequest<NSFetchRequestResult>`, whatever result type the
    /// caller's request was declared with. For a fetch request, return an array whose contents depend on the request's
    /// ``NSFetchRequest/resultType``: managed objects of `context` (made with
    /// ``NSManagedObjectContext/object(with:)`` from IDs made with ``newObjectID(for:referenceObject:)``),
    /// object IDs, dictionaries of property values, or one `NSNumber` with the count. Apply the
    /// request's predicate, sort descriptors, offset and limit; the context adds its unsaved changes
    /// when the request includes pending changes.
    ///
    /// For an ``NSSaveChangesRequest``, write its inserted, updated and deleted objects (reading their
    /// values from the objects) as one change: give a new record version 1 and add one to the version of
    /// each record you change. Return an empty array. Throw to fail the save; the context keeps its
    /// changes.
    open func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
        throw _mustOverride("execute(_:with:)")
    }

    /// Returns a node with the stored values of an object, and their version.
    ///
    /// The node should include every attribute's value, and may include to-one relationships as the
    /// destinations' ``NSManagedObjectID``s (`NSNull` for none). Throw when the object cannot be found:
    /// the fault then fails, and a save that expected the object reports a conflict.
    open func newValuesForObject(with objectID: NSManagedObjectID, with context: NSManagedObjectContext) throws -> NSIncrementalStoreNode {
        throw _mustOverride("newValuesForObject(with:with:)")
    }

    /// Returns the value of a relationship of an object: the destination's ``NSManagedObjectID`` (or
    /// `NSNull`) for a to-one relationship, a collection of ``NSManagedObjectID``s for a to-many
    /// relationship (an array or ordered set, in order, for an ordered one).
    open func newValue(
        forRelationship relationship: NSRelationshipDescription, forObjectWith objectID: NSManagedObjectID,
        with context: NSManagedObjectContext?
    ) throws -> Any {
        throw _mustOverride("newValue(forRelationship:forObjectWith:with:)")
    }

    /// Returns permanent object IDs for newly inserted objects, one for each object, in the same order.
    ///
    /// Make each with ``newObjectID(for:referenceObject:)`` and the object's entity.
    open func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] {
        throw _mustOverride("obtainPermanentIDs(for:)")
    }

    /// Indicates that objects of the store, identified by their IDs, are in use in a managed object
    /// context: called after a fetch registers them. The default does nothing.
    open func managedObjectContextDidRegisterObjects(with objectIDs: [NSManagedObjectID]) {}

    /// Indicates that objects of the store, identified by their IDs, are no longer in use in a managed
    /// object context: called when the context lets them go (it is reset, it releases objects nothing
    /// else holds, or it goes away). The default does nothing.
    open func managedObjectContextDidUnregisterObjects(with objectIDs: [NSManagedObjectID]) {}

    /// Returns a new object ID for an object of an entity, with the store's own key for it.
    ///
    /// The reference object is unique among the objects of the entity: typically a string or a number.
    /// Two IDs made from equal reference objects are equal. An ID whose reference object is a positive
    /// integer has the URI `x-coredata://<store UUID>/<Entity>/p<number>`.
    public final func newObjectID(for entity: NSEntityDescription, referenceObject data: Any) -> NSManagedObjectID {
        NSManagedObjectID(entity: _modelEntity(entity), store: self, primaryKey: _referenceKeys.key(for: data))
    }

    /// Returns the reference object an object ID of the store was made with (an `NSNumber` for an
    /// integer); `NSNull` for an ID this store did not make.
    public final func referenceObject(for objectID: NSManagedObjectID) -> Any {
        guard let key = objectID.primaryKey, objectID.storeIdentifier == identifier else { return NSNull() }
        return _referenceKeys.reference(for: key) ?? NSNull()
    }

    // MARK: The coordinator's store hooks (NSIncrementalStore+Rows.swift, NSIncrementalStore+Saving.swift)

    override func _open(model: NSManagedObjectModel) throws { try _openStore(model: model) }
    override func _loadMetadata() throws -> [String: Any] { try _loadStoreMetadata() }
    override func _close() { _closeStore() }
    override func _fetchRows<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> [StoreRow] {
        try _storeRows(request)
    }
    override func _fetchObjectIDs<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> [NSManagedObjectID] {
        try _storeObjectIDs(request)
    }
    override func _count<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> Int {
        try _storeCount(request)
    }
    override func _row(for objectID: NSManagedObjectID) throws -> StoreRow? { try _storeRow(for: objectID) }
    override func _relatedObjectIDs(for relationship: NSRelationshipDescription, of objectID: NSManagedObjectID) throws -> [NSManagedObjectID] {
        try _storeRelatedObjectIDs(for: relationship, of: objectID)
    }
    override func _newPermanentIDs(for temporaryIDs: [NSManagedObjectID], entity: NSEntityDescription) throws -> [NSManagedObjectID] {
        try _storePermanentIDs(for: temporaryIDs)
    }
    override func _allocatePrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] {
        throw _unsupported("allocating primary keys (it gives permanent IDs through obtainPermanentIDs(for:))")
    }
    override func _save(_ changes: StoreSaveChanges) throws -> StoreSaveResult { try _saveToStore(changes) }

    // MARK: Helpers

    /// The coordinator's entity of the name, so that IDs share one description.
    func _modelEntity(_ entity: NSEntityDescription) -> NSEntityDescription {
        guard let name = entity.name, let own = _model?.entitiesByName[name] else { return entity }
        return own
    }

    /// The error for a required method the subclass did not override.
    func _mustOverride(_ method: String) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError,
            userInfo: [
                NSLocalizedDescriptionKey: "The incremental store \(Swift.type(of: self)) does not override \(method)."
            ])
    }

    /// The error for a value the subclass returned that Core Data cannot use.
    func _badResult(_ message: String) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreOperationError,
            userInfo: [
                NSLocalizedDescriptionKey: "The incremental store \(Swift.type(of: self)) at \(url?.path ?? "(no location)") \(message)",
                NSAffectedStoresErrorKey: [self],
            ])
    }
}
