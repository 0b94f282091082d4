extension NSManagedObject {
    /// Initializes a managed object of the entity whose class is this class, and inserts it into `context`.
    ///
    /// The entity is the one of the context's model whose `managedObjectClassName` names the class.
    public convenience init(context: NSManagedObjectContext) {
        self.init(entity: context._entity(for: Self.self), insertInto: context)
    }

    /// A Boolean value that indicates whether the object has been inserted into its context and not yet saved.
    public var isInserted: Bool {
        guard let context = _context else { return false }
        return context._inserted[ObjectIdentifier(self)] != nil
    }

    /// A Boolean value that indicates whether the object has unsaved changes.
    public var isUpdated: Bool {
        guard let context = _context else { return false }
        return context._updated[ObjectIdentifier(self)] != nil
    }

    /// A Boolean value that indicates whether the object will be deleted when its context saves.
    public var isDeleted: Bool {
        _isDeleted
    }

    /// A Boolean value that indicates whether the object is a fault: its values have not been loaded.
    public var isFault: Bool {
        _isFault
    }

    /// A Boolean value that indicates whether the object has been inserted, deleted or changed and not
    /// yet saved.
    public var hasChanges: Bool {
        isInserted || isUpdated || isDeleted
    }

    /// A Boolean value that indicates whether a persistent property's current value differs from the
    /// value last read from or written to the store.
    public var hasPersistentChangedValues: Bool {
        !changedValues().isEmpty
    }

    /// Returns the persistent properties whose values changed since the object was last fetched or
    /// saved, with their new values (`NSNull` for `nil`).
    public func changedValues() -> [String: Any] {
        var result: [String: Any] = [:]
        let inserted = isInserted
        for key in changedKeys.union(inserted ? Set(storage.keys).union(toMany.keys) : []) {
            guard let property = _entity.propertiesByName[key], !property.isTransient else { continue }
            let current = currentValueForSnapshot(key)
            if !inserted, PropertyValueEquality.equal(current, snapshot[key]) { continue }
            if inserted, current == nil || (current as? [NSManagedObjectID])?.isEmpty == true { continue }
            result[key] = currentValue(forKey: key) ?? NSNull()
        }
        return result
    }

    /// Returns the persistent properties changed since the context last processed pending changes,
    /// with the values they had then (`NSNull` for `nil`).
    public func changedValuesForCurrentEvent() -> [String: Any] {
        var result: [String: Any] = [:]
        var recorded: Set<String> = []
        for (key, slot) in valuesAtLastEvent {
            if _insertedInCurrentEvent { recorded.insert(key) }
            guard let property = _entity.propertiesByName[key], !property.isTransient else { continue }
            let old = slot.boxed
            if PropertyValueEquality.equal(old, currentValueForSnapshot(key)) { continue }
            result[key] = valueFromSnapshotForm(old, forKey: key) ?? NSNull()
        }
        if _insertedInCurrentEvent {
            // Inserted in this event: the other changed properties started from their default values.
            let defaults = EntityDefaultValues.values(for: _entity)
            for key in changedKeys where !recorded.contains(key) {
                guard let property = _entity.propertiesByName[key], !property.isTransient else { continue }
                let old = defaults[key]
                if PropertyValueEquality.equal(old, currentValueForSnapshot(key)) { continue }
                result[key] = old ?? NSNull()
            }
        }
        return result
    }

    /// Returns the values of the given properties (every property when `keys` is `nil`) as they were
    /// when the object was last fetched or saved (`NSNull` for `nil`).
    public func committedValues(forKeys keys: [String]?) -> [String: Any] {
        var result: [String: Any] = [:]
        let names = keys ?? _entity._allProperties.filter { !$0.isTransient }.map(\.name)
        let committed = committedSnapshot()
        for key in names {
            guard let relationship = _entity.relationshipsByName[key], relationship.isToMany else {
                result[key] = valueFromSnapshotForm(committed[key], forKey: key) ?? NSNull()
                continue
            }
            var ids = committed[key] as? [NSManagedObjectID]
            if ids == nil, let context = _context, !_objectID.isTemporaryID {
                ids = context._relatedObjectIDs(for: relationship, ofID: _objectID)
            }
            result[key] = valueFromSnapshotForm(ids ?? [], forKey: key) ?? NSNull()
        }
        return result
    }

    /// Returns a Boolean value that indicates whether the relationship's destination has not been
    /// loaded: an unloaded to-many relationship, or a to-one relationship whose destination is a fault.
    public func hasFault(forRelationshipNamed key: String) -> Bool {
        guard let relationship = _entity.relationshipsByName[key] else {
            preconditionFailure("The entity \(_entity.name ?? "?") has no relationship named \"\(key)\".")
        }
        if _isFault { return true }
        if relationship.isToMany { return toMany[key] == nil }
        return (storage[key] as? NSManagedObject)?.isFault ?? false
    }

    /// Returns the IDs of the objects a relationship refers to, without loading the objects.
    public func objectIDs(forRelationshipNamed key: String) -> [NSManagedObjectID] {
        guard let relationship = _entity.relationshipsByName[key] else {
            preconditionFailure("The entity \(_entity.name ?? "?") has no relationship named \"\(key)\".")
        }
        if !_isFault {
            if relationship.isToMany {
                if let objects = toMany[key] { return objects.map(\.objectID) }
            } else {
                return (storage[key] as? NSManagedObject).map { [$0.objectID] } ?? []
            }
        }
        guard let context = _context, !_objectID.isTemporaryID else { return [] }
        if relationship.isToMany {
            return context._relatedObjectIDs(for: relationship, ofID: _objectID)
        }
        return (committedSnapshot()[key] as? NSManagedObjectID).map { [$0] } ?? []
    }

    /// The snapshot, read from the store (without firing the fault) when the object is a fault.
    func committedSnapshot() -> PropertyValues {
        if _isFault, let row = _context?._row(for: _objectID) { return row.values }
        return snapshot
    }

    /// The value of a property for Key-Value Coding, without firing a fault or notifications.
    func currentValue(forKey key: String) -> Any? {
        if let relationship = _entity.relationshipsByName[key], relationship.isToMany {
            let objects = toMany[key] ?? []
            return relationship.isOrdered ? NSOrderedSet(array: objects) : NSSet(array: objects)
        }
        return storage[key]
    }

    /// Turns a snapshot-form value (IDs for relationships) into a Key-Value Coding value (objects).
    func valueFromSnapshotForm(_ value: Any?, forKey key: String) -> Any? {
        guard let relationship = _entity.relationshipsByName[key] else { return value is NSNull ? nil : value }
        guard let context = _context else { return nil }
        if relationship.isToMany {
            let objects = (value as? [NSManagedObjectID] ?? []).map { context.object(with: $0) }
            return relationship.isOrdered ? NSOrderedSet(array: objects) : NSSet(array: objects)
        }
        return (value as? NSManagedObjectID).map { context.object(with: $0) }
    }

    /// Loads the values of a fault from its context.
    func _fireFaultIfNeeded() {
        guard _isFault else { return }
        // A fault a fetch made fires from the row it keeps, which loads no other object. With
        // `NSManagedObject`'s `awakeFromFetch()`, no code of the app that could let go of the context's
        // last owner runs meanwhile (the initializers of to-one destinations made for it get no
        // context), so the context is used unretained.
        if _rowGeneration != 0, !_overrides.contains(.awakeFromFetch),
            _contextAgrees({ $0._fulfillFaultFromFetchedRow(self) })
        {
            return
        }
        // Retained: firing may run the class's `awakeFromFetch()`, or load other objects and run
        // theirs, and those may let go of the context's last owner.
        guard let context = _context else { return }
        context._fulfillFault(self)
    }
}

extension NSManagedObject {
    /// The object's faulting state: 0 when the object is fully realized and not changing state, another
    /// value (1) while it is a fault.
    public var faultingState: Int {
        isFault ? 1 : 0
    }
}
