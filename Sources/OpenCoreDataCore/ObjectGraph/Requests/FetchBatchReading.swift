extension NSManagedObjectContext {
    /// The rows of the faults of a batch (see `fetchBatchSize`), or `nil` when the store fails to read
    /// them: each of those faults then fires on its own, exactly as a fault fetched without a batch size.
    ///
    /// Falling back is right: the batch is only a way of reading many rows with one request. A row the
    /// store cannot read (a damaged value, a missing external data file) must not make the other objects
    /// of its batch unreadable, and the object being read reports its own row's failure the way every
    /// fault does (Core Data raises `NSObjectInaccessibleException`; see `_fulfillFault`). The batch's
    /// failure is written to the SQL debug log, so it is not lost.
    func _fetchBatchRows(
        _ objectIDs: [NSManagedObjectID], of batch: FetchBatchRegistry.Batch,
        from coordinator: NSPersistentStoreCoordinator
    ) -> [StoreRow]? {
        do {
            return try coordinator.fetchRows(for: objectIDs, entity: batch.entity, affectedStores: batch.affectedStores)
        } catch {
            coordinator.sqlDebugLog?.write(
                .annotation,
                "CoreData: annotation: reading a batch of \(objectIDs.count) "
                    + "\(batch.entity.name ?? "?") objects failed (\((error as NSError).localizedDescription)); each object reads its own row")
            return nil
        }
    }
}
