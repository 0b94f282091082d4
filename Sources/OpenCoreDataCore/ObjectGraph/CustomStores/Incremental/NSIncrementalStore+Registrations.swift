import Foundation

/// The objects each context has in use, as the store was told through
/// ``NSIncrementalStore/managedObjectContextDidRegisterObjects(with:)`` and
/// ``NSIncrementalStore/managedObjectContextDidUnregisterObjects(with:)``: each ID is reported once
/// while a context has it, and reported gone when the context lets it go.
extension NSIncrementalStore {
    /// Reports the IDs of the store's objects `context` has registered and not reported before.
    func _noteRegistered(_ ids: [NSManagedObjectID], in context: NSManagedObjectContext) {
        let key = ObjectIdentifier(context)
        let new: [NSManagedObjectID] = _registrationLock.withLock {
            ids.filter { _registered[key, default: []].insert($0).inserted }
        }
        if !new.isEmpty { managedObjectContextDidRegisterObjects(with: new) }
    }

    /// Reports the IDs `context` let go of among those reported registered.
    func _noteUnregistered(_ ids: [NSManagedObjectID], in context: ObjectIdentifier) {
        let gone: [NSManagedObjectID] = _registrationLock.withLock {
            guard _registered[context] != nil else { return [] }
            let gone = ids.filter { _registered[context]?.remove($0) != nil }
            if _registered[context]?.isEmpty == true { _registered[context] = nil }
            return gone
        }
        if !gone.isEmpty { managedObjectContextDidUnregisterObjects(with: gone) }
    }

    /// Tells the incremental stores of a coordinator which of their objects a context let go of.
    static func _contextDidRelease(
        _ identities: [ObjectIdentity], context: ObjectIdentifier,
        coordinator: NSPersistentStoreCoordinator
    ) {
        let stores = coordinator.persistentStores.compactMap { $0 as? NSIncrementalStore }
        guard !stores.isEmpty, !identities.isEmpty else { return }
        for store in stores {
            let identifier = store.identifier
            let ids = identities.filter { $0.storeIdentifier == identifier }.map(\.objectID)
            if !ids.isEmpty { store._noteUnregistered(ids, in: context) }
        }
    }
}
