extension NSManagedObjectContext {
    /// The query generation the context's reads are pinned to, or `nil` when it reads the stores'
    /// latest contents. A child context reads through its parent, so it reports its parent's
    /// generation.
    public var queryGenerationToken: NSQueryGenerationToken? {
        guard let parent = _links.parent else { return _links.queryGeneration }
        return parent.performAndWait { parent.queryGenerationToken }
    }

    /// Pins the context's reads to a query generation, or unpins them with `nil`.
    ///
    /// With ``NSQueryGenerationToken/current`` the context reads the stores' contents as they are now,
    /// however other contexts write afterwards — fetches of every result type, counts, faults,
    /// batched faults, relationship faults and prefetching alike — until it saves, merges changes,
    /// refreshes all its objects or is reset: then it moves to the newest generation and stays pinned
    /// to it. Another context's token pins this context to that context's generation. Throws when the
    /// token belongs to stores the context's coordinator does not have, or when a child context is
    /// pinned (a child reads its parent, and so its parent's generation).
    public func setQueryGenerationFrom(_ generation: NSQueryGenerationToken?) throws {
        guard let generation else {
            _links.queryGeneration = nil
            return
        }
        if _links.parent != nil {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreOperationError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "Query generations pin the reads of a context connected to a coordinator; a child context reads its parent."
                ])
        }
        let coordinator = try requireCoordinator()
        if generation.isCurrentMarker {
            _links.queryGeneration = try NSQueryGenerationToken.make(for: coordinator.persistentStores)
            return
        }
        let identifiers = Set(coordinator.persistentStores.compactMap(\.identifier))
        guard generation.snapshots.keys.allSatisfy(identifiers.contains) else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreOperationError,
                userInfo: [
                    NSLocalizedDescriptionKey: "The query generation token belongs to stores the context's coordinator does not have."
                ])
        }
        _links.queryGeneration = generation
    }

    /// Whether the context is pinned and its generation is not yet the one reads on this thread use:
    /// its public read entry points then run again inside ``_readingQueryGeneration(_:)``.
    ///
    /// Inlined: every fault a fetch made asks when it fires, and an unpinned context (the usual case)
    /// answers with one load, where the call cost more than the question.
    var _needsQueryGenerationScope: Bool {
        @inline(__always) get {
            guard let token = _links.queryGeneration else { return false }
            return QueryGenerationScope.current !== token
        }
    }

    /// Runs reads with the context's pinned generation as the generation every store read uses —
    /// including reads that go to the coordinator directly rather than through the context's object
    /// source (prefetching, dictionary fetches, batched faults, chunked asynchronous fetches).
    func _readingQueryGeneration<T>(_ body: () throws -> T) rethrows -> T {
        guard let token = _links.queryGeneration, QueryGenerationScope.current !== token else { return try body() }
        return try QueryGenerationScope.withPinned(token, body)
    }

    /// Moves a pinned context to the newest generation (after it saved, merged, refreshed everything
    /// or was reset).
    func _advanceQueryGeneration() {
        guard _links.queryGeneration != nil, let coordinator = _coordinator else { return }
        if let token = try? NSQueryGenerationToken.make(for: coordinator.persistentStores) {
            _links.queryGeneration = token
        }
    }
}

/// A coordinator seen by a context pinned to a query generation: every read runs against the
/// generation's snapshots, past the coordinator's row cache. Saves go to the stores as usual.
final class PinnedCoordinatorSource: ContextObjectSource {
    let coordinator: NSPersistentStoreCoordinator
    let token: NSQueryGenerationToken

    init(_ coordinator: NSPersistentStoreCoordinator, token: NSQueryGenerationToken) {
        self.coordinator = coordinator
        self.token = token
    }

    private func pinned<T>(_ body: () throws -> T) rethrows -> T {
        try QueryGenerationScope.withPinned(token) { try body() }
    }

    func _entity<Result>(of request: NSFetchRequest<Result>) throws -> NSEntityDescription {
        try coordinator._entity(of: request)
    }

    func fetchRows<Result>(_ request: NSFetchRequest<Result>) throws -> [StoreRow] {
        try pinned { try coordinator.fetchRows(request) }
    }

    func fetchObjectIDs<Result>(_ request: NSFetchRequest<Result>) throws -> [NSManagedObjectID] {
        try pinned { try coordinator.fetchObjectIDs(request) }
    }

    func count<Result>(_ request: NSFetchRequest<Result>) throws -> Int {
        try pinned { try coordinator.count(request) }
    }

    func row(for objectID: NSManagedObjectID) throws -> StoreRow? {
        try pinned { try coordinator.row(for: objectID) }
    }

    func freshRow(for objectID: NSManagedObjectID) throws -> StoreRow? {
        try pinned { try coordinator.row(for: objectID) }
    }

    func relatedObjectIDs(for relationship: NSRelationshipDescription, of objectID: NSManagedObjectID) throws -> [NSManagedObjectID] {
        try pinned { try coordinator.relatedObjectIDs(for: relationship, of: objectID) }
    }

    func obtainPermanentIDs(
        for temporaryIDs: [NSManagedObjectID],
        assignedStores: [NSManagedObjectID: NSPersistentStore]
    ) throws -> [NSManagedObjectID: NSManagedObjectID] {
        try coordinator.obtainPermanentIDs(for: temporaryIDs, assignedStores: assignedStores)
    }

    func save(_ changes: StoreSaveChanges) throws -> StoreSaveResult {
        try coordinator.save(changes)
    }
}
