/// The pending batches of a context's batched fetches (`fetchBatchSize` > 0).
///
/// A batched fetch reads only the matching object IDs and returns faults; each fault remembers its
/// batch. When one of them fires, the rows of its whole batch are read with one request and every
/// fault of the batch still waiting is filled, so a long result costs memory for the batches touched,
/// not for the whole result.
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

    /// Forgets every pending batch.
    func removeAll() {
        batches = [:]
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
        guard let rows = try? coordinator.fetchRows(for: waiting, entity: batch.entity,
                                                    affectedStores: batch.affectedStores) else { return false }
        var filled = false
        for row in rows {
            if row.objectID == object._objectID {
                fulfill(object, from: row)
                filled = true
            } else if let other = registry[row.objectID], other._isFault {
                fulfill(other, from: row)
            }
        }
        return filled
    }
}
