/// How long a context keeps its registered objects.
///
/// A context keeps strong references to the objects with pending changes (inserted, updated or
/// deleted) until it saves or discards them. It keeps the others only while something else does: an
/// object the app no longer refers to leaves the context, and fetching or looking up its ID later gives
/// a new object with the same ID. Set ``NSManagedObjectContext/retainsRegisteredObjects`` to keep every
/// registered object for the life of the context.
extension NSManagedObjectContext {
    /// A Boolean value that indicates whether the context keeps strong references to all registered
    /// managed objects.
    ///
    /// When `true`, the context keeps every registered object until it is reset or deallocated. When
    /// `false` (the default), the context keeps strong references only to objects that are inserted,
    /// updated or deleted; other registered objects stay registered only while something else, such as
    /// the app or a related object, refers to them.
    ///
    /// Related objects refer to each other, so a graph of fetched objects stays in memory while any of
    /// them does; ``refresh(_:mergeChanges:)`` with `false` turns an object back into a fault and breaks
    /// those references.
    public var retainsRegisteredObjects: Bool {
        get { _retainsRegisteredObjects }
        set {
            _checkQueue("retainsRegisteredObjects")
            _retainsRegisteredObjects = newValue
            if !newValue { _releaseUnreferencedObjects(force: true) }
        }
    }

    /// The fewest registered objects without pending changes the context holds before it lets go of
    /// the ones nothing else refers to.
    static var minimumRegistryReleaseThreshold: Int { 4096 }

    /// Lets go of the registered objects without pending changes that nothing outside the registry
    /// refers to, unless the context retains its registered objects. Without `force`, only once the
    /// registry has grown past its threshold (twice what was left after the last time), so that the
    /// work stays in proportion to the objects registered since.
    ///
    /// Called on the context's queue where the context holds no object it relies on the registry to
    /// keep: before fetches and saves, and when `registeredObjects` is read.
    func _releaseUnreferencedObjects(force: Bool = false) {
        guard !_retainsRegisteredObjects else { return }
        let pending = _inserted.count + _updated.count + _deleted.count
        guard force || registry.count - pending >= _registryReleaseThreshold else { return }
        // An object with pending changes is held by its change set too, so it is never the registry's alone.
        var released: [NSManagedObject] = []
        registry.removeValues(where: { isKnownUniquelyReferenced(&$0) }, into: &released)
        _registryReleaseThreshold = max(Self.minimumRegistryReleaseThreshold, 2 * (registry.count - pending))
        guard !released.isEmpty else { return }
        let releasedIdentities = released.compactMap(\._permanentIdentity)
        _fetchBatches.forget(releasedIdentities)
        // The objects are freed here, after the registry is consistent; then the coordinator's cached rows
        // of those objects go too, unless an object of another context holds one.
        released = []
        _forgetUnheldRows(of: releasedIdentities)
    }

    /// Asks the coordinator's row cache to forget the rows of the objects `identities` name that no
    /// object holds any more (see `StoreRowCache.forgetUnheldRows(of:)`). Called once the context has let
    /// go of those objects.
    func _forgetUnheldRows(of identities: [ObjectIdentity]) {
        guard let coordinator = _coordinator else { return }
        coordinator._rowCache.forgetUnheldRows(of: identities)
        if !identities.isEmpty {
            NSIncrementalStore._contextDidRelease(identities, context: ObjectIdentifier(self), coordinator: coordinator)
        }
    }
}
