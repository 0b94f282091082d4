/// The store a new object goes to when its context assigned one (`NSManagedObjectContext.assign(_:to:)`).
extension NSPersistentStoreCoordinator {
    /// A store and an entity, as a dictionary key for grouping new objects.
    struct StoreEntityKey: Hashable {
        let store: ObjectIdentifier
        let entity: ObjectIdentifier
    }

    /// The store a new object is written to: the assigned store when there is one, which must be one of
    /// the coordinator's stores and whose configuration must include the object's entity; otherwise the
    /// first store that holds the entity.
    func _storeForInserting(_ objectID: NSManagedObjectID, assignedTo assigned: NSPersistentStore?) throws -> NSPersistentStore {
        guard let store = assigned else { return try _storeForInserting(objectID.entity) }
        let entityName = objectID.entity.name ?? "(unnamed)"
        guard persistentStores.contains(where: { $0 === store }) else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreSaveError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "A new object of entity \(entityName) was assigned to the store at \(store.url?.path ?? "(no location)"), which is not a store of this coordinator (it was removed, or belongs to another coordinator).",
                    NSAffectedStoresErrorKey: [store],
                    NSAffectedObjectsErrorKey: [objectID],
                ])
        }
        guard _store(store, holds: objectID.entity) else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreIncompatibleSchemaError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "A new object of entity \(entityName) was assigned to the store at \(store.url?.path ?? "(no location)"), whose configuration \"\(store.configurationName)\" does not include that entity.",
                    NSAffectedStoresErrorKey: [store],
                    NSAffectedObjectsErrorKey: [objectID],
                ])
        }
        return store
    }
}
