extension NSManagedObjectContext {
    /// Updates an object with the latest values from the store.
    ///
    /// With `mergeChanges` `false`, or when the object has no unsaved changes, the object turns into a
    /// fault: its values (and any unsaved changes) are dropped and read again on next access. With
    /// `mergeChanges` `true` and unsaved changes, the store's current values are read and the object's
    /// changes are applied on top of them. Objects inserted and not yet saved are left as they are.
    public func refresh(_ object: NSManagedObject, mergeChanges flag: Bool) {
        guard object._context === self, !object.isNewlyInserted else { return }
        if flag, !object._isFault, !object.changedKeys.isEmpty {
            mergeStoreValues(into: object)
            object.awake(fromSnapshotEvents: .refresh)
            return
        }
        guard !object._isFault else { return }
        _turnIntoFault(object, keepingTransients: flag) {
            _updated[ObjectIdentifier(object)] = nil
            _noteRefreshed(object)
        }
    }

    /// Drops an object's values so that it reads them again on next access, calling its
    /// `willTurnIntoFault()` and `didTurnIntoFault()` around the change; `whileFaulted` runs just before
    /// `didTurnIntoFault()`.
    func _turnIntoFault(_ object: NSManagedObject, keepingTransients: Bool, whileFaulted: () -> Void = {}) {
        object.willTurnIntoFault()
        var values = PropertyValues(layout: object.storage.layout)
        if keepingTransients { values.copySlots(values.layout.transientSlots, from: object.storage) }
        object.storage = values
        object.toMany = [:]
        object.fetchedPropertyValues = [:]
        object.snapshot = .none
        object.snapshotVersion = 0
        object._rowGeneration = 0
        object.changedKeys.removeAll()
        object.valuesAtLastEvent.removeAll()
        object._isFault = true
        whileFaulted()
        object.didTurnIntoFault()
    }

    /// Refreshes every registered object: unchanged objects turn into faults, changed objects keep their
    /// changes on top of the store's current values.
    public func refreshAllObjects() {
        _advanceQueryGeneration()
        for object in registry.values {
            refresh(object, mergeChanges: true)
        }
    }

    /// Discards every unsaved change: inserted objects leave the context, deleted objects come back,
    /// and changed objects get their last saved values again.
    public func rollback() {
        processPendingChanges()
        for object in _inserted.values { unregister(object) }
        let restored = Array(_deleted.values) + Array(_updated.values)
        for object in restored {
            object._isDeleted = false
            object.preparedForDeletion = false
            restoreCommittedValues(of: object)
        }
        _inserted = [:]
        _updated = [:]
        _deleted = [:]
        _undoManager?.removeAllActions()
        for object in restored { object.awake(fromSnapshotEvents: .rollback) }
    }

    /// Forgets every registered object: they no longer belong to the context, and unsaved changes are lost.
    /// A context pinned to a query generation moves to the newest one.
    public func reset() {
        // Once the objects are let go of (after the notification), the coordinator's cached rows of those
        // nothing else holds go too.
        _forgetUnheldRows(of: _resetObjects())
    }

    /// `reset()`'s work, but for the rows: returns the identities of the objects let go of that have
    /// permanent IDs.
    private func _resetObjects() -> [ObjectIdentity] {
        _advanceQueryGeneration()
        let invalidated = registeredObjects.union(_inserted.values)
        defer { _postInvalidatedAll(invalidated) }
        var identities: [ObjectIdentity] = []
        for object in registry.values {
            object._context = nil
            if let identity = object._permanentIdentity { identities.append(identity) }
        }
        for object in _inserted.values {
            object._context = nil
        }
        registry.removeAll()
        _inserted = [:]
        _updated = [:]
        _deleted = [:]
        _faultFailures = [:]
        _undoManager?.removeAllActions()
        return identities
    }

    /// Gives the objects permanent IDs now, before they are saved.
    ///
    /// Objects that already have permanent IDs keep them. A permanent ID names the store the object will
    /// be saved in: the one given to ``assign(_:to:)``, otherwise the first store that holds the entity.
    /// Throws when the coordinator has no store for an object's entity, or when an assigned store cannot
    /// take it.
    public func obtainPermanentIDs(for objects: [NSManagedObject]) throws {
        let temporary = objects.filter { $0._objectID.isTemporaryID }
        guard !temporary.isEmpty else { return }
        let coordinator = try requireObjectSource()
        let ids = temporary.map(\._objectID)
        let permanent = try StoreRequestor.run(self) {
            try coordinator.obtainPermanentIDs(for: ids, assignedStores: _assignedStores(for: ids))
        }
        for object in temporary {
            if let newID = permanent[object._objectID] { changeID(of: object, to: newID) }
        }
    }

    /// Reads the store's current row and applies the object's unsaved changes on top of it.
    private func mergeStoreValues(into object: NSManagedObject) {
        let keys = object.changedKeys
        let changedStorage = object.storage.filter { keys.contains($0.key) }
        let changedToMany = object.toMany.filter { keys.contains($0.key) }
        let removed = keys.filter { object.storage[$0] == nil && object.entity.relationshipsByName[$0]?.isToMany != true }
        guard let row = try? _coordinatorRow(for: object._objectID, fresh: true) else { return }
        fulfill(object, from: row)
        for (key, value) in changedStorage { object.storage[key] = value }
        for key in removed { object.storage[key] = nil }
        for (key, objects) in changedToMany {
            if let relationship = object.entity.relationshipsByName[key] { _ = object.loadedToMany(relationship) }
            object.toMany[key] = objects
        }
        object.changedKeys = keys
    }

    /// Puts back the values an object had when it was last fetched or saved.
    private func restoreCommittedValues(of object: NSManagedObject) {
        guard !object._isFault else { return }
        var values = PropertyValues(layout: object.storage.layout)
        for (key, value) in object.snapshot {
            guard let relationship = object.entity.relationshipsByName[key] else {
                values[key] = value
                continue
            }
            if !relationship.isToMany, let id = value as? NSManagedObjectID { values[key] = self.object(with: id) }
        }
        for (key, value) in object.storage where object.entity.propertiesByName[key]?.isTransient == true {
            values[key] = value
        }
        object.storage = values
        object.toMany = [:]
        object.changedKeys.removeAll()
        object.valuesAtLastEvent.removeAll()
    }
}
