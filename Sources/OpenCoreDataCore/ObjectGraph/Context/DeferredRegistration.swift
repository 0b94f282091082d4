/// Objects a fetch registers without indexing them by ID until the context next needs the index.
///
/// A fetch into a context that holds no objects makes a new fault for every row. Putting each in the
/// registry's index was about a tenth of a large fetch, and a fetch whose objects are read and let go
/// never looks one of them up by ID. So such a fetch registers its objects (each belongs to the context,
/// which keeps them as it keeps every registered object) as the one array the fetch returns, and the
/// next use of the registry (a lookup by ID, another fetch, a save, `registeredObjects`) indexes them
/// first. The work moves to that use; nothing about the objects differs.
extension NSManagedObjectContext {
    /// The registered objects, indexed by ID. Reading or changing it first indexes the objects of
    /// fetches registered without an index.
    final var registry: ObjectIDMap<NSManagedObject> {
        _read {
            if !_unindexedObjects.isEmpty { _indexUnindexedObjects() }
            yield _indexedRegistry
        }
        _modify {
            if !_unindexedObjects.isEmpty { _indexUnindexedObjects() }
            _registryChanges &+= 1
            yield &_indexedRegistry
        }
    }

    /// Registers the new objects of one fetch, made while the registry counted `changesBefore` changes,
    /// without indexing them. Should code the fetch called (an entity class's initializer) have
    /// registered objects meanwhile, the objects are indexed one by one instead, and a row's object
    /// registered meanwhile replaces the fetch's own at its place in `objects`. Returns `false` when the
    /// objects were indexed one by one, and some of them may have been replaced.
    func _registerWithoutIndex(
        _ objects: inout [NSManagedObject], registryChangesBefore changesBefore: UInt64,
        refresh: Bool
    ) -> Bool {
        guard !objects.isEmpty else { return true }
        // Every change to the registry, and every array of unindexed objects added, counts a change.
        guard _registryChanges == changesBefore else {
            _registerEach(&objects, refresh: refresh)
            return false
        }
        _unindexedObjects.append(objects)
        _registryChanges &+= 1
        return true
    }

    /// Indexes new objects of one fetch one by one: an object registered for the same ID meanwhile stays
    /// registered and takes the new object's place (refreshed from the new object's row when the fetch
    /// refreshes objects and it has no changes), and the new object leaves the context.
    private func _registerEach(_ objects: inout [NSManagedObject], refresh: Bool) {
        for index in objects.indices {
            let object = objects[index]
            let identity = object._identity
            guard let registered = registry.updateValue(object, forIdentity: identity), registered !== object else { continue }
            registry.updateValue(registered, forIdentity: identity)
            object._context = nil
            if !registered._isFault, refresh, !registered.hasChanges {
                fulfill(registered, values: object.snapshot, version: object.snapshotVersion)
            }
            objects[index] = registered
        }
    }

    /// Puts the objects of fetches registered without an index into the index.
    @inline(never)
    final func _indexUnindexedObjects() {
        let batches = _unindexedObjects
        _unindexedObjects = []
        if _indexedRegistry.isEmpty {
            _indexedRegistry.reserveCapacity(batches.reduce(0) { $0 + $1.count })
        }
        for batch in batches {
            for object in batch where object._belongs(to: self) {
                let identity = object._identity
                // Each fetch registered without an index only into a context with no other objects, and
                // indexes are made in order, so an ID is never registered twice; should it be, the object
                // registered first stays.
                if let registered = _indexedRegistry.updateValue(object, forIdentity: identity), registered !== object {
                    _indexedRegistry.updateValue(registered, forIdentity: identity)
                    object._context = nil
                }
            }
        }
    }

    /// Clears the context reference of the objects of fetches registered without an index, and lets go
    /// of them, without indexing them first.
    ///
    /// The objects are let go last-made first. Let go in the order they were made, a large fetch's
    /// objects (made one after another at the end of the heap) gave glibc's allocator one free block at
    /// its end, which it returned to the system; the next fetch of the same size then took a page fault
    /// for every 4 KiB of its objects (about 11,000 for 200,000 objects). Last-made first, the memory
    /// stays with the process for the next fetch, as it did when the registry's index let go of them.
    /// (A fetch's array the app still holds is copied to be emptied; its objects outlive the context.)
    /// Appends the identities of the objects with permanent IDs to `identities`.
    func _disconnectUnindexedObjects(collectingIdentitiesInto identities: inout [ObjectIdentity]) {
        var batches = _unindexedObjects
        _unindexedObjects = []
        while var batch = batches.popLast() {
            // Letting go of an object releases its ID and its values, which a large fetch has long
            // since moved out of the processor's caches: they are asked for some objects ahead.
            while !batch.isEmpty {
                batch.withUnsafeBufferPointer { objects in
                    ObjectPassPrefetch.prefetch(objects, before: objects.count &- 1, parts: [.objectID, .values, .snapshot])
                }
                let object = batch.removeLast()
                if object._belongs(to: self) { object._context = nil }
                if let identity = object._permanentIdentity { identities.append(identity) }
            }
        }
    }
}
