extension NSManagedObjectContext {
    /// Takes a child's save as this context's own unsaved changes: the child's inserted objects are
    /// inserted here under the same IDs, its changes (transient values included) are applied to the
    /// objects here, its deletes delete them here. Nothing is written to the store. Runs on this
    /// context's queue.
    func _absorbChildSave(_ changes: StoreSaveChanges) -> StoreSaveResult {
        var versions = ObjectIDMap<Int64>()
        // First register every inserted object, so relationships between them resolve.
        var insertedObjects: [(NSManagedObject, StoreSaveChanges.Insert)] = []
        for insert in changes.inserted {
            let id = _currentID(for: insert.objectID)
            let object: NSManagedObject
            if let existing = registry[id] {
                object = existing
            } else {
                object = makeObject(for: id)
            }
            object._isFault = false
            object._isDeleted = false
            object.storage = PropertyValues(entity: object.entity)
            object.toMany = [:]
            // New to the child means new to this context too: the child read everything else from here.
            object.isNewlyInserted = true
            _inserted[ObjectIdentifier(object)] = object
            insertedObjects.append((object, insert))
        }
        for (object, insert) in insertedObjects {
            for property in object.entity._allProperties where !property.isTransient {
                let name = property.name
                if let relationship = property as? NSRelationshipDescription {
                    if relationship.isToMany {
                        object.toMany[name] = (insert.toMany[name] ?? []).map { self.object(with: _currentID(for: $0)) }
                    } else if let id = insert.values[name] as? NSManagedObjectID {
                        object.storage[name] = self.object(with: _currentID(for: id))
                    }
                } else if let value = insert.values[name] {
                    object.storage[name] = value
                }
                object.recordChange(forKey: name)
            }
            versions[insert.objectID] = object.snapshotVersion
        }
        for update in changes.updated {
            let object = self.object(with: _currentID(for: update.objectID))
            object._fireFaultIfNeeded()
            for (name, value) in update.changedValues {
                guard let property = object.entity.propertiesByName[name] else { continue }
                object.recordChange(forKey: name)
                if property is NSRelationshipDescription {
                    object.storage[name] = (value as? NSManagedObjectID).map { self.object(with: _currentID(for: $0)) }
                } else {
                    object.storage[name] = value
                }
            }
            for (name, ids) in update.toMany {
                guard let relationship = object.entity.relationshipsByName[name] else { continue }
                object.setToMany(ids.map { self.object(with: _currentID(for: $0)) }, for: relationship)
            }
            _objectDidChange(object)
            versions[update.objectID] = object.snapshotVersion
        }
        _absorbTransientValues(changes.transientValues)
        _adoptStoreAssignments(changes.assignedStores)
        for check in changes.versionChecks { detectConflicts(for: self.object(with: _currentID(for: check.objectID))) }
        for removal in changes.deleted {
            delete(self.object(with: _currentID(for: removal.objectID)))
        }
        processPendingChanges()
        // The parent keeps the new objects' temporary IDs.
        return StoreSaveResult(
            insertedIDs: changes.inserted.map(\.objectID), permanentIDs: PermanentIDTable(),
            insertedVersion: nil, versions: versions)
    }
}
