/// Creates the objects of rows a context registers: the class's `init(entity:insertInto:)` runs, as for
/// every managed object, but the object takes the row's permanent ID directly instead of a temporary ID,
/// and no default values (its values come from its row).
///
/// The ID waits in a per-thread slot while the initializer runs; `NSManagedObject`'s initializer takes it
/// when both the entity and the object's class match, so an object a subclass's initializer (or one of its
/// stored-property initializers, which run first) creates for another purpose is not affected. An
/// initializer that hands its superclass another entity leaves the ID waiting: the object is then given
/// the row's ID after its initializer returns. Values an initializer sets are dropped with their changes:
/// a fetched object's values are its row's.
enum FetchedObjectConstruction {
    private static let pendingID = ThreadPointerSlot()

    /// What waits in the per-thread slot: the row's ID and the class being initialized for it.
    private struct Pending {
        let objectID: Unmanaged<NSManagedObjectID>
        let type: ObjectIdentifier
    }

    /// A new instance of `type` for the permanent ID `objectID`, not yet registered with a context.
    static func make(_ type: NSManagedObject.Type, for objectID: NSManagedObjectID) -> NSManagedObject {
        // Another construction may be waiting on this thread (this one runs inside its initializer): the
        // slot gives it back afterwards.
        let object = withUnsafePointer(to: Pending(objectID: .passUnretained(objectID), type: ObjectIdentifier(type))) { pending in
            pendingID.with(pending) { type.init(entity: objectID.entity, insertInto: nil) }
        }
        if object._objectID !== objectID || !object.changedKeys.isEmpty || !object.valuesAtLastEvent.isEmpty {
            // The initializer gave its superclass another entity (the object did not take the ID), or set
            // values: the object starts with the row's ID and no values or changes, which the row brings.
            object._objectID = objectID
            object.storage = PropertyValues(layout: .empty)
            object.changedKeys.removeAll()
            object.valuesAtLastEvent.removeAll()
        }
        return object
    }

    /// The ID waiting for an object of `entity` and class `type` on this thread, taken so that no other
    /// object gets it.
    @inline(__always)
    static func takeID(for entity: NSEntityDescription, of type: NSManagedObject.Type) -> NSManagedObjectID? {
        guard let slot = pendingID.pointer else { return nil }
        let pending = slot.assumingMemoryBound(to: Pending.self).pointee
        guard pending.type == ObjectIdentifier(type) else { return nil }
        let objectID = pending.objectID.takeUnretainedValue()
        guard objectID.entity === entity else { return nil }
        pendingID.clear()
        return objectID
    }
}
