/// Creates the objects of rows a context registers: the class's `init(entity:insertInto:)` runs, as for
/// every managed object, but the object takes the row's identity directly instead of a temporary ID (its
/// permanent ID, or the scope and primary key a fetched row names it by, from which the object makes its
/// ID when asked for it), and no default values (its values come from its row).
///
/// The identity waits in a per-thread slot while the initializer runs; `NSManagedObject`'s initializer
/// takes it when both the entity and the object's class match, so an object a subclass's initializer (or
/// one of its stored-property initializers, which run first) creates for another purpose is not affected.
/// An initializer that hands its superclass another entity leaves the identity waiting: the object is
/// then given the row's identity after its initializer returns. Values an initializer sets are dropped with their changes:
/// a fetched object's values are its row's.
enum FetchedObjectConstruction {
    private static var pendingIdentity: ThreadPointerSlot {
        @inline(__always) get { ThreadPointerSlot(.pendingIdentity) }
    }

    /// What waits in the per-thread slot: the row's identity (the caller keeps it) and the class being
    /// initialized for it.
    private struct Pending {
        let identity: UnsafePointer<ObjectIdentity>
        let type: ObjectIdentifier
    }

    /// A new instance of `type` for the row `identity` names, not yet registered with a context.
    static func make(_ type: NSManagedObject.Type, for identity: UnsafePointer<ObjectIdentity>) -> NSManagedObject {
        // Another construction may be waiting on this thread (this one runs inside its initializer): the
        // slot gives it back afterwards.
        let (object, taken) = withUnsafePointer(to: Pending(identity: identity, type: ObjectIdentifier(type))) { pending in
            pendingIdentity.with(pending) {
                let object = type.init(entity: identity.pointee.entity, insertInto: nil)
                // The initializer empties the slot when it takes the identity.
                return (object, pendingIdentity.pointer == nil)
            }
        }
        if !taken || !object.changedKeys.isEmpty || !object.valuesAtLastEvent.isEmpty {
            // The initializer gave its superclass another entity (the object did not take the identity),
            // or set values: the object starts with the row's identity and no values or changes, which
            // the row brings.
            object._setRowIdentity(identity.pointee)
            object.storage = .none
            object.changedKeys.removeAll()
            object.valuesAtLastEvent.removeAll()
        }
        return object
    }

    /// The identity waiting for an object of `entity` and class `type` on this thread, taken so that no
    /// other object gets it; the caller of `make` keeps it while the initializer runs.
    @inline(__always)
    static func takeIdentity(for entity: NSEntityDescription, of type: NSManagedObject.Type) -> UnsafePointer<ObjectIdentity>? {
        guard let slot = pendingIdentity.pointer else { return nil }
        let pending = slot.assumingMemoryBound(to: Pending.self).pointee
        guard pending.type == ObjectIdentifier(type), pending.identity.pointee.entity === entity else { return nil }
        pendingIdentity.clear()
        return pending.identity
    }
}
