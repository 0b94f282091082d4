/// Applies a merge policy type to one uniqueness-constraint conflict, so that the next save attempt
/// stores one object for the constraint's values.
///
/// With a stored row, one object becomes that row: a newly inserted object takes over the row's ID
/// (the stored object had not been read in the context: it was only a fault), or the stored object
/// already loaded in the context takes the inserted object's values and the inserted object leaves the
/// context. The values follow the policy: object-trump keeps every value the in-memory objects set and
/// the stored value of the others (an upsert); store-trump keeps every stored value and takes in-memory
/// values only where the row has none; overwrite writes every in-memory value; rollback keeps the row
/// as it is. Inserted duplicates within the save merge into the surviving object and leave the context.
/// A changed (not inserted) object that took a stored row's values is reverted by store-trump and
/// rollback; object-trump and overwrite delete the stored row instead.
enum ConstraintConflictResolution {
    static func resolve(_ conflict: NSConstraintConflict, as type: NSMergePolicyType) {
        let objects = conflict.conflictingObjects.filter { $0._context != nil && !$0._isDeleted }
        guard let context = objects.first?._context, type != .errorMergePolicyType else { return }
        let inserted = objects.filter { $0.isNewlyInserted }
        let existing = objects.filter { !$0.isNewlyInserted }
        let takesStoredValues = type == .mergeByPropertyStoreTrumpMergePolicyType || type == .rollbackMergePolicyType

        if let stored = conflict.databaseObject, let snapshot = conflict.databaseSnapshot, stored._context === context {
            for object in existing where object !== stored {
                if takesStoredValues {
                    revert(conflict.constraint, of: object)
                } else {
                    context.delete(stored)
                }
            }
            guard !inserted.isEmpty else { return }
            let setValues = combinedSetValues(inserted)
            let survivor: NSManagedObject
            if stored._isFault && !stored.hasChanges {
                survivor = inserted[0]
                stored._context = nil
                context._inserted[ObjectIdentifier(survivor)] = nil
                context.changeID(of: survivor, to: stored.objectID)
                survivor.isNewlyInserted = false
                if takesStoredValues {
                    // The stored relationships stay; object-trump and overwrite write the survivor's own.
                    for key in survivor.changedKeys where survivor.entity.relationshipsByName[key]?.isToMany == true {
                        survivor.toMany[key] = nil
                    }
                }
            } else {
                survivor = stored
                survivor._fireFaultIfNeeded()
            }
            for other in inserted where other !== survivor { context.unregister(other) }
            apply(setValues, stored: snapshot, version: conflict.databaseVersion, to: survivor, as: type)
            return
        }

        // Duplicates within the save only: an object that already has a row survives, or else one of
        // the inserted objects; the other inserted objects merge into it.
        guard let survivor = existing.first ?? inserted.first else { return }
        let setValues = combinedSetValues([survivor] + inserted.filter { $0 !== survivor })
        for other in inserted where other !== survivor { context.unregister(other) }
        for other in existing where other !== survivor {
            if takesStoredValues { revert(conflict.constraint, of: other) } else { context.delete(other) }
        }
        for (key, value) in setValues where survivor.storage[key] == nil {
            survivor.storage[key] = value
            survivor.changedKeys.insert(key)
        }
    }

    /// The values the inserted objects set themselves (not model defaults), the first object's first.
    private static func combinedSetValues(_ objects: [NSManagedObject]) -> [String: Any] {
        var result: [String: Any] = [:]
        for object in objects {
            for key in object.changedKeys where result[key] == nil {
                guard let property = object.entity.propertiesByName[key], !property.isTransient else { continue }
                if let relationship = property as? NSRelationshipDescription, relationship.isToMany { continue }
                if let value = object.storage[key] { result[key] = value }
            }
        }
        return result
    }

    /// Gives the surviving object the stored row's snapshot and version and the values the policy chose.
    private static func apply(
        _ setValues: [String: Any], stored: [String: Any], version: Int64,
        to survivor: NSManagedObject, as type: NSMergePolicyType
    ) {
        guard let context = survivor._context else { return }
        var changed = Set<String>()
        for property in survivor.entity.propertiesByName.values where !property.isTransient {
            if let relationship = property as? NSRelationshipDescription, relationship.isToMany { continue }
            let key = property.name
            let storedValue = stored[key] is NSNull ? nil : stored[key]
            let mine = setValues[key] ?? (type == .overwriteMergePolicyType ? survivor.storage[key] : nil)
            let value: Any?
            switch type {
            case .mergeByPropertyObjectTrumpMergePolicyType: value = setValues[key] != nil ? mine : storedValue
            case .mergeByPropertyStoreTrumpMergePolicyType: value = storedValue ?? mine
            case .overwriteMergePolicyType: value = mine
            default: value = storedValue
            }
            if let id = value as? NSManagedObjectID, property is NSRelationshipDescription {
                survivor.storage[key] = context.object(with: id)
            } else {
                survivor.storage[key] = value
            }
            let snapshotValue = survivor.currentValueForSnapshot(key)
            if type == .overwriteMergePolicyType || !PropertyValueEquality.equal(snapshotValue, storedValue) {
                changed.insert(key)
            }
        }
        let toManyChanged = survivor.changedKeys.filter { survivor.entity.relationshipsByName[$0]?.isToMany == true }
        LockingConflictResolution.adopt(stored, version: Int(version), into: survivor)
        survivor.changedKeys = ChangedKeys(
            changed.union(toManyChanged.filter { survivor.toMany[$0] != nil }),
            layout: survivor.storage.layout)
        if !survivor.changedKeys.isEmpty {
            context._objectDidChange(survivor)
        }
    }

    /// Puts back the values a changed object had for a constraint's properties when it was read.
    private static func revert(_ names: [String], of object: NSManagedObject) {
        guard let context = object._context else { return }
        for name in names {
            let original = object.snapshot[name]
            if let id = original as? NSManagedObjectID, object.entity.relationshipsByName[name] != nil {
                object.storage[name] = context.object(with: id)
            } else {
                object.storage[name] = original
            }
            if PropertyValueEquality.equal(object.currentValueForSnapshot(name), original) {
                object.changedKeys.remove(name)
            }
        }
    }
}
