/// Running an ``NSAsynchronousFetchRequest``: the fetch is queued on the context's queue; managed
/// objects are read one batch at a time so that the progress advances and a cancellation stops the
/// fetch between batches.
extension NSAsynchronousFetchRequest: ContextExecutableRequest {
    /// The number of rows read between two progress updates when the request sets no batch size.
    static var defaultChunkSize: Int { 100 }

    /// Queues the fetch on the context's queue and returns its result at once.
    func execute(in context: NSManagedObjectContext) throws -> NSPersistentStoreResult {
        _ = try context.requireCoordinator()
        let progress = Progress(totalUnitCount: Int64(max(estimatedResultCount, 0)))
        let result = NSAsynchronousFetchResult(fetchRequest: self, context: context, progress: progress)
        context.perform { [self] in
            run(result, in: context, progress: progress)
        }
        return result
    }

    /// Runs the fetch on the context's queue, then calls the completion block there.
    private func run(_ result: NSAsynchronousFetchResult<ResultType>, in context: NSManagedObjectContext, progress: Progress) {
        do {
            let results = try fetch(in: context, progress: progress)
            result._setFinalResult(results)
        } catch {
            result._setOperationError(error)
        }
        completionBlock?(result)
    }

    /// The results, read batch by batch; throws `NSUserCancelledError` when the progress is cancelled
    /// between two batches. A fetch cancelled before it starts (within the block that executed it) reads
    /// nothing and ends with an empty result and no error, as Apple's Core Data's does.
    private func fetch(in context: NSManagedObjectContext, progress: Progress) throws -> [ResultType] {
        if progress.isCancelled { return [] }
        let request = fetchRequest
        let objects = try context.fetchInChunks(request, chunkSize: request.fetchBatchSize > 0 ? request.fetchBatchSize : Self.defaultChunkSize) {
            done, total in
            if progress.totalUnitCount != Int64(total) { progress.totalUnitCount = Int64(total) }
            progress.completedUnitCount = Int64(done)
            try Self.checkCancelled(progress)
        }
        let results = try objects.map { object in
            guard let typed = object as? ResultType else {
                throw NSError(
                    domain: NSCocoaErrorDomain, code: NSCoreDataError,
                    userInfo: [
                        NSLocalizedDescriptionKey: "The asynchronous fetch returned \(type(of: object)), which is not \(ResultType.self)."
                    ])
            }
            return typed
        }
        progress.completedUnitCount = progress.totalUnitCount
        return results
    }

    private static func checkCancelled(_ progress: Progress) throws {
        guard progress.isCancelled else { return }
        throw NSError(
            domain: NSCocoaErrorDomain, code: CocoaError.Code.userCancelled.rawValue,
            userInfo: [
                NSLocalizedDescriptionKey: "The asynchronous fetch was cancelled."
            ])
    }
}

extension NSManagedObjectContext {
    /// A fetch whose managed objects are read `chunkSize` rows at a time, calling `step` with the
    /// number read and the total after each chunk (`step` may throw to stop). Other result types, and
    /// fetches with pending changes to take into account, are read in one step.
    func fetchInChunks<T>(
        _ request: NSFetchRequest<T>, chunkSize: Int,
        step: (_ done: Int, _ total: Int) throws -> Void
    ) throws -> [Any] {
        if _needsQueryGenerationScope { return try _readingQueryGeneration { try fetchInChunks(request, chunkSize: chunkSize, step: step) } }
        if let type = T.self as? NSManagedObject.Type { ManagedObjectClasses.remember(type) }
        let coordinator = try requireCoordinator()
        let entity = try coordinator._entity(of: request)
        guard request.resultType == .managedObjectResultType,
            !hasPendingChanges(for: request, entity: entity)
        else {
            let all = try fetch(request)
            try step(all.count, all.count)
            return all
        }
        let idRequest = NSFetchRequest<NSManagedObjectID>()
        idRequest._entity = entity
        idRequest._entityName = entity.name
        idRequest._affectedStores = request._affectedStores
        idRequest._predicate = request.predicate
        idRequest._sortDescriptors = request.sortDescriptors
        idRequest._fetchLimit = request.fetchLimit
        idRequest._fetchOffset = request.fetchOffset
        idRequest._includesSubentities = request.includesSubentities
        let ids = try coordinator.fetchObjectIDs(idRequest)
        try step(0, ids.count)
        var objects: [Any] = []
        objects.reserveCapacity(ids.count)
        var start = 0
        while start < ids.count {
            let chunk = Array(ids[start..<min(start + max(chunkSize, 1), ids.count)])
            let rows = try coordinator.fetchRows(for: chunk, entity: entity, affectedStores: request._affectedStores)
            // By identity: a fetched row has no ID to key by until something asks for one.
            let rowsByIdentity = ObjectIDMap(indexing: rows)
            for id in chunk {
                guard let row = rowsByIdentity[id] else { continue }
                objects.append(registeredObject(for: row, asFault: false, refresh: request.shouldRefreshRefetchedObjects))
            }
            start += chunk.count
            try step(start, ids.count)
        }
        return objects
    }

    /// Whether the context holds inserted, changed or deleted objects a fetch would take into account.
    private func hasPendingChanges<T>(for request: NSFetchRequest<T>, entity: NSEntityDescription) -> Bool {
        guard request.includesPendingChanges else { return false }
        return (Array(_inserted.values) + Array(_updated.values) + Array(_deleted.values)).contains { object in
            request.includesSubentities ? object.entity.isKindOf(entity: entity) : object.entity === entity
        }
    }
}
