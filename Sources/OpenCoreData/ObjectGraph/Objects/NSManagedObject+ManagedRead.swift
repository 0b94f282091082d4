extension NSManagedObject {
    /// The value a `@Managed` property reads: as Core Data's generated accessors do, the access is
    /// announced with `willAccessValue(forKey:)` / `didAccessValue(forKey:)` (a fault fires) and the
    /// stored value of an attribute or to-one relationship is returned directly. Other keys (to-many
    /// relationships, fetched properties) are read through `value(forKey:)`.
    func _managedPropertyValue(forKey key: String) -> Any? {
        guard let property = _entity.propertiesByName[key],
              property is NSAttributeDescription || (property as? NSRelationshipDescription)?.isToMany == false else {
            return value(forKey: key)
        }
        willAccessValue(forKey: key)
        defer { didAccessValue(forKey: key) }
        _context?._checkQueue("reading \(_entity.name ?? "?").\(key)")
        _fireFaultIfNeeded()
        return storage[key]
    }

    /// The slot a `@Managed` property of an attribute or to-one relationship reads, with the access
    /// announced as `_managedPropertyValue(forKey:)` announces it.
    @inline(__always)
    func _managedSlot(at index: Int, in layout: PropertySlotLayout, forKey key: String) -> PropertySlot {
        willAccessValue(forKey: key)
        defer { didAccessValue(forKey: key) }
        if ConcurrencyDebug.isEnabled { _context?._checkQueue("reading \(_entity.name ?? "?").\(key)") }
        _fireFaultIfNeeded()
        // Firing a fault gives the object the row's values, normally in the same layout.
        if storage.layout === layout { return storage.slots[index] }
        return PropertySlot(canonical: storage[key], kind: layout.kinds[index])
    }
}
