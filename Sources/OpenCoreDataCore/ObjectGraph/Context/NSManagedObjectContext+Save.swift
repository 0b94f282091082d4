extension NSManagedObjectContext {
    /// Attempts to commit unsaved changes to the persistent store.
    ///
    /// Pending changes are processed, every inserted, changed and deleted object is validated (all
    /// errors are collected: one is thrown as is, several as `NSValidationMultipleErrorsError` with
    /// `NSDetailedErrorsKey`), objects get `willSave()`, and the coordinator writes everything in one
    /// transaction. Inserted objects then get permanent IDs, and every saved object gets `didSave()`.
    ///
    /// When another writer changed or deleted a row since the context read it, or the save would break
    /// a uniqueness constraint, the context's ``mergePolicy`` resolves the conflicts and the save is
    /// tried again; with `NSErrorMergePolicy` (the default) it fails with `NSManagedObjectMergeError`
    /// (133020) or `NSManagedObjectConstraintMergeError` (133021) listing the conflicts under
    /// `NSPersistentStoreSaveConflictsErrorKey`. A failed save writes nothing and leaves the context's
    /// changes in place.
    public func save() throws {
        _checkQueue("save()")
        try _loadDeletedFaults()
        _propagatePendingDeletes()  // also when propagatesDeletesAtEndOfEvent is false
        processPendingChanges()
        _releaseUnreferencedObjects()
        guard !_inserted.isEmpty || !_updated.isEmpty || !_deleted.isEmpty else { return }
        let coordinator = try requireObjectSource()
        try _throwFaultFailures()
        _postWillSave()
        try validatePendingObjects()
        // Listed once for `willSave()` and, when neither `willSave()` nor the event after it changed
        // them, for the store: listing them again would be one more pass over every object.
        let (inserted, updated, deleted) = (_inserted, _updated, _deleted)
        // The new objects are listed and get `willSave()` in one pass (the list is of `inserted`, which
        // `willSave()` cannot change).
        var listedInserted: [NSManagedObject] = []
        listedInserted.reserveCapacity(inserted.count)
        inserted.forEachAhead { object in
            listedInserted.append(object)
            object.willSave()
        }
        let listed: PendingObjects = (listedInserted, Array(updated.values), Array(deleted.values))
        for object in listed.updated { object.willSave() }
        for object in listed.deleted { object.willSave() }
        _recomputeDerivedAttributes()
        try _validateDerivedAttributes()
        processPendingChanges()
        let unchanged =
            _inserted.isUnchanged(since: inserted) && _updated.isUnchanged(since: updated)
            && _deleted.isUnchanged(since: deleted)

        // An incremental store is handed its new objects with the permanent IDs it gave them.
        try _obtainPermanentIDsForIncrementalStores(coordinator)
        let (result, saved) = try StoreRequestor.run(self) {
            try _writeResolvingConflicts(coordinator, firstPending: unchanged ? listed : nil) {
                var changes = try self.storeChanges(inserted: $0, updated: $1, deleted: $2, coordinator: coordinator)
                if coordinator is ParentContextSource { changes.transientValues = self._transientValuesForParent(inserted: $0, updated: $1) }
                return changes
            }
        }
        // Asked before adopting, which empties the inserted objects.
        let insertedSet = _reportedInsertedSet()
        // The did-save notification's IDs of the new objects: the IDs the save gave them, which adopting
        // makes theirs, whatever `didSave()` does next. For a large save they are hashed into a set on
        // another thread meanwhile, from the last: adopting goes from the first, and the two threads
        // change the IDs' reference counts.
        let ids = result.insertedIDs
        let offloaded = ids.count >= Self._offloadedIDSetMinimum ? OffloadedComputation { Set(ids.reversed()) } : nil
        adopt(result, inserted: saved.inserted, updated: saved.updated, deleted: saved.deleted)
        if !result.derivedValues.isEmpty { _adoptStoreDerivedValues(result.derivedValues) }
        _postDidSave(
            inserted: saved.inserted, updated: saved.updated, deleted: saved.deleted, insertedSet: insertedSet,
            insertedIDs: offloaded?.result() ?? Set(ids))
    }

    /// The number of new objects from which a save hashes their IDs on another thread: below it, handing
    /// the work over costs about what it saves.
    static var _offloadedIDSetMinimum: Int { 2048 }

    /// Validates every object the save would write; throws the collected errors.
    private func validatePendingObjects() throws {
        var errors: [NSError] = []
        func collect(_ check: () throws -> Void) {
            do {
                try check()
            } catch let error as NSError {
                NSManagedObject.collectValidationError(error, into: &errors)
            }
        }
        _inserted.forEachAhead(parts: .values) { object in collect { try object.validateForInsert() } }
        for object in _updated.values { collect { try object.validateForUpdate() } }
        for object in _deleted.values { collect { try object.validateForDelete() } }
        try NSManagedObject.throwValidationErrors(errors)
    }

    /// The changes handed to the coordinator.
    private func storeChanges(
        inserted: [NSManagedObject], updated: [NSManagedObject], deleted: [NSManagedObject],
        coordinator: any ContextObjectSource
    ) throws -> StoreSaveChanges {
        var changes = StoreSaveChanges()
        changes.inserted.reserveCapacity(inserted.count)
        // Each object is read in place, unretained: `inserted` keeps it, and the object its entity, for
        // the whole pass.
        try ObjectPassPrefetch.forEach(in: inserted, parts: [.objectID, .values]) { _, object in
            if object._entity._writeTraits.storesOnlyPersistentAttributes {
                // Every current value is a persistent attribute's value: the row is the storage itself.
                changes.inserted.append(.init(objectID: object._objectID, values: object.storage, toMany: [:]))
                return
            }
            var values = PropertyValues(layout: object.storage.layout)
            var toMany: [String: [NSManagedObjectID]] = [:]
            for property in object.entity.propertiesByName.values where !property.isTransient {
                if let relationship = property as? NSRelationshipDescription {
                    if relationship.isToMany {
                        // Only relationships set on the new object: the other side may hold the link.
                        guard object.changedKeys.contains(relationship.name) else { continue }
                        toMany[relationship.name] = try destinationIDs(object.toMany[relationship.name] ?? [], of: object, relationship)
                    } else if let destination = object.storage[relationship.name] as? NSManagedObject {
                        values[relationship.name] = try destinationIDs([destination], of: object, relationship)[0]
                    }
                } else if property is NSAttributeDescription {
                    if let index = object.storage.index(of: property.name) {
                        values.slots[index] = object.storage.slots[index]
                    } else if let value = object.storage[property.name] {
                        values[property.name] = value
                    }
                }
            }
            changes.inserted.append(.init(objectID: object.objectID, values: values, toMany: toMany))
        }
        for object in updated {
            var changed: [String: Any?] = [:]
            var toMany: [String: [NSManagedObjectID]] = [:]
            for key in object.changedKeys {
                guard let property = object.entity.propertiesByName[key], !property.isTransient else { continue }
                let current = object.currentValueForSnapshot(key)
                if let relationship = property as? NSRelationshipDescription {
                    if relationship.isToMany {
                        let ids = try destinationIDs(object.toMany[key] ?? [], of: object, relationship)
                        let committed = object.snapshot[key] as? [NSManagedObjectID]
                        if committed != ids { toMany[key] = ids }
                    } else if !PropertyValueEquality.equal(current, object.snapshot[key]) {
                        let destination = object.storage[key] as? NSManagedObject
                        let id = try destination.map { try destinationIDs([$0], of: object, relationship)[0] }
                        changed.updateValue(id, forKey: key)
                    }
                } else if !PropertyValueEquality.equal(current, object.snapshot[key]) {
                    changed.updateValue(current, forKey: key)
                }
            }
            if changed.isEmpty && toMany.isEmpty { continue }
            changes.updated.append(
                .init(
                    objectID: object.objectID, expectedVersion: try version(of: object, coordinator),
                    changedValues: changed, toMany: toMany))
        }
        for object in deleted where !object.isNewlyInserted {
            changes.deleted.append(.init(objectID: object.objectID, expectedVersion: try version(of: object, coordinator)))
        }
        return changes
    }

    /// The IDs of destination objects; throws for a destination outside the context (a dangling reference).
    private func destinationIDs(
        _ objects: [NSManagedObject], of object: NSManagedObject,
        _ relationship: NSRelationshipDescription
    ) throws -> [NSManagedObjectID] {
        try objects.map { destination in
            guard destination._context === self else {
                throw object.validationError(
                    NSManagedObjectValidationError, key: relationship.name, value: destination,
                    "Dangling reference to an invalid object: \(relationship.name) refers to an object of entity \(destination.entity.name ?? "?") that is not in the context."
                )
            }
            return destination.objectID
        }
    }

    /// The row version the context read for an object (read from the row cache for a fault).
    func version(of object: NSManagedObject, _ coordinator: any ContextObjectSource) throws -> Int64 {
        // A fault's snapshot (a fetched fault keeps its row) may be older than the cache's row.
        if object.snapshotVersion > 0, !object._isFault { return object.snapshotVersion }
        return try coordinator.row(for: object.objectID)?.version ?? 0
    }

    /// After a successful save: permanent IDs, fresh snapshots, `didSave()`.
    private func adopt(
        _ result: StoreSaveResult, inserted: [NSManagedObject], updated: [NSManagedObject],
        deleted: [NSManagedObject]
    ) {
        // One pass over the new objects while each is at hand: its permanent ID, then its snapshot when
        // that is its values as they are. Snapshots holding relationship IDs wait until every new
        // object has its permanent ID.
        var needingIDs: [NSManagedObject] = []
        // `result.insertedIDs` follows the order of the inserts, which is the order of `inserted`.
        assert(result.insertedIDs.count == inserted.count, "a save result out of step with its inserts")
        // When the registry holds as many temporary IDs as there are new objects, they are normally
        // the new objects' own (the usual save): the temporary part of the registry is taken out at
        // once instead of finding each entry, and what does not turn out so is given back after the
        // pass. Checking first would cost a pass over the new objects of its own.
        var takes = false
        if let first = inserted.first, registry.temporaryCount == inserted.count {
            // A child's save into its parent keeps every ID: the first object tells.
            takes = first._objectID.isTemporaryID && result.insertedIDs[0] !== first._objectID
        }
        let taken = takes ? registry.takeTemporary() : nil
        var retiresEveryTemporaryID = true
        // Asked once for the save: children are the only ones to tell of retired temporary IDs.
        let tellsChildren = _links.hasHadChildren
        // Unretained: `inserted` and the result keep every object and ID for the whole pass.
        ObjectPassPrefetch.forEach(in: inserted, parts: [.objectID, .values]) { index, object in
            ObjectPassPrefetch.prefetch(result.insertedIDs, aheadOf: index)
            let retired = Unmanaged.passUnretained(result.insertedIDs[index]).withBorrowedReference { id in
                adoptSavedID(id, of: object, oldIDTaken: taken != nil, tellingChildren: tellsChildren)
            }
            if !retired { retiresEveryTemporaryID = false }
            if !settleSnapshotOfStoredValues(object, result) { needingIDs.append(object) }
        }
        if let taken, !retiresEveryTemporaryID {
            // Entries of objects that kept their temporary ID go back.
            registry.restoreTemporary(taken) { id, object in object._objectID === id }
        }
        for object in updated where !settleSnapshotOfStoredValues(object, result) {
            needingIDs.append(object)
        }
        for object in needingIDs {
            if object.snapshot.layout !== object.storage.layout {
                // A new object's snapshot starts empty: give it the layout of the object's values.
                object.snapshot = PropertyValues(layout: object.storage.layout, object.snapshot.dictionary)
            }
            for property in object.entity._allProperties where !property.isTransient {
                if let relationship = property as? NSRelationshipDescription, relationship.isToMany {
                    if let objects = object.toMany[property.name] {
                        object.snapshot[property.name] = objects.map(\.objectID)
                    }
                } else {
                    object.snapshot[property.name] = object.currentValueForSnapshot(property.name)
                }
            }
            markSaved(object, result)
        }
        for object in deleted {
            unregister(object)
            object._isDeleted = false
        }
        _inserted = [:]
        _updated = [:]
        _deleted = [:]
        ObjectPassPrefetch.forEach(in: inserted, parts: []) { _, object in object.didSave() }
        for object in updated { object.didSave() }
        for object in deleted { object.didSave() }
    }

    /// Gives a saved new object the ID the store gave its row; returns whether that retired the object's
    /// temporary ID. `oldIDTaken`: the caller took the registry's temporary entries out beforehand.
    @inline(__always)
    private func adoptSavedID(
        _ id: NSManagedObjectID, of object: NSManagedObject, oldIDTaken: Bool,
        tellingChildren: Bool
    ) -> Bool {
        // Unretained: the object keeps its old ID until `changeID` replaces it, which is its last use.
        let oldID = Unmanaged.passUnretained(object._objectID)
        guard id !== oldID.takeUnretainedValue() else { return false }
        if oldID.withBorrowedReference({ $0.isTemporaryID }) {
            changeID(of: object, to: id, registeredByOldID: !oldIDTaken, tellingChildren: tellingChildren)
            return true
        }
        changeID(of: object, to: id, tellingChildren: tellingChildren)
        return false
    }

    /// Makes a saved object's snapshot its current values when its entity stores nothing else (no
    /// relationships, no transient properties); returns `false`, changing nothing, otherwise.
    private func settleSnapshotOfStoredValues(_ object: NSManagedObject, _ result: StoreSaveResult) -> Bool {
        guard object._entity._writeTraits.storesOnlyPersistentAttributes else { return false }
        object.snapshot = object.storage
        markSaved(object, result)
        return true
    }

    /// A saved object's version (the one `result` gives its row, else the one it has) and change
    /// bookkeeping once its snapshot holds what was written.
    private func markSaved(_ object: NSManagedObject, _ result: StoreSaveResult) {
        let version = object.isNewlyInserted ? result.version(ofInserted: object._objectID) : result.versions[object._objectID]
        object.snapshotVersion = version ?? object.snapshotVersion
        object.changedKeys.removeAll()
        object.valuesAtLastEvent.removeAll()
        object.isNewlyInserted = false
    }

    /// Gives a registered object a new ID; `registeredByOldID` is `false` when the caller already took
    /// the old ID out of the registry, `tellingChildren` when the caller knows the context never had
    /// children (which would need to hear of a retired temporary ID).
    func changeID(
        of object: NSManagedObject, to newID: NSManagedObjectID, registeredByOldID: Bool = true,
        tellingChildren: Bool = true
    ) {
        if registeredByOldID, let removed = registry.removeValue(forKey: object._objectID), removed !== object {
            registry[object._objectID] = removed
        }
        if tellingChildren { _retireTemporaryID(object._objectID, for: newID) }
        object._objectID = newID
        // Called directly: the subscript's setter takes the object once more to wrap it in an optional.
        registry.updateValue(object, forKey: newID)
    }
}
