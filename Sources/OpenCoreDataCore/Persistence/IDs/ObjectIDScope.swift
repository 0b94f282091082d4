/// What the permanent IDs of one entity in one store share: the entity, the store's reference, and
/// their part of the IDs' hash.
///
/// A fetch names each row it reads by its scope and primary key (``ObjectIdentity/row(_:primaryKey:)``)
/// and makes the row's `NSManagedObjectID` only when something asks for it: most fetched objects are read
/// and let go without anyone asking, and an ID was a heap allocation for every row.
// @unchecked Sendable: every property is a `let`; the entity belongs to a model that is immutable once a
// store uses it, and the store reference is itself Sendable.
final class ObjectIDScope: @unchecked Sendable {
    /// The entity of the IDs.
    let entity: NSEntityDescription
    /// The store of the IDs and its identifier.
    let store: ObjectIDStoreReference
    /// The IDs' ``NSManagedObjectID/hashBase(storeIdentifier:entity:)``.
    let hashBase: Int

    init(entity: NSEntityDescription, store: ObjectIDStoreReference) {
        self.entity = entity
        self.store = store
        hashBase = NSManagedObjectID.hashBase(storeIdentifier: store.identifier, entity: entity)
    }

    /// A new ID for the row with the given primary key.
    @inline(__always)
    func objectID(primaryKey: Int64) -> NSManagedObjectID {
        NSManagedObjectID(entity: entity, store: store, primaryKey: primaryKey, hashBase: hashBase)
    }
}
