extension NSManagedObjectContext {
    /// Returns the object for an ID: the registered object, or a new fault registered for it.
    ///
    /// The object is not read from the store until one of its properties is accessed; if it does not
    /// exist there, accessing it marks it deleted (see ``shouldDeleteInaccessibleFaults``).
    public func object(with objectID: NSManagedObjectID) -> NSManagedObject {
        _checkQueue("object(with:)")
        if let object = registry[objectID] { return object }
        _releaseUnreferencedObjects()
        let object = makeObject(for: objectID)
        object._isFault = true
        return object
    }

    /// ``object(with:)`` for the row an identity names: the registered object, or a new fault made
    /// with the identity as it is (a row's identity makes no ID until the object's is asked for).
    func _object(forIdentity identity: ObjectIdentity) -> NSManagedObject {
        if let object = registry[identity] { return object }
        let object = withUnsafePointer(to: identity) { makeObject(at: $0, type: nil) }
        object._isFault = true
        return object
    }

    /// Returns the object for an ID, reading its values from the store when it is not registered or is
    /// a fault.
    ///
    /// Throws `NSManagedObjectReferentialIntegrityError` (133000) when the object does not exist in the
    /// store (it was deleted, or the ID is temporary and names no object of this context).
    public func existingObject(with objectID: NSManagedObjectID) throws -> NSManagedObject {
        _checkQueue("existingObject(with:)")
        if let object = registry[objectID], !object._isFault { return object }
        guard let row = try _coordinatorRow(for: objectID, fresh: false) else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSManagedObjectReferentialIntegrityError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "No object of entity \(objectID.entity.name ?? "?") with ID \(objectID.uriRepresentation().absoluteString) exists in the store.",
                    NSAffectedObjectsErrorKey: [objectID],
                ])
        }
        if let object = registry[objectID] {
            if object._isFault { fulfill(object, from: row) }
            return object
        }
        let object = makeObject(for: objectID)
        fulfill(object, from: row)
        return object
    }

    /// Clears the context reference of every object the context holds and lets go of the objects, as
    /// the context goes away: objects the app still refers to outlive it with no context. (Objects hold
    /// their context without a reference count.) Returns the identities of the objects let go of that
    /// have permanent IDs.
    func _disconnectObjects() -> [ObjectIdentity] {
        var identities: [ObjectIdentity] = []
        _disconnectUnindexedObjects(collectingIdentitiesInto: &identities)
        func disconnect(_ object: NSManagedObject) {
            if object._belongs(to: self) { object._context = nil }
            if let identity = object._permanentIdentity { identities.append(identity) }
        }
        _indexedRegistry.forEachValue(disconnect)
        _indexedRegistry.removeAll()
        for objects in [_inserted, _updated, _deleted, _conflictDetectionObjects] {
            for object in objects.values { disconnect(object) }
        }
        _inserted = ObjectsInChangeOrder()
        _updated = ObjectsInChangeOrder()
        _deleted = ObjectsInChangeOrder()
        _conflictDetectionObjects = ObjectsInChangeOrder()
        return identities
    }

    /// Creates and registers an object of the entity's class (`type` when the caller already looked it
    /// up) for a permanent ID, with no values.
    func makeObject(for objectID: NSManagedObjectID, type: NSManagedObject.Type? = nil) -> NSManagedObject {
        withUnsafePointer(to: ObjectIdentity.id(objectID)) { makeObject(at: $0, type: type) }
    }

    /// ``makeObject(for:type:)`` for the object an identity names, read where the caller keeps it.
    private func makeObject(at identity: UnsafePointer<ObjectIdentity>, type: NSManagedObject.Type?) -> NSManagedObject {
        let type = type ?? ManagedObjectClasses.objectClass(for: identity.pointee.entity)
        // The object starts with the identity and no values: a fault has none until it fires (the row
        // brings them, in the entity's layout).
        let object = FetchedObjectConstruction.make(type, for: identity)
        object._context = self
        registry.updateValue(object, forIdentity: identity.pointee)
        return object
    }

    /// The object registered for a row, filled with the row's values unless it already has its own.
    ///
    /// A new fault keeps the row as its snapshot when `rowGeneration` (the row cache's generation after
    /// the fetch stored the row) is given, and fires from it while the cache keeps that generation.
    func registeredObject(
        for row: StoreRow, asFault: Bool, refresh: Bool, type: NSManagedObject.Type? = nil,
        rowGeneration: UInt64? = nil
    ) -> NSManagedObject {
        if let object = registry[row.identity] {
            if object._isFault {
                if !asFault { fulfill(object, from: row) }
            } else if refresh, !object.hasChanges {
                fulfill(object, from: row)
            }
            return object
        }
        return withUnsafePointer(to: row) { row in
            let object = makeObject(at: StoreRow.identity(of: row), type: type)
            return setUpNewObject(object, at: row, asFault: asFault, rowGeneration: rowGeneration)
        }
    }

    /// ``registeredObject(for:asFault:refresh:type:rowGeneration:)`` for a row of a fetch that began with
    /// no object registered: the new object is registered without a lookup first.
    ///
    /// Should the context have an object for the row's ID after all (the entity class's initializer
    /// fetched it), that object stays registered and is the one returned.
    ///
    /// The row is read where it lies: a copy of it would retain its identity and values, and release them
    /// after.
    func registeredNewObject(
        at row: UnsafePointer<StoreRow>, asFault: Bool, refresh: Bool, type: NSManagedObject.Type,
        rowGeneration: UInt64?
    ) -> NSManagedObject {
        let identity = StoreRow.identity(of: row)
        let object = FetchedObjectConstruction.make(type, for: identity)
        object._context = self
        if let registered = registry.updateValue(object, forIdentity: identity.pointee) {
            registry.updateValue(registered, forIdentity: identity.pointee)
            object._context = nil
            return registeredObject(for: row.pointee, asFault: asFault, refresh: refresh, type: type, rowGeneration: rowGeneration)
        }
        return setUpNewObject(object, at: row, asFault: asFault, rowGeneration: rowGeneration)
    }

    /// A new fault for the row at `row` that keeps the row as its snapshot (see
    /// `setUpNewObject(_:at:asFault:rowGeneration:)`), belonging to the context but not yet registered:
    /// the caller registers it (see `_registerWithoutIndex(_:registryChangesBefore:refresh:)`).
    @inline(__always)
    func unregisteredNewFault(at row: UnsafePointer<StoreRow>, type: NSManagedObject.Type, rowGeneration: UInt64) -> NSManagedObject {
        let object = FetchedObjectConstruction.make(type, for: StoreRow.identity(of: row))
        object._context = self
        return setUpNewObject(object, at: row, asFault: true, rowGeneration: rowGeneration)
    }

    /// Makes a new object a fault of the row at `row` (keeping the row as its snapshot when
    /// `rowGeneration` is given) or fills it from the row.
    @inline(__always)
    private func setUpNewObject(
        _ object: NSManagedObject, at row: UnsafePointer<StoreRow>, asFault: Bool,
        rowGeneration: UInt64?
    ) -> NSManagedObject {
        if asFault {
            object._isFault = true
            if let rowGeneration {
                object.snapshot = row.pointee.values
                object.snapshotVersion = row.pointee.version
                object._rowGeneration = rowGeneration
            }
        } else {
            fulfill(object, from: row.pointee)
        }
        return object
    }

    /// Loads an object's values from a row and calls `awakeFromFetch()`.
    func fulfill(_ object: NSManagedObject, from row: StoreRow) {
        fulfill(object, values: row.values, version: row.version)
    }

    /// Loads an object's values from a row's values and version and calls `awakeFromFetch()`.
    func fulfill(_ object: NSManagedObject, values rowValues: PropertyValues, version: Int64) {
        object.storage = values(ofRow: rowValues, for: object)
        object.snapshot = rowValues
        object.snapshotVersion = version
        _didFulfill(object)
    }

    /// The values an object takes from its row: the row's, with to-one relationships' destination IDs
    /// turned into objects and the object's transient values kept.
    private func values(ofRow rowValues: PropertyValues, for object: NSManagedObject) -> PropertyValues {
        var values = rowValues
        let layout = values.layout
        for index in layout.toOneSlots {
            if let id = values.slots[index].objectID {
                values.slots[index] = .object(self.object(with: id))
            }
        }
        // Transient properties keep their values; persistent ones come from the row.
        if !layout.transientSlots.isEmpty {
            if object.storage.layout === layout {
                values.copySlots(layout.transientSlots, from: object.storage)
            } else {
                for index in layout.transientSlots {
                    values.slots[index] = PropertySlot(canonical: object.storage[layout.names[index]], kind: layout.kinds[index])
                }
            }
        }
        return values
    }

    /// What loading an object's values from its row ends with, its snapshot set: no loaded to-many
    /// contents, no changes, not a fault, `awakeFromFetch()` (unless `awakens` is `false`: the caller
    /// knows the object's class keeps `NSManagedObject`'s, which does nothing).
    @inline(__always)
    private func _didFulfill(_ object: NSManagedObject, awakens: Bool = true) {
        if !_faultFailures.isEmpty { _faultFailures[object._objectID] = nil }
        if !object.toMany.isEmpty { object.toMany = [:] }
        if !object.changedKeys.isEmpty { object.changedKeys.removeAll() }
        if !object.valuesAtLastEvent.isEmpty { object.valuesAtLastEvent.removeAll() }
        object._rowGeneration = 0
        object._isFault = false
        if awakens { object.awakeFromFetch() }
    }

    /// Fires a fault: loads its row from the coordinator's row cache or store.
    func _fulfillFault(_ object: NSManagedObject) {
        if _needsQueryGenerationScope { return _readingQueryGeneration { _fulfillFault(object) } }
        if object._rowGeneration != 0, _fulfillFromFetchedRow(object) { return }
        if _fulfillFromFetchBatch(object) { return }
        object._isFault = false
        let row: StoreRow?
        do {
            // A non-negative staleness interval reads the store itself, so no cached row older than
            // allowed is used (the row cache keeps no ages; a fresh read is never too old).
            row = try _coordinatorRow(for: object._objectID, fresh: stalenessInterval >= 0)
        } catch {
            return _failFault(object, error as NSError)
        }
        guard let row else {
            guard shouldDeleteInaccessibleFaults else {
                return _failFault(object, Self._missingObjectError(object._objectID, nil, nil))
            }
            // The object is gone from the store: it reads as a deleted object with no values.
            object.storage.removeAll()
            object.toMany = [:]
            object._isDeleted = true
            return
        }
        fulfill(object, from: row)
    }

    /// Fires a fault a fetch made from the row it keeps as its snapshot, as `_fulfillFault(_:)` does
    /// first, for an object whose class keeps `NSManagedObject`'s `awakeFromFetch()`; returns whether it
    /// did. Otherwise the object is left for `_fulfillFault(_:)`.
    func _fulfillFaultFromFetchedRow(_ object: NSManagedObject) -> Bool {
        !_needsQueryGenerationScope && _fulfillFromFetchedRow(object, awakens: false)
    }

    /// Fires a fault a fetch made from the row it keeps as its snapshot, when the coordinator's row
    /// cache has not changed since (so the cache would give the same row) and the context reads cached
    /// rows (a non-negative staleness interval reads the store).
    private func _fulfillFromFetchedRow(_ object: NSManagedObject, awakens: Bool = true) -> Bool {
        let generation = object._rowGeneration
        object._rowGeneration = 0
        guard stalenessInterval < 0, _rowCacheIsCurrent(generation) else { return false }
        // The row must be in the layout of the entity as it is in use (a model still being edited has
        // none). Compared by identity, unretained: layouts live as long as the process.
        guard let frozen = object._entity._frozen.map(Unmanaged.passUnretained) else { return false }
        let layout = frozen.withBorrowedReference { Unmanaged.passUnretained($0.slotLayout) }
        guard layout.toOpaque() == Unmanaged.passUnretained(object.snapshot.layout).toOpaque() else { return false }
        // `fulfill(_:values:version:)` without setting the snapshot and version, which already are the
        // row's: the values share the snapshot's slots until one of them changes.
        if layout.withBorrowedReference({ $0.holdsRowValuesAsTheyAre }) {
            // No destination IDs to turn into objects, no transient values to keep.
            object.storage = object.snapshot
        } else {
            object.storage = values(ofRow: object.snapshot, for: object)
        }
        _didFulfill(object, awakens: awakens)
        return true
    }

    /// Whether the coordinator's row cache still has the generation a fetch read its rows at.
    @inline(__always)
    private func _rowCacheIsCurrent(_ generation: UInt64) -> Bool {
        // Unretained: the context keeps its coordinator's cache.
        guard let cache = _coordinatorRowCache.map(Unmanaged.passUnretained) else { return false }
        return cache.withBorrowedReference { $0.isCurrent(generation) }
    }

    /// The row of an object from the coordinator; `nil` without a coordinator or when the row is gone.
    func _coordinatorRow(for objectID: NSManagedObjectID, fresh: Bool) throws -> StoreRow? {
        guard let coordinator = _objectSource, !objectID.isTemporaryID || _links.parent != nil else { return nil }
        return try StoreRequestor.run(self) {
            if fresh { return try coordinator.freshRow(for: objectID) }
            return try coordinator.row(for: objectID)
        }
    }

    /// The row of an object, or `nil` (store errors read as a missing row).
    func _row(for objectID: NSManagedObjectID) -> StoreRow? {
        try? _coordinatorRow(for: objectID, fresh: false)
    }

    /// The destination IDs of a to-many relationship as the store has them; none when the store cannot
    /// read them (the error is kept for a save of the object, see `FaultFailures.swift`).
    func _relatedObjectIDs(for relationship: NSRelationshipDescription, ofID objectID: NSManagedObjectID) -> [NSManagedObjectID] {
        do {
            return try _loadRelatedObjectIDs(for: relationship, ofID: objectID)
        } catch {
            _recordFaultFailure(of: objectID, error as NSError, relationship: relationship)
            return []
        }
    }

    /// The destination IDs of a to-many relationship as the store has them, throwing the store's error;
    /// none for a new object of a context without a parent.
    func _loadRelatedObjectIDs(for relationship: NSRelationshipDescription, ofID objectID: NSManagedObjectID) throws -> [NSManagedObjectID] {
        guard let coordinator = _objectSource, !objectID.isTemporaryID || _links.parent != nil else { return [] }
        return try StoreRequestor.run(self) { try coordinator.relatedObjectIDs(for: relationship, of: objectID) }
    }
}
