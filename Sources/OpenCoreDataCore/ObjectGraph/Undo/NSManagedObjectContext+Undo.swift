extension NSManagedObjectContext {
    /// The undo manager that records the context's changes; `nil` unless set (as on iOS).
    ///
    /// With an undo manager, the context records every insert, delete, attribute change and
    /// relationship change — including the changes made to inverse relationships and by delete
    /// rules — so that ``undo()`` restores the object graph exactly. Each event of the context (the
    /// changes made up to the next ``processPendingChanges()``, which ``save()`` also runs) forms one
    /// undo group when the undo manager's `groupsByEvent` is `true`. Saving keeps the undo stack:
    /// undoing a saved change makes it an unsaved change again. ``rollback()`` and ``reset()`` clear it.
    public var undoManager: UndoManager? {
        get { _undoManager }
        set {
            _undoManager?.endEventGroupIfOpen()
            _undoManager = newValue
        }
    }

    /// Undoes the latest group of changes recorded by the context's undo manager (after processing
    /// pending changes, so the current event is one group). Does nothing without an undo manager.
    public func undo() {
        guard let undoManager = _undoManager else { return }
        processPendingChanges()
        _deliveringSnapshotEvents {
            undoManager.undo()
            processPendingChanges()
        }
    }

    /// Redoes the latest group of changes undone with ``undo()``. Does nothing without an undo manager.
    public func redo() {
        guard let undoManager = _undoManager else { return }
        processPendingChanges()
        _deliveringSnapshotEvents {
            undoManager.redo()
            processPendingChanges()
        }
    }

    // MARK: Recording property changes

    /// Records the current value of a property about to change, so that undo puts it back.
    ///
    /// Inlined into every change: a context without an undo manager (the default) pays one test.
    @inline(__always)
    func _registerUndoOfChange(of object: NSManagedObject, key: String) {
        if _undoManager != nil { _registerUndoOfChangeWithManager(of: object, key: key) }
    }

    @inline(never)
    private func _registerUndoOfChangeWithManager(of object: NSManagedObject, key: String) {
        guard let undoManager = _undoManager, undoManager.isUndoRegistrationEnabled else { return }
        let relationship = object.entity.relationshipsByName[key]
        if let relationship, relationship.isToMany {
            let old = object.toMany[key]
            undoManager.registerUndo(withTarget: self) { context in
                context.restoreToMany(old ?? [], of: object, relationship: relationship)
            }
        } else {
            let old = object.storage[key]
            undoManager.registerUndo(withTarget: self) { context in
                context.restoreValue(old, forKey: key, of: object)
            }
        }
    }

    private func restoreToMany(_ objects: [NSManagedObject], of object: NSManagedObject, relationship: NSRelationshipDescription) {
        guard isRestorable(object, key: relationship.name) else { return }
        object.willChangeValue(forKey: relationship.name)
        object.setToMany(objects, for: relationship)
        object.didChangeValue(forKey: relationship.name)
        forgetChangeIfCommitted(object, key: relationship.name)
        _noteSnapshotEvent(.undoUpdate, for: object)
    }

    private func restoreValue(_ value: Any?, forKey key: String, of object: NSManagedObject) {
        guard isRestorable(object, key: key) else { return }
        object.willChangeValue(forKey: key)
        object.recordChange(forKey: key)
        object.storage[key] = value
        _objectDidChange(object)
        object.didChangeValue(forKey: key)
        forgetChangeIfCommitted(object, key: key)
        _noteSnapshotEvent(.undoUpdate, for: object)
    }

    /// Whether undo may put back a value of the object: it belongs to the context, or left it by a
    /// saved delete or an insert dropped before saving (the undo of that move comes next). For such a
    /// detached object, the redo operation is registered here, as the object cannot reach the context.
    private func isRestorable(_ object: NSManagedObject, key: String) -> Bool {
        if object._context === self { return true }
        guard object._context == nil else { return false }
        _registerUndoOfChange(of: object, key: key)
        return true
    }

    /// After an undo put back a saved object's stored value, the property no longer counts as changed
    /// (and an object with no change left is no longer updated).
    private func forgetChangeIfCommitted(_ object: NSManagedObject, key: String) {
        guard !object.isNewlyInserted, !object._isFault, object.entity.propertiesByName[key]?.isTransient == false else { return }
        let current = object.currentValueForSnapshot(key)
        let committed = object.snapshot[key]
        if object.entity.relationshipsByName[key]?.isOrdered == true {
            // Order matters: the same objects in another order are a change.
            guard let current = current as? [NSManagedObjectID], current == (committed as? [NSManagedObjectID] ?? []) else { return }
        } else {
            guard PropertyValueEquality.equal(current, committed) else { return }
        }
        object.changedKeys.remove(key)
        if object.changedKeys.isEmpty { _updated[ObjectIdentifier(object)] = nil }
    }

    // MARK: Recording inserts and deletes

    /// Where an object stands in the context.
    enum ObjectMembership {
        /// Not in the context (never inserted, or inserted and removed before being saved).
        case absent
        /// Inserted and not yet saved.
        case inserted
        /// Saved and registered (changed or not).
        case registered
        /// Marked for deletion.
        case deleted
    }

    func membership(of object: NSManagedObject) -> ObjectMembership {
        if object._context !== self { return .absent }
        if object._isDeleted { return .deleted }
        return object.isNewlyInserted ? .inserted : .registered
    }

    /// Records where an object stands before it is inserted or deleted, so that undo puts it back.
    func _registerUndoOfMembership(_ object: NSManagedObject) {
        guard let undoManager = _undoManager, undoManager.isUndoRegistrationEnabled else { return }
        let before = membership(of: object)
        undoManager.registerUndo(withTarget: self) { context in
            context.setMembership(of: object, to: before)
        }
    }

    /// Puts an object back where it stood (recording the opposite move for redo). A saved object
    /// cannot become absent: it is deleted instead; and it cannot become inserted again: it is
    /// registered. A deleted object whose delete was saved is inserted again with its values.
    private func setMembership(of object: NSManagedObject, to state: ObjectMembership) {
        if let owner = object._context, owner !== self { return }
        _registerUndoOfMembership(object)
        _noteSnapshotEvent(SnapshotEvents.membershipEvent(from: membership(of: object), to: state, isNew: object.isNewlyInserted), for: object)
        let key = ObjectIdentifier(object)
        switch state {
        case .absent where object.isNewlyInserted:
            _inserted[key] = nil
            _updated[key] = nil
            _deleted[key] = nil
            if registry[object._objectID] === object { registry[object._objectID] = nil }
            object._context = nil
            object._isDeleted = false
            object.preparedForDeletion = false
        case .absent, .deleted:
            register(object)
            object._isDeleted = true
            // The delete rules' effects were recorded with the delete and come back with it.
            object.preparedForDeletion = true
            _inserted[key] = nil
            _updated[key] = nil
            _deleted[key] = object
        case .inserted, .registered:
            let deleteWasSaved = object._context == nil && !object.isNewlyInserted
            register(object)
            object._isDeleted = false
            object.preparedForDeletion = false
            _deleted[key] = nil
            if deleteWasSaved {
                object.isNewlyInserted = true
                object.changedKeys.formUnion(object.toMany.keys)
            }
            if object.isNewlyInserted {
                _inserted[key] = object
            } else if !object.changedKeys.isEmpty {
                _updated[key] = object
            }
        }
    }

    private func register(_ object: NSManagedObject) {
        object._context = self
        registry[object._objectID] = object
    }
}
