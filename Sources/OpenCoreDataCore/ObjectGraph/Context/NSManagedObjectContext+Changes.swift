extension NSManagedObjectContext {
    /// Registers an object to be inserted into the store when the context saves.
    ///
    /// Inserting an object calls its `awakeFromInsert()`. Inserting an object that belongs to another
    /// context stops the program.
    public func insert(_ object: NSManagedObject) {
        _checkQueue("insert(_:)")
        if let owner = object._context, owner !== self {
            preconditionFailure("An NSManagedObject of entity \(object.entity.name ?? "?") may not be inserted into a second context.")
        }
        let key = ObjectIdentifier(object)
        if object._context === self {
            // Inserting an object deleted before its first save puts it back.
            if object._isDeleted, _deleted[key] != nil, object.isNewlyInserted {
                _registerUndoOfMembership(object)
                _deleted[key] = nil
                object._isDeleted = false
                _inserted[key] = object
            }
            return
        }
        _registerUndoOfMembership(object)
        object._context = self
        // The object had no context, so neither the registry nor the inserted objects hold it: both
        // take it without a lookup.
        registry.appendNew(object, forNewKey: object._objectID)
        _inserted.appendNew(object)
        // Changed before it had a context: its changes belong to this context's next event.
        if !object.valuesAtLastEvent.isEmpty { _noteChangedForEvent(object) }
        object.isNewlyInserted = true
        object._insertedInCurrentEvent = true
        if concurrencyType == .mainQueueConcurrencyType, !_endOfTurnProcessingScheduled { _scheduleEndOfTurnProcessing() }
        object.awakeFromInsert()
    }

    /// Marks an object to be deleted from the store when the context saves. An object inserted and not
    /// yet saved is simply removed from the context.
    ///
    /// Each call sends the object ``NSManagedObject/prepareForDeletion()`` — deleting it again sends it
    /// again — and ``NSManagedObject/isDeleted`` is `true` from then on; the delete rules apply at the
    /// end of the event (``processPendingChanges()``).
    public func delete(_ object: NSManagedObject) {
        _checkQueue("delete(_:)")
        guard object._context === self else {
            if object._context == nil { return }
            preconditionFailure("An NSManagedObject of entity \(object.entity.name ?? "?") may not be deleted by a context it does not belong to.")
        }
        let key = ObjectIdentifier(object)
        // As Apple's Core Data does, every call tells the object, even one already deleted; a fault
        // is fired first, so that the object can read its values.
        object._fireFaultIfNeeded()
        object.prepareForDeletion()
        if object._isDeleted { return }
        if concurrencyType == .mainQueueConcurrencyType, !_endOfTurnProcessingScheduled { _scheduleEndOfTurnProcessing() }
        _registerUndoOfMembership(object)
        object._isDeleted = true
        if _inserted[key] != nil {
            _inserted[key] = nil
            _deleted[key] = object
            return
        }
        _updated[key] = nil
        _deleted[key] = object
    }

    /// A Boolean value that indicates whether the context has unsaved inserts, changes or deletes.
    public var hasChanges: Bool {
        !_inserted.isEmpty || !_deleted.isEmpty || _updated.values.contains { $0.hasPersistentChangedValuesOrTransient }
    }

    /// The objects inserted into the context and not yet saved.
    public var insertedObjects: Set<NSManagedObject> {
        Set(_inserted.values)
    }

    /// The registered objects changed and not yet saved.
    public var updatedObjects: Set<NSManagedObject> {
        Set(_updated.values)
    }

    /// The objects that will be deleted from the store when the context saves.
    public var deletedObjects: Set<NSManagedObject> {
        Set(_deleted.values.filter { !$0.isNewlyInserted })
    }

    /// Every object registered with the context: fetched, faulted, inserted, changed or deleted.
    public var registeredObjects: Set<NSManagedObject> {
        Set(registry.values)
    }

    /// Returns the object registered with the context for an ID, or `nil`.
    public func registeredObject(for objectID: NSManagedObjectID) -> NSManagedObject? {
        registry[objectID]
    }

    /// Ends the current event: deleted objects get `prepareForDeletion()` and their relationships' delete
    /// rules are applied, objects inserted and deleted before being saved are dropped, each object's
    /// changes for the current event are cleared, and the undo group of the event is closed.
    public func processPendingChanges() {
        if _propagatesDeletesAtEndOfEvent { _propagatePendingDeletes() }
        for (key, object) in _deleted where object.isNewlyInserted && object.preparedForDeletion {
            _deleted[key] = nil
            unregister(object)
        }
        let changes = _collectObjectsDidChange()
        // Only objects changed in this event have values to forget.
        for object in _changeEvents.changed.values {
            object.valuesAtLastEvent.removeAll()
        }
        _changeEvents.changed = [:]
        _undoManager?.endEventGroupIfOpen()
        _postObjectsDidChange(changes)
    }

    /// Called by an object when one of its properties changed.
    ///
    /// Inlined into every change: an object inserted in this event (every change of a new object before
    /// the next `processPendingChanges()`) pays one test.
    @inline(__always)
    func _objectDidChange(_ object: NSManagedObject) {
        // Inserted in this event: still among the inserted (or, deleted since, the deleted) objects.
        if object._insertedInCurrentEvent { return }
        _noteChangedObject(object)
    }

    @inline(never)
    private func _noteChangedObject(_ object: NSManagedObject) {
        if concurrencyType == .mainQueueConcurrencyType, !_endOfTurnProcessingScheduled { _scheduleEndOfTurnProcessing() }
        let key = ObjectIdentifier(object)
        if _inserted[key] != nil || _deleted[key] != nil { return }
        _updated[key] = object
    }

    /// A main-queue context changed on the main queue announces the change at the end of the main
    /// queue's current turn, as Apple's Core Data does at the end of the run loop's turn: the main
    /// queue runs ``processPendingChanges()`` once everything queued before it has run.
    @inline(never)
    func _scheduleEndOfTurnProcessing() {
        guard isOnContextQueue else { return }
        _endOfTurnProcessingScheduled = true
        let context = QueueWork(self)
        DispatchQueue.main.async {
            context.value._endOfTurnProcessingScheduled = false
            context.value.processPendingChanges()
        }
    }

    /// Removes an object from the context: it no longer has a context.
    func unregister(_ object: NSManagedObject) {
        if registry[object._objectID] === object {
            registry[object._objectID] = nil
        }
        let key = ObjectIdentifier(object)
        _inserted[key] = nil
        _updated[key] = nil
        _deleted[key] = nil
        object._context = nil
    }
}

extension NSManagedObject {
    /// Whether the object has a change the context must save (persistent or transient).
    var hasPersistentChangedValuesOrTransient: Bool {
        !changedKeys.isEmpty
    }

}
