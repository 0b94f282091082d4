/// Choosing the store a new object is saved in, when several stores of the coordinator hold its entity.
extension NSManagedObjectContext {
    /// Specifies the store in which a newly inserted object will be saved.
    ///
    /// You can obtain a store from the persistent store coordinator, for example with
    /// ``NSPersistentStoreCoordinator/persistentStore(for:)``. It is only necessary to use this method if
    /// the coordinator manages several writable stores whose configurations include the object's entity;
    /// otherwise a new object goes to the first store that holds its entity.
    ///
    /// The assignment holds for ``save()``, for ``obtainPermanentIDs(for:)`` (the permanent ID names the
    /// assigned store), and — in a child context — through the parent, which saves the object to the
    /// same store. Saving fails with `NSPersistentStoreIncompatibleSchemaError` when the store's
    /// configuration does not include the object's entity, and with `NSPersistentStoreSaveError` when the
    /// store is not one of the coordinator's stores; `NSAffectedStoresErrorKey` names the store.
    ///
    /// - Parameters:
    ///   - object: A managed object registered in the context. An object that has already been saved (it
    ///     has a permanent ID) cannot be moved to a different store.
    ///   - store: A persistent store of the context's coordinator.
    public func assign(_ object: Any, to store: NSPersistentStore) {
        _checkQueue("assign(_:to:)")
        guard let object = object as? NSManagedObject else {
            preconditionFailure("assign(_:to:): \(type(of: object)) is not an NSManagedObject.")
        }
        guard object._context === self else {
            preconditionFailure("assign(_:to:): the object \(object._objectID.uriRepresentation().absoluteString) is not registered in this context.")
        }
        let id = object._objectID
        guard id.isTemporaryID else {
            if id.storeIdentifier != store.identifier {
                preconditionFailure("Can't reassign an object to a different store once it has been saved.")
            }
            return
        }
        _storeAssignments[id] = store
    }

    /// The stores assigned to objects about to be saved, by temporary ID. Assignments of objects the
    /// context no longer knows by their temporary ID (saved, rolled back, reset) are forgotten.
    func _assignedStores(forInserted inserted: [NSManagedObject]) -> [NSManagedObjectID: NSPersistentStore] {
        guard !_storeAssignments.isEmpty else { return [:] }
        _storeAssignments = _storeAssignments.filter { id, _ in registry[id] != nil }
        var assigned: [NSManagedObjectID: NSPersistentStore] = [:]
        for object in inserted {
            if let store = _storeAssignments[object._objectID] { assigned[object._objectID] = store }
        }
        return assigned
    }

    /// The stores assigned to some temporary IDs, for obtaining their permanent IDs.
    func _assignedStores(for ids: [NSManagedObjectID]) -> [NSManagedObjectID: NSPersistentStore] {
        guard !_storeAssignments.isEmpty else { return [:] }
        var assigned: [NSManagedObjectID: NSPersistentStore] = [:]
        for id in ids {
            if let store = _storeAssignments[id] { assigned[id] = store }
        }
        return assigned
    }

    /// Takes over a child's assignments for the objects its save inserts here (under the same IDs).
    func _adoptStoreAssignments(_ assigned: [NSManagedObjectID: NSPersistentStore]) {
        for (id, store) in assigned {
            let current = _currentID(for: id)
            if current.isTemporaryID { _storeAssignments[current] = store }
        }
    }
}
