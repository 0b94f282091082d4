/// The pending batches of a context's batched fetches (`fetchBatchSize` > 0).
///
/// A batched fetch reads only the matching object IDs and returns faults; each fault remembers its
/// batch. When one of them fires, the rows of its whole batch are read with one request and every
/// fault of the batch still waiting is filled. Only the most recently filled batches keep their values:
/// when a batch leaves that window, its unchanged objects turn back into faults (their rows leave the
/// row cache too) and wait for the batch again, so scanning a long result costs memory for a few
/// batches, not for every row touched.
// Not Sendable: used only on its context's queue, like the rest of the context's state.
final class FetchBatchRegistry {
    /// One batch: the IDs of consecutive results and the request's store restriction.
    final class Batch {
        let objectIDs: [NSManagedObjectID]
        let entity: NSEntityDescription
        let affectedStores: [AnyObject]?

        init(objectIDs: [NSManagedObjectID], entity: NSEntityDescription, affectedStores: [AnyObject]?) {
            self.objectIDs = objectIDs
            self.entity = entity
            self.affectedStores = affectedStores
        }
    }

    private var batches: [NSManagedObjectID: Batch] = [:]

    /// The batches filled most recently, oldest first.
    private var loaded: [Batch] = []

    /// How many filled batches keep their values; older ones turn back into faults.
    static let loadedBatchLimit = 4

    /// Remembers the batches of a result.
    func register(_ objectIDs: [NSManagedObjectID], batchSize: Int, entity: NSEntityDescription, affectedStores: [AnyObject]?) {
        var start = 0
        while start < objectIDs.count {
            let chunk = Array(objectIDs[start..<min(start + batchSize, objectIDs.count)])
            let batch = Batch(objectIDs: chunk, entity: entity, affectedStores: affectedStores)
            for id in chunk { batches[id] = batch }
            start += batchSize
        }
    }

    /// Removes and returns the batch of an object, if it has one not loaded yet.
    func take(_ objectID: NSManagedObjectID) -> Batch? {
        guard let batch = batches[objectID] else { return nil }
        for id in batch.objectIDs where batches[id] === batch { batches.removeValue(forKey: id) }
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
    func restore(_ objectIDs: [NSManagedObjectID], to batch: Batch) {
        for id in objectIDs { batches[id] = batch }
    }

    /// Forgets every pending batch.
    func removeAll() {
        batches = [:]
        loaded = []
    }

    /// The number of objects whose batch has not been loaded.
    var pendingCount: Int { batches.count }
}

extension NSManagedObjectContext {
    /// The results of a batched fetch: faults for the IDs, filled one batch at a time.
    func batchedObjects(_ objectIDs: [NSManagedObjectID], batchSize: Int, entity: NSEntityDescription,
                        affectedStores: [AnyObject]?) -> [NSManagedObject] {
        let objects = objectIDs.map { object(with: $0) }
        let waiting = objects.filter(\._isFault).map(\.objectID)
        _fetchBatches.register(waiting, batchSize: batchSize, entity: entity, affectedStores: affectedStores)
        return objects
    }

    /// Fills a firing fault and the other faults of its batch from one fetch of the batch's rows;
    /// `false` when the object has no pending batch or its row is gone.
    func _fulfillFromFetchBatch(_ object: NSManagedObject) -> Bool {
        guard let batch = _fetchBatches.take(object._objectID), let coordinator = _coordinator else { return false }
        let waiting = batch.objectIDs.filter { registry[$0]?._isFault == true || $0 == object._objectID }
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
    /// batch, and drops their rows from the row cache. Objects with unsaved changes, and the object
    /// being read, keep their values.
    private func _releaseFetchBatch(_ batch: FetchBatchRegistry.Batch, keeping current: NSManagedObject,
                                    coordinator: NSPersistentStoreCoordinator) {
        var released: [NSManagedObjectID] = []
        released.reserveCapacity(batch.objectIDs.count)
        for id in batch.objectIDs {
            guard let object = registry[id], object !== current, !object._isFault, !object.hasChanges,
                  object.changedKeys.isEmpty, object.valuesAtLastEvent.isEmpty else { continue }
            _turnIntoFault(object, keepingTransients: true)
            released.append(id)
        }
        _fetchBatches.restore(released, to: batch)
        coordinator._rowCache.remove(released)
    }
}
