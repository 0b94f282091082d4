extension NSManagedObject {
    /// Returns the value of a persistent property as the Swift type a subclass declares for it.
    ///
    /// The `@Managed` macro expands a property's getter to a call of this method. Attributes convert
    /// to integers of any width, `Double`, `Float`, `Bool`, `Decimal`, `Date`, `Data`, `String`, `UUID`,
    /// `URL` and their optionals (a non-optional number reads `nil` as zero, a non-optional `Bool` as
    /// `false`); to-one relationships to the destination class or its optional; to-many relationships
    /// to `Set<Destination>`, `NSSet` or `NSOrderedSet` (optional or not). A non-optional `String` or
    /// `Data` reads `nil` as empty. Reading `nil` as a non-optional `Date`, `UUID`, `URL` or object, or a
    /// value as a type it cannot be converted to, stops the program naming entity, key and type.
    public func managedValue<Value>(forKey key: String) -> Value {
        _managedValueWithNotifications(forKey: key)
    }

    /// The body of ``managedValue(forKey:)``, specialized for each type a typed overload returns.
    ///
    /// An attribute of an object that is not a fault, whose class keeps `NSManagedObject`'s access
    /// notifications and whose context neither checks its queue nor records undo, is read straight from
    /// its slot: the notifications would do nothing. Everything else (a fault's first read among them)
    /// goes out of line, so that this path calls nothing and needs no frame of its own.
    ///
    /// A key path probe (see `ManagedKeyPathNaming`) needs no test here: its entity has no properties,
    /// so no key has a slot in its values, and every read of it goes out of line.
    @inline(__always)
    func _managedValue<Value>(forKey key: String) -> Value {
        if !_overrides.contains(.accessNotifications), !_isFault, !_contextWatchesAccess,
            let value = _literalValue(forKey: key, as: Value.self)
        {
            return value
        }
        return _managedValueOffFastPath(forKey: key)
    }

    /// The reads ``_managedValue(forKey:)`` does not make in place: a fault whose access notifications
    /// would only fire it is fired here, as `willAccessValue(forKey:)` would fire it, and then read from
    /// its slot; every other read takes the access notifications.
    @inline(never)
    func _managedValueOffFastPath<Value>(forKey key: String) -> Value {
        if _isFault, !_overrides.contains(.accessNotifications), !_contextWatchesAccess,
            _firedFaultForAccess(), let value = _literalValue(forKey: key, as: Value.self)
        {
            return value
        }
        return _managedValueWithNotifications(forKey: key)
    }

    /// The value of the attribute or to-one relationship a literal `key` names (see
    /// ``PropertySlotLayout/literalSlot(of:)``), read in place from its slot as `Value`; `nil` when the key
    /// has no such slot in the object's values, or the slot's value needs the general conversion.
    @inline(__always)
    private func _literalValue<Value>(forKey key: String, as type: Value.Type) -> Value? {
        // The layout borrowed, not retained (layouts live as long as the process), and the slot read
        // where it lies: the object's values keep it alive, and nothing here changes them. (A method of
        // `storage` would be called on a copy of the values, retaining their buffers around every read.)
        let layout = Unmanaged.passUnretained(storage.layout)
        guard let (index, kind) = layout.withBorrowedReference({ $0.literalSlot(of: key) }), kind != .toMany else {
            return nil
        }
        return storage.slots.matching(inRange: index) { ManagedSlotAccess.value($0, as: Value.self) }
    }

    /// Fires the object's fault as `NSManagedObject`'s `willAccessValue(forKey:)` and
    /// `willChangeValue(forKey:)` fire it, returning whether the object then has its values. Out of
    /// line: only a fault's first access comes here.
    @inline(never)
    func _firedFaultForAccess() -> Bool {
        _fireFaultIfNeeded()
        return !_isFault
    }

    /// ``managedValue(forKey:)`` with the access notifications around the read.
    @inline(never)
    func _managedValueWithNotifications<Value>(forKey key: String) -> Value {
        if let keyPathRecorder { return _recordedValue(by: keyPathRecorder, forKey: key) }
        guard let (index, kind, layout) = _managedSlotIndex(forKey: key) else {
            return _managedValueThroughKeyValueCoding(forKey: key)
        }
        willAccessValue(forKey: key)
        defer { didAccessValue(forKey: key) }
        _withContext { $0._checkQueue("reading \(self._entity.name ?? "?").\(key)") }
        _fireFaultIfNeeded()
        // Firing a fault gives the object the row's values, normally in the layout looked up. The
        // common exact cases read the slot in place; every other conversion is out of line, so that this
        // generic function forms no optional of its type parameter (its metadata costs a lookup).
        guard ObjectIdentifier(storage.layout) == layout else {
            return _managedValue(from: PropertySlot(canonical: storage[key], kind: kind), forKey: key)
        }
        if Value.self == Int64.self, let integer = storage.slots.integer(at: index) {
            return typeComparedCast(integer, to: Value.self)
        }
        if Value.self == Double.self, let double = storage.slots.double(at: index) {
            return typeComparedCast(double, to: Value.self)
        }
        return _managedValue(from: storage.slots[index], forKey: key)
    }

    /// The slot, kind and layout (by identity) of an attribute or to-one relationship in the layout the
    /// object's values have or will have once its fault fires; `nil` for other keys.
    ///
    /// Only the layout's identity leaves this function: the caller then calls out (access notifications
    /// may fire a fault) and holding the layout itself across those calls would retain it.
    @inline(__always)
    private func _managedSlotIndex(forKey key: String) -> (Int, PropertySlotLayout.Kind, ObjectIdentifier)? {
        // Borrowed, not retained: layouts live as long as the process (see `PropertySlotLayout.shared`).
        let layout = Unmanaged.passUnretained(storage.layout)
        if _isFault, layout.withBorrowedReference({ $0.count == 0 }) {
            // A fault's values are empty until it fires: the entity's layout.
            return Self._slotIndex(in: _entity._slotLayout, forKey: key)
        }
        return layout.withBorrowedReference { Self._slotIndex(in: $0, forKey: key) }
    }

    @inline(__always)
    private static func _slotIndex(
        in layout: PropertySlotLayout,
        forKey key: String
    ) -> (Int, PropertySlotLayout.Kind, ObjectIdentifier)? {
        guard let index = layout.index(of: key) else { return nil }
        let kind = layout.kinds[index]
        if kind == .toMany { return nil }
        return (index, kind, ObjectIdentifier(layout))
    }

    @inline(never)
    private func _recordedValue<Value>(by recorder: ManagedKeyPathRecorder, forKey key: String) -> Value {
        recorder.record(key, as: Value.self, object: self)
    }

    @inline(never)
    private func _managedValue<Value>(from slot: PropertySlot, forKey key: String) -> Value {
        if let value = ManagedSlotAccess.value(slot, as: Value.self) { return value }
        return ManagedValueConversion.swiftValue(slot.boxed, as: Value.self, object: self, key: key)
    }

    @inline(never)
    private func _managedValueThroughKeyValueCoding<Value>(forKey key: String) -> Value {
        if let collection = _managedToManyCollection(forKey: key, as: Value.self) { return collection }
        return ManagedValueConversion.swiftValue(_managedPropertyValue(forKey: key), as: Value.self, object: self, key: key)
    }

    /// An unordered to-many relationship read as a Swift collection of its destination class
    /// (`Set<Destination>`, `[Destination]`, or their optionals), built from the related objects
    /// themselves; `nil` for other keys and types, and when an object is not of the declared class.
    ///
    /// As Core Data's generated accessors read a to-many relationship: the access notifications around the
    /// primitive contents, without `value(forKey:)` and without an `NSSet` between the objects and the
    /// collection.
    private func _managedToManyCollection<Value>(forKey key: String, as type: Value.Type) -> Value? {
        guard let relationship = _entity.relationshipsByName[key], relationship.isToMany, !relationship.isOrdered else { return nil }
        if let collectionType = Value.self as? any ManagedObjectCollection.Type {
            return collectionType.managedCollection(from: _accessedToMany(relationship, forKey: key)) as? Value
        }
        if let optionalType = Value.self as? any ManagedOptionalObjectCollection.Type,
            let wrapped = optionalType.managedOptionalCollection(from: _accessedToMany(relationship, forKey: key))
        {
            return wrapped as? Value
        }
        return nil
    }

    /// The contents of a to-many relationship read with the access notifications around them, as a
    /// generated accessor reads them.
    private func _accessedToMany(_ relationship: NSRelationshipDescription, forKey key: String) -> [NSManagedObject] {
        willAccessValue(forKey: key)
        defer { didAccessValue(forKey: key) }
        _withContext { $0._checkQueue("reading \(self._entity.name ?? "?").\(key)") }
        _fireFaultIfNeeded()
        return loadedToMany(relationship)
    }

    /// Sets the value of a persistent property from the Swift type a subclass declares for it.
    ///
    /// The `@Managed` macro expands a property's setter to a call of this method; it accepts the types
    /// ``managedValue(forKey:)`` returns.
    public func setManagedValue<Value>(_ value: Value, forKey key: String) {
        _setManagedValueWithNotifications(value, forKey: key)
    }

    /// The body of ``setManagedValue(_:forKey:)``, specialized for each type a typed overload takes.
    ///
    /// As with reads, an attribute of an object whose class keeps `NSManagedObject`'s change
    /// notifications and whose context neither checks its queue nor records undo, is written straight
    /// to its slot (a fault fires first, as `willChangeValue(forKey:)` would fire it), its change
    /// recorded as the general path records it.
    @inline(__always)
    func _setManagedValue<Value>(_ value: Value, forKey key: String) {
        if !_overrides.contains(.changeNotifications), !_contextWatchesAccess, !_isFault || _firedFaultForAccess() {
            // Borrowed, not retained: recording the change does not replace the values' layout.
            let layout = Unmanaged.passUnretained(storage.layout)
            let written = layout.withBorrowedReference { layout -> Bool in
                guard let (index, kind) = layout.literalSlot(of: key),
                    let slot = ManagedSlotAccess.slot(value, kind: kind)
                else { return false }
                _changeSlot(slot, at: index, in: layout, forKey: key)
                return true
            }
            if written { return }
        }
        _setManagedValueWithNotifications(value, forKey: key)
    }

    /// ``setManagedValue(_:forKey:)`` with the change notifications around the change.
    @inline(never)
    func _setManagedValueWithNotifications<Value>(_ value: Value, forKey key: String) {
        if let (index, kind, layout) = _managedSlotIndex(forKey: key), let slot = ManagedSlotAccess.slot(value, kind: kind) {
            // As Core Data's generated setters: change notifications around the primitive change.
            willChangeValue(forKey: key)
            _setPrimitiveSlot(slot, at: index, inLayout: layout, forKey: key)
            didChangeValue(forKey: key)
            return
        }
        setValue(ManagedValueConversion.storedValue(value, object: self, key: key), forKey: key)
    }
}
