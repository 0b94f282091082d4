extension NSManagedObject {
    // `value(forKey:)` and `setValue(_:forKey:)` on an instance of `NSManagedObject` itself read and write
    // an attribute's slot in place when nothing could observe the difference: no class overrides the
    // primitive accessors or the notifications (which for `NSManagedObject` only fire a fault), and the
    // context neither checks its queue nor records undo. The key is found by its representation in the
    // layout's table (``PropertySlotLayout/literalSlot(of:)``), as a `@Managed` accessor finds its key;
    // every other key, value or object takes the general path.

    /// Whether the in-place paths may be taken at all (a fault's values still to be loaded).
    @inline(__always)
    private var _keyValueCodingInPlace: Bool {
        Swift.type(of: self) == NSManagedObject.self && !_contextWatchesAccess
    }

    /// The value of the attribute or to-one relationship `key` names, read in place from its slot and
    /// boxed in canonical form (numbers as `NSNumber`); `.none` when the general path must answer.
    ///
    /// A fault fires first, as `willAccessValue(forKey:)` fires it, but only for a key of a slot of its
    /// entity: any other key (`objectID`, `isFault`, …) leaves it a fault.
    @inline(__always)
    func _slotValue(forKey key: String) -> Any?? {
        guard _keyValueCodingInPlace else { return .none }
        if _isFault { return _faultSlotValue(forKey: key) }
        return _loadedSlotValue(forKey: key)
    }

    @inline(never)
    private func _faultSlotValue(forKey key: String) -> Any?? {
        guard let (_, kind) = _entity._slotLayout.literalSlot(of: key), kind != .toMany, _firedFaultForAccess() else {
            return .none
        }
        return _loadedSlotValue(forKey: key)
    }

    @inline(__always)
    private func _loadedSlotValue(forKey key: String) -> Any?? {
        // Borrowed, not retained: layouts live as long as the process (see `PropertySlotLayout.shared`).
        let layout = Unmanaged.passUnretained(storage.layout)
        guard let (index, kind) = layout.withBorrowedReference({ $0.literalSlot(of: key) }), kind != .toMany else {
            return .none
        }
        return storage.slots.matching(inRange: index) { slot -> Any?? in .some(slot.boxed) }
    }

    /// Sets the Integer or Double attribute `key` names in place from a value
    /// ``KeyValueSlotConversion`` converts, recording the change as every change is recorded; `false`
    /// (nothing done) when the general path must set it.
    ///
    /// A fault fires first, as `willChangeValue(forKey:)` fires it, but only for a key of such a slot.
    @inline(__always)
    func _setSlotValue(_ value: Any?, forKey key: String) -> Bool {
        guard _keyValueCodingInPlace else { return false }
        if _isFault {
            guard let (_, kind) = _entity._slotLayout.literalSlot(of: key), kind == .integer || kind == .double,
                _firedFaultForAccess()
            else { return false }
        }
        // Borrowed, not retained: recording the change does not replace the values' layout.
        let layout = Unmanaged.passUnretained(storage.layout)
        return layout.withBorrowedReference { layout -> Bool in
            guard let (index, kind) = layout.literalSlot(of: key),
                let slot = KeyValueSlotConversion.slot(value, kind: kind)
            else { return false }
            _changeSlot(slot, at: index, in: layout, forKey: key)
            return true
        }
    }
}
