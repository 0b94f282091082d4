/// The pending batches of a context's batched fetches (`fetchBatchSize` > 0).
///
/// A batched fetch reads only the identities of the matching rows (no `NSManagedObjectID` is made for
/// them) and returns faults; each fault's batch is found by the fault's identity. When one of them
/// fires, the rows of its whole batch are read with one request and every fault of the batch still
/// waiting is filled. Only the most recently filled batches keep their values: when a batch leaves that
/// window, its unchanged objects turn back into faults (their rows leave the row cache too) and wait for
/// the batch again, so scanning a long result costs memory for a few batches, not for every row touched.
///
/// The registry refers to no object: a result the app lets go of leaves the context as any other
/// unreferenced object does (`RegisteredObjectRetention.swift`), and its entry here goes with it.
// Not Sendable: used only on its context's queue, like the rest of the context's state.
final class FetchBatchRegistry {
    /// One batch: the identities of consecutive results and the request's store restriction.
    final class Batch {
        let identities: [ObjectIdentity]
        let entity: NSEntityDescription
        let affectedStores: [AnyObject]?

        init(identities: [ObjectIdentity], entity: NSEntityDescription, affectedStores: [AnyObject]?) {
            self.identities = identities
            self.entity = entity
            self.affectedStores = affectedStores
        }
    }

    /// The batch each waiting object belongs to, by the object's identity: pages of consecutive primary
    /// keys, so that a result of a million rows costs a few bytes an entry, not a hash-table entry and
    /// an ID each.
    private var batches = ObjectIDMap<Batch>()

    /// The batches filled most recently, oldest first.
    private var loaded: [Batch] = []

    /// How many filled batches keep their values; older ones turn back into faults.
    static let loadedBatchLimit = 4

    /// Remembers the batches of a result.
    func register(_ identities: [ObjectIdentity], batchSize: Int, entity: NSEntityDescription, affectedStores: [AnyObject]?) {
        var start = 0
        while start < identities.count {
            let chunk = Array(identities[start..<min(start + batchSize, identities.count)])
            let batch = Batch(identities: chunk, entity: entity, affectedStores: affectedStores)
            for identity in chunk { batches.updateValue(batch, forIdentity: identity) }
            start += batchSize
        }
    }

    /// Whether no object waits for a batch (checked before every other lookup: most faults have none).
    var isEmpty: Bool {
        @inline(__always) get { batches.count == 0 }
    }

    /// Removes and returns the batch of an object, if it has one not loaded yet.
    func take(_ identity: ObjectIdentity) -> Batch? {
        guard let batch = batches[identity] else { return nil }
        for member in batch.identities where batches[member] === batch {
            batches.removeValue(forIdentity: member) { _ in true }
        }
        return batch
    }

    /// Notes that a batch was filled; returns the batch that leaves the window of filled batches, if any.
    func noteLoaded(_ batch: Batch) -> Batch? {
        loaded.removeAll { $0 === batch }
        loaded.append(batch)
        guard loaded.count > Self.loadedBatchLimit else { return nil }
        return loaded.removeFirst()
    }

    /// Makes some objects of a batch wait for it again.
    func restore(_ identities: [ObjectIdentity], to batch: Batch) {
        for identity in identities { batches.updateValue(batch, forIdentity: identity) }
    }

    /// Forgets the entries of objects the context let go of: nothing will fire them.
    func forget(_ identities: [ObjectIdentity]) {
        guard !isEmpty else { return }
        for identity in identities { batches.removeValue(forIdentity: identity) { _ in true } }
        if batches.count == 0 { loaded = [] }
    }

    /// Forgets every pending batch.
    func removeAll() {
        batches.removeAll()
        loaded = []
    }

    /// The number of objects whose batch has not been loaded.
    var pendingCount: Int { batches.count }
}

extension NSManagedObjectContext {
    /// The results of a batched fetch: faults for the identities, filled one batch at a time.
    func batchedObjects(
        _ identities: [ObjectIdentity], batchSize: Int, entity: NSEntityDescription,
        affectedStores: [AnyObject]?
    ) -> [NSManagedObject] {
        var objects: [NSManagedObject] = []
        objects.reserveCapacity(identities.count)
        var waiting: [ObjectIdentity] = []
        waiting.reserveCapacity(identities.count)
        for identity in identities {
            let object = _object(forIdentity: identity)
            objects.append(object)
            // The registered object's own identity: the same row, and the key its fault fires with.
            if object._isFault { waiting.append(object._identity) }
        }
        _fetchBatches.register(waiting, batchSize: batchSize, entity: entity, affectedStores: affectedStores)
        return objects
    }

    /// Fills a firing fault and the other faults of its batch from one fetch of the batch's rows;
    /// `false` when the object has no pending batch or its row is gone.
    func _fulfillFromFetchBatch(_ object: NSManagedObject) -> Bool {
        guard !_fetchBatches.isEmpty, let batch = _fetchBatches.take(object._identity),
            let coordinator = _coordinator
        else { return false }
        // The IDs of the waiting faults, made for the query and let go of after it.
        let waiting = batch.identities.compactMap { identity -> NSManagedObjectID? in
            guard let registered = registry[identity], registered === object || registered._isFault else { return nil }
            return identity.objectID
        }
        guard !waiting.isEmpty else { return false }
        guard let rows = _fetchBatchRows(waiting, of: batch, from: coordinator) else { return false }
        var filled = false
        for row in rows {
            // Found by the row's identity: the firing object is registered like its batch's others.
            guard let registered = registry[row.identity] else { continue }
            if registered === object {
                fulfill(object, from: row)
                filled = true
            } else if registered._isFault {
                fulfill(registered, from: row)
            }
        }
        if let expired = _fetchBatches.noteLoaded(batch) {
            _releaseFetchBatch(expired, keeping: object, coordinator: coordinator)
        }
        return filled
    }

    /// Turns the unchanged objects of a batch that left the window back into faults waiting for that
    /// batch, and lets the row cache forget their rows. Objects with unsaved changes, and the object
    /// being read, keep their values.
    private func _releaseFetchBatch(
        _ batch: FetchBatchRegistry.Batch, keeping current: NSManagedObject,
        coordinator: NSPersistentStoreCoordinator
    ) {
        var released: [ObjectIdentity] = []
        released.reserveCapacity(batch.identities.count)
        for identity in batch.identities {
            guard let object = registry[identity], object !== current, !object._isFault, !object.hasChanges,
                object.changedKeys.isEmpty, object.valuesAtLastEvent.isEmpty
            else { continue }
            _turnIntoFault(object, keepingTransients: true)
            released.append(identity)
        }
        _fetchBatches.restore(released, to: batch)
        // No object holds those rows now (unless another context's does, whose faults keep firing from it).
        coordinator._rowCache.forgetUnheldRows(of: released)
    }
}
