import Foundation

extension NSPersistentStoreCoordinator {
    /// Copies a store's objects into the store of a type at a location, adds that store and removes the
    /// old one; returns the new store. Objects get new IDs in the new store.
    ///
    /// - Throws: a validation error when an object of the store fails the model's validation, or an error
    ///   naming the location when the new store cannot be opened, created or written; the old store stays
    ///   in the coordinator then.
    @discardableResult
    public func migratePersistentStore(
        _ store: NSPersistentStore, to url: URL, options: [AnyHashable: Any]? = nil,
        type storeType: NSPersistentStore.StoreType
    ) throws -> NSPersistentStore {
        try migratePersistentStore(store, to: url, options: options, withType: storeType.rawValue)
    }

    /// Copies a store's objects into the store of a named type at a location, adds that store and removes
    /// the old one; returns the new store.
    ///
    /// Every object of the store is validated first, as a save validates an inserted object
    /// (`validateForInsert()`): one failure is thrown as is, several as `NSValidationMultipleErrorsError`.
    /// When a store is already at `url`, the objects are added to it and its own objects stay; otherwise
    /// a store is created there. The copy is one transaction: when it fails, a store that was at `url`
    /// keeps exactly its rows and a store this call created is removed.
    ///
    /// Posts `NSPersistentStoreCoordinatorWillRemoveStore` for the old store, then one
    /// `NSPersistentStoreCoordinatorStoresDidChange` naming the new store under `NSAddedPersistentStoresKey`,
    /// the old one under `NSRemovedPersistentStoresKey`, and both (old, new) under
    /// `NSUUIDChangedPersistentStoresKey`.
    @discardableResult
    public func migratePersistentStore(
        _ store: NSPersistentStore, to url: URL, options: [AnyHashable: Any]? = nil,
        withType storeType: String
    ) throws -> NSPersistentStore {
        try _validateObjects(of: store)
        let newStore = try _migratePersistentStore(store, to: url, options: options, withType: storeType)
        _postStoresDidChange(added: [newStore], removed: [store], uuidChanged: [store, newStore])
        return newStore
    }

    /// Validates every object of `store` as a save validates an object it inserts, in a private context
    /// of this coordinator that is let go afterwards.
    private func _validateObjects(of store: NSPersistentStore) throws {
        guard persistentStores.contains(where: { $0 === store }) else { return }
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = self
        context.undoManager = nil
        try context.performAndWait {
            var errors: [NSError] = []
            let configuration = store.configurationName == "PF_DEFAULT_CONFIGURATION_NAME" ? nil : store.configurationName
            let entities = managedObjectModel.entities(forConfigurationName: configuration) ?? managedObjectModel.entities
            for entity in entities where entity.superentity.map({ !entities.contains($0) }) ?? true {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity.name ?? "")
                request.entity = entity
                request.affectedStores = [store]
                request.includesSubentities = true
                request.returnsObjectsAsFaults = false
                for object in try context.fetch(request) {
                    do {
                        try object.validateForInsert()
                    } catch let error as NSError {
                        NSManagedObject.collectValidationError(error, into: &errors)
                    }
                }
                context.reset()
            }
            try NSManagedObject.throwValidationErrors(errors)
        }
    }
}
