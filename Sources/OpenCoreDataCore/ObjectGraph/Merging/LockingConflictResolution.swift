/// Applies a merge policy type to one optimistic-locking conflict: the source object's values, its
/// snapshot and its version are brought in line with the store's row so that the next save attempt
/// writes what the policy chose.
///
/// Property-level policies compare three versions of each attribute and to-one relationship: the value
/// the context read (the object's snapshot), the object's current value and the store's value now.
/// A property "changed in the context" differs from the snapshot; one "changed in the store" has a
/// stored value different from the snapshot.
enum LockingConflictResolution {
    static func resolve(_ conflict: NSMergeConflict, as type: NSMergePolicyType) {
        let object = conflict.sourceObject
        guard let context = object._context, type != .errorMergePolicyType else { return }
        guard let persisted = conflict._storedValues else {
            // The row is gone: the object no longer exists, whatever the context did with it.
            context.unregister(object)
            return
        }
        if object._isDeleted {
            // The context's delete wins: delete the row at its new version.
            adopt(persisted, version: conflict.newVersionNumber, into: object)
            return
        }
        if object._isFault { return }
        let keys = object.entity.propertiesByName.values.filter { property in
            if property.isTransient { return false }
            if let relationship = property as? NSRelationshipDescription, relationship.isToMany { return false }
            return true
        }.map(\.name)

        var chosen: [String: Any?] = [:]
        var changed = Set<String>()
        for key in keys {
            let original = object.snapshot[key]
            let current = object.currentValueForSnapshot(key)
            let stored = unwrap(persisted[key])
            let changedHere = object.changedKeys.contains(key) && !PropertyValueEquality.equal(current, original)
            let changedThere = !PropertyValueEquality.equal(stored, original)
            let value: Any?
            switch type {
            case .mergeByPropertyObjectTrumpMergePolicyType: value = changedHere ? current : stored
            case .mergeByPropertyStoreTrumpMergePolicyType: value = changedThere || !changedHere ? stored : current
            case .overwriteMergePolicyType: value = current
            default: value = stored
            }
            chosen[key] = value
            if type == .overwriteMergePolicyType || !PropertyValueEquality.equal(value, stored) { changed.insert(key) }
        }
        // To-many relationships are not part of a row: the context's changes to them are kept, except
        // by the rollback policy, which reloads them from the store.
        let toManyChanged = object.changedKeys.filter { object.entity.relationshipsByName[$0]?.isToMany == true }
        if type == .rollbackMergePolicyType {
            for key in toManyChanged { object.toMany[key] = nil }
        } else {
            changed.formUnion(toManyChanged)
        }
        for (key, value) in chosen {
            if let value, let id = value as? NSManagedObjectID, object.entity.relationshipsByName[key] != nil {
                object.storage[key] = context.object(with: id)
            } else {
                object.storage[key] = value
            }
        }
        adopt(persisted, version: conflict.newVersionNumber, into: object)
        object.changedKeys = ChangedKeys(changed, layout: object.storage.layout)
        if changed.isEmpty {
            context._updated[ObjectIdentifier(object)] = nil
        }
    }

    /// Makes the store's row the object's snapshot: the next save checks against its version.
    static func adopt(_ persisted: [String: Any], version: Int, into object: NSManagedObject) {
        var snapshot = object.snapshot.filter { object.entity.relationshipsByName[$0.key]?.isToMany == true }
        for (key, value) in persisted where !(value is NSNull) {
            snapshot[key] = value
        }
        object.snapshot = snapshot
        object.snapshotVersion = Int64(version)
    }

    private static func unwrap(_ value: Any?) -> Any? {
        value is NSNull ? nil : value
    }
}
