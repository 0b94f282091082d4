/// Transient values in a child's save. A store never sees them, but a child's save pushes every change
/// one level up, transient ones included, so the parent's objects carry the values the child set.
extension NSManagedObjectContext {
    /// The transient values a save into the parent carries, by object ID: every transient property an
    /// inserted object has a value for, and every transient property an updated object changed
    /// (`nil` when it was cleared). Values are in snapshot form: to-one relationships as object IDs,
    /// to-many relationships as arrays of object IDs.
    func _transientValuesForParent(
        inserted: [NSManagedObject],
        updated: [NSManagedObject]
    ) -> [NSManagedObjectID: [String: Any?]] {
        var result: [NSManagedObjectID: [String: Any?]] = [:]
        for object in inserted where !object.entity._writeTraits.storesOnlyPersistentAttributes {
            var values: [String: Any?] = [:]
            for property in object.entity._allProperties where property.isTransient {
                guard let value = object.currentValueForSnapshot(property.name) else { continue }
                values[property.name] = .some(value)
            }
            if !values.isEmpty { result[object.objectID] = values }
        }
        for object in updated where !object.entity._writeTraits.storesOnlyPersistentAttributes {
            var values: [String: Any?] = [:]
            for key in object.changedKeys where object.entity.propertiesByName[key]?.isTransient == true {
                values.updateValue(object.currentValueForSnapshot(key), forKey: key)
            }
            if !values.isEmpty { result[object.objectID] = values }
        }
        return result
    }

    /// Sets a child's transient values on this context's objects, recording each as a change so the
    /// objects count as updated (inserted objects stay inserted).
    func _absorbTransientValues(_ transientValues: [NSManagedObjectID: [String: Any?]]) {
        for (childID, values) in transientValues {
            let object = self.object(with: _currentID(for: childID))
            if object._isDeleted { continue }
            object._fireFaultIfNeeded()
            for (key, value) in values {
                guard let property = object.entity.propertiesByName[key] else { continue }
                object.recordChange(forKey: key)
                if let relationship = property as? NSRelationshipDescription {
                    if relationship.isToMany {
                        let ids = value as? [NSManagedObjectID] ?? []
                        object.toMany[key] = ids.map { self.object(with: _currentID(for: $0)) }
                    } else {
                        object.storage[key] = (value as? NSManagedObjectID).map { self.object(with: _currentID(for: $0)) }
                    }
                } else {
                    object.storage[key] = value
                }
            }
            _objectDidChange(object)
        }
    }
}
