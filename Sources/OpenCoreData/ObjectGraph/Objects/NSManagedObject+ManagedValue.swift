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
        _managedValue(forKey: key)
    }

    /// The body of ``managedValue(forKey:)``, specialized for each type a typed overload returns.
    @inline(__always)
    func _managedValue<Value>(forKey key: String) -> Value {
        if let keyPathRecorder { return _recordedValue(by: keyPathRecorder, forKey: key) }
        let layout = _valuesLayout
        if let index = layout.index(of: key), layout.kinds[index] != .toMany {
            let slot = _managedSlot(at: index, in: layout, forKey: key)
            // The common exact cases inline; every other conversion is out of line, so that this
            // generic function forms no optional of its type parameter (its metadata costs a lookup).
            if case .integer(let integer) = slot, Value.self == Int64.self { return unsafeBitCast(integer, to: Value.self) }
            if case .double(let double) = slot, Value.self == Double.self { return unsafeBitCast(double, to: Value.self) }
            return _managedValue(from: slot, forKey: key)
        }
        return _managedValueThroughKeyValueCoding(forKey: key)
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
        ManagedValueConversion.swiftValue(_managedPropertyValue(forKey: key), as: Value.self, object: self, key: key)
    }

    /// Sets the value of a persistent property from the Swift type a subclass declares for it.
    ///
    /// The `@Managed` macro expands a property's setter to a call of this method; it accepts the types
    /// ``managedValue(forKey:)`` returns.
    public func setManagedValue<Value>(_ value: Value, forKey key: String) {
        _setManagedValue(value, forKey: key)
    }

    /// The body of ``setManagedValue(_:forKey:)``, specialized for each type a typed overload takes.
    @inline(__always)
    func _setManagedValue<Value>(_ value: Value, forKey key: String) {
        let layout = _valuesLayout
        if let index = layout.index(of: key), let slot = ManagedSlotAccess.slot(value, kind: layout.kinds[index]) {
            // As Core Data's generated setters: change notifications around the primitive change.
            willChangeValue(forKey: key)
            _setPrimitiveSlot(slot, at: index, in: layout, forKey: key)
            didChangeValue(forKey: key)
            return
        }
        setValue(ManagedValueConversion.storedValue(value, object: self, key: key), forKey: key)
    }

    /// The layout the object's values have, or will have once its fault fires (a fault's values are
    /// empty until then).
    @inline(__always)
    var _valuesLayout: PropertySlotLayout {
        let layout = storage.layout
        if layout.count == 0, _isFault { return _entity._slotLayout }
        return layout
    }
}
