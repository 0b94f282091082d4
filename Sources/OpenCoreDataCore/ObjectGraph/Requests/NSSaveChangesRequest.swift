import Foundation

/// A request a context passes to a persistent store to save its changes: the objects to insert, update
/// and delete, and the objects to lock (whose versions the store checks without changing them).
///
/// A store written with the incremental-store API receives one from `execute(_:with:)` for each save.
open class NSSaveChangesRequest: NSPersistentStoreRequest {
    private let _insertedObjects: Set<NSManagedObject>?
    private let _updatedObjects: Set<NSManagedObject>?
    private let _deletedObjects: Set<NSManagedObject>?
    private let _lockedObjects: Set<NSManagedObject>?

    /// Creates a save request with the objects to insert, update, delete and lock.
    public init(
        inserted insertedObjects: Set<NSManagedObject>?, updated updatedObjects: Set<NSManagedObject>?,
        deleted deletedObjects: Set<NSManagedObject>?, locked lockedObjects: Set<NSManagedObject>?
    ) {
        _insertedObjects = insertedObjects
        _updatedObjects = updatedObjects
        _deletedObjects = deletedObjects
        _lockedObjects = lockedObjects
        super.init(requestType: .saveRequestType)
    }

    /// The objects to insert in the store.
    open var insertedObjects: Set<NSManagedObject>? { _insertedObjects }

    /// The objects to update in the store.
    open var updatedObjects: Set<NSManagedObject>? { _updatedObjects }

    /// The objects to delete from the store.
    open var deletedObjects: Set<NSManagedObject>? { _deletedObjects }

    /// The objects whose stored versions must not have changed since they were read, though the save
    /// does not change them.
    open var lockedObjects: Set<NSManagedObject>? { _lockedObjects }

    /// Returns a copy of the request.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSSaveChangesRequest(
            inserted: _insertedObjects, updated: _updatedObjects,
            deleted: _deletedObjects, locked: _lockedObjects)
        copy._affectedStores = _affectedStores
        return copy
    }
}
