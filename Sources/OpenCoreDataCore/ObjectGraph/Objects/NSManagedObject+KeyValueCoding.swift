/// Managed objects are read by predicates, expressions and sort descriptors through Key-Value Coding.
extension NSManagedObject: KeyValueCoding {}

/// A managed object used as a predicate constant (`author == %@`) stands for its object ID in the store.
extension NSManagedObject: ObjectIDRepresentable {
    var objectIDForStore: NSManagedObjectID { objectID }
}

extension NSManagedObject {
    /// Implements `value(forKey:)`: access notifications around the primitive value (read in place
    /// when nothing could tell, see `NSManagedObject+KeyValueSlots.swift`).
    func _value(forKey key: String) -> Any? {
        if let value = _slotValue(forKey: key) { return value }
        if _entity.propertiesByName[key] == nil {
            return builtInValue(forKey: key)
        }
        willAccessValue(forKey: key)
        defer { didAccessValue(forKey: key) }
        return primitiveValue(forKey: key)
    }

    /// Implements `setValue(_:forKey:)`: change notifications around the primitive setter (set in
    /// place when nothing could tell, see `NSManagedObject+KeyValueSlots.swift`).
    func _setValue(_ value: Any?, forKey key: String) {
        if _setSlotValue(value, forKey: key) { return }
        guard let property = _entity.propertiesByName[key] else { undefinedKey(key, value: value) }
        let inverse = property is NSRelationshipDescription ? InverseMaintenance(self, key: key, newValue: value) : nil
        willChangeValue(forKey: key)
        setPrimitiveValue(value, forKey: key)
        didChangeValue(forKey: key)
        inverse?.apply()
    }

    /// Implements `primitiveValue(forKey:)`.
    func _primitiveValue(forKey key: String) -> Any? {
        guard let property = _entity.propertiesByName[key] else {
            return builtInValue(forKey: key)
        }
        _context?._checkQueue("reading \(_entity.name ?? "?").\(key)")
        if let fetched = property as? NSFetchedPropertyDescription { return _fetchedPropertyValue(fetched) }
        _fireFaultIfNeeded()
        if let relationship = property as? NSRelationshipDescription, relationship.isToMany {
            let objects = loadedToMany(relationship)
            return relationship.isOrdered ? NSOrderedSet(array: objects) : NSSet(array: objects)
        }
        return storage[key]
    }

    /// Implements `setPrimitiveValue(_:forKey:)`: converts the value to the property's canonical form
    /// and records the change.
    func _setPrimitiveValue(_ value: Any?, forKey key: String) {
        guard let property = _entity.propertiesByName[key] else {
            undefinedKey(key, value: value)
        }
        _withContext { $0._checkQueue("setting \(self._entity.name ?? "?").\(key)") }
        _fireFaultIfNeeded()
        if let attribute = property as? NSAttributeDescription {
            let newValue = ManagedValueCoercion.attributeValue(value, attribute: attribute, object: self)
            if let index = storage.index(of: key) {
                recordChange(forKey: key, slot: index, in: storage.layout)
                storage.slots[index] = PropertySlot(canonical: newValue, kind: storage.layout.kinds[index])
            } else {
                recordChange(forKey: key)
                storage[key] = newValue
            }
            _withContext { $0._objectDidChange(self) }
            return
        }
        if let relationship = property as? NSRelationshipDescription, relationship.isToMany {
            let objects = ManagedValueCoercion.toManyObjects(value, relationship: relationship, object: self)
            setToMany(objects, for: relationship)
            return
        }
        let newValue: Any?
        if let relationship = property as? NSRelationshipDescription {
            newValue = ManagedValueCoercion.toOneObject(value, relationship: relationship, object: self)
        } else {
            newValue = value
        }
        recordChange(forKey: key)
        storage[key] = newValue
        _context?._objectDidChange(self)
    }

    /// Keeps the old value of `key` for `changedValuesForCurrentEvent()` and marks the key changed.
    func recordChange(forKey key: String) {
        let context = _context
        context?._registerUndoOfChange(of: self, key: key)
        changedKeys.insert(key)
        // An object inserted in this event started it with its default values: nothing to record.
        if _insertedInCurrentEvent { return }
        if valuesAtLastEvent.isEmpty { context?._noteChangedForEvent(self) }
        // Keeps the first value of the event: one lookup, computing the value only when the key is new.
        valuesAtLastEvent.keepFirst(key) { PropertySlot(currentValueForSnapshot(key)) }
    }

    /// `recordChange(forKey:)` for a property whose snapshot form is its stored value (an attribute),
    /// in slot `index` of `layout`, the layout of the object's values (passed by a caller that holds it:
    /// loading it again would retain it).
    ///
    /// The context is used unretained: none of these calls can release it, and retaining and releasing
    /// it was a fifth of a `@Managed` set.
    @inline(__always)
    func recordChange(forKey key: String, slot index: Int, in layout: PropertySlotLayout) {
        _withContext { $0._registerUndoOfChange(of: self, key: key) }
        changedKeys.insert(slot: index, of: layout, key: key)
        // An object inserted in this event started it with its default values: nothing to record.
        if _insertedInCurrentEvent { return }
        if valuesAtLastEvent.isEmpty { _withContext { $0._noteChangedForEvent(self) } }
        valuesAtLastEvent.keepFirst(slot: index, of: layout, key: key) { storage.slots[index] }
    }

