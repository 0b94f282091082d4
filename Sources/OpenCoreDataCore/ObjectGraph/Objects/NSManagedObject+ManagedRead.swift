extension NSManagedObject {
    /// The value a `@Managed` property reads: as Core Data's generated accessors do, the access is
    /// announced with `willAccessValue(forKey:)` / `didAccessValue(forKey:)` (a fault fires) and the
    /// stored value of an attribute or to-one relationship is returned directly. Other keys (to-many
    /// relationships, fetched properties) are read through `value(forKey:)`.
    func _managedPropertyValue(forKey key: String) -> Any? {
        guard let property = _entity.propertiesByName[key],
            property is NSAttributeDescription || (property as? NSRelationshipDescription)?.isToMany == false
        else {
            return value(forKey: key)
        }
        willAccessValue(forKey: key)
        defer { didAccessValue(forKey: key) }
        _context?._checkQueue("reading \(_entity.name ?? "?").\(key)")
        _fireFaultIfNeeded()
        return storage[key]
    }
}