    /// Changes slot `index` of `layout` (the layout of the object's values) to `slot`, recording the
    /// change as every change is recorded: the change itself, the slot's first value in the event, and
    /// the object among the changed ones.
    ///
    /// The new slot is taken, not copied: the `@Managed` setter makes it for this call.
    @inline(__always)
    func _changeSlot(_ slot: consuming PropertySlot, at index: Int, in layout: PropertySlotLayout, forKey key: String) {
        recordChange(forKey: key, slot: index, in: layout)
        storage.slots[index] = slot
        _withContext { $0._objectDidChange(self) }
    }

    /// Sets an attribute's slot from a `@Managed` setter: `setPrimitiveValue(_:forKey:)` for a value
    /// already in slot form.
    /// `layout` is the identity of the layout `index` was found in: the values take the slot when they
    /// still have that layout once the fault has fired, and are set by name otherwise.
    func _setPrimitiveSlot(_ slot: PropertySlot, at index: Int, inLayout layout: ObjectIdentifier, forKey key: String) {
        _withContext { $0._checkQueue("setting \(self._entity.name ?? "?").\(key)") }
        _fireFaultIfNeeded()
        // Borrowed, not retained (as in `_managedValue(forKey:)`): recording the change does not replace
        // the values' layout.
        let current = Unmanaged.passUnretained(storage.layout)
        guard ObjectIdentifier(current.takeUnretainedValue()) == layout else {
            _setPrimitiveValue(slot.boxed, forKey: key)
            return
        }
        current.withBorrowedReference { _changeSlot(slot, at: index, in: $0, forKey: key) }
    }

    /// The current value of a property in snapshot form: to-one as an object ID, to-many as object IDs.
    func currentValueForSnapshot(_ key: String) -> Any? {
        if let relationship = _entity.relationshipsByName[key] {
            if relationship.isToMany {
                return toMany[key].map { $0.map(\.objectID) }
            }
            return (storage[key] as? NSManagedObject)?.objectID
        }
        return storage[key]
    }

    /// Returns the contents of a to-many relationship, loading them with one request when needed.
    /// Relationship contents the store cannot read are empty, their error kept for a save of the object
    /// (`FaultFailures.swift`).
    func loadedToMany(_ relationship: NSRelationshipDescription) -> [NSManagedObject] {
        loadToMany(relationship) { context in context._relatedObjectIDs(for: relationship, ofID: _objectID) }
    }

    /// `loadedToMany(_:)` throwing the store's error instead.
    func loadToMany(_ relationship: NSRelationshipDescription) throws -> [NSManagedObject] {
        try loadToMany(relationship) { context in try context._loadRelatedObjectIDs(for: relationship, ofID: _objectID) }
    }

    /// The contents of a to-many relationship, loaded with `destinationIDs` when the object does not hold
    /// them yet (then kept by the object, and their IDs in its snapshot).
    private func loadToMany(
        _ relationship: NSRelationshipDescription,
        destinationIDs: (NSManagedObjectContext) throws -> [NSManagedObjectID]
    ) rethrows -> [NSManagedObject] {
        if let objects = toMany[relationship.name] { return objects }
        var objects: [NSManagedObject] = []
        if let context = _context {
            objects = try destinationIDs(context).map { context.object(with: $0) }
        }
        toMany[relationship.name] = objects
        if snapshot[relationship.name] == nil, !_objectID.isTemporaryID {
            snapshot[relationship.name] = objects.map(\.objectID)
        }
        return objects
    }

    /// Replaces the contents of a to-many relationship and records the change.
    func setToMany(_ objects: [NSManagedObject], for relationship: NSRelationshipDescription) {
        _ = loadedToMany(relationship)
        recordChange(forKey: relationship.name)
        toMany[relationship.name] = objects
        _context?._objectDidChange(self)
    }

    /// Values of keys that are not properties of the entity but that Key-Value Coding answers for
    /// every managed object.
    private func builtInValue(forKey key: String) -> Any? {
        switch key {
        case "self": return self
        case "objectID": return objectID
        case "entity": return entity
        case "managedObjectContext": return managedObjectContext
        case "isInserted", "inserted": return isInserted
        case "isUpdated", "updated": return isUpdated
        case "isDeleted", "deleted": return isDeleted
        case "isFault", "fault": return isFault
        case "hasChanges": return hasChanges
        default: undefinedKey(key, value: nil)
        }
    }

    private func undefinedKey(_ key: String, value: Any?) -> Never {
        preconditionFailure(
            "The entity \(_entity.name ?? "?") is not key value coding-compliant for the key \"\(key)\""
                + (value.map { " (value: \(String(describing: $0)))" } ?? "") + ".")
    }
}
