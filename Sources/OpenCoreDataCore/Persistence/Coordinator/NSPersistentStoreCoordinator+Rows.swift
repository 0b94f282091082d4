/// The coordinator's internal API used by managed object contexts: fetching rows and IDs, reading
/// single rows and relationships, obtaining permanent IDs and saving (Seam 2 in GRAPH-SEAMS.md).
extension NSPersistentStoreCoordinator {
    /// Rows of the objects a fetch request selects, in result order (predicate, sorts, limit, offset,
    /// subentities). The rows also refresh the row cache.
    func fetchRows<Result>(_ request: NSFetchRequest<Result>) throws -> [StoreRow] {
        try _fetchCachedRows(request).rows
    }

    /// `fetchRows(_:)`, with the row cache's generation once the rows are stored in it (see
    /// `StoreRowCache.store(_:)`; `nil` while a query generation is pinned), whether the cache keeps
    /// the array of rows itself (see `StoreRowCache.store(_:keepingArray:)`: the caller then reads the
    /// rows without changing the array), and whether the rows name each object once (they come from
    /// one store).
    func _fetchCachedRows<Result>(_ request: NSFetchRequest<Result>) throws
        -> (rows: [StoreRow], generation: UInt64?, cacheKeepsArray: Bool, distinct: Bool)
    {
        let entity = try _entity(of: request)
        let stores = _stores(for: entity, request: request)
        let rows: [StoreRow]
        if stores.count <= 1 {
            rows = try stores.first?._fetchRows(request, entity: entity) ?? []
        } else {
            let unlimited = _unlimitedCopy(of: request)
            var all: [StoreRow] = []
            for store in stores { all += try store._fetchRows(unlimited, entity: entity) }
            rows = _window(_sortedRows(all, by: request.sortDescriptors), of: request)
        }
        // One store's rows name each object once; rows of several stores could name one twice (two
        // stores with the same identifier), and those are indexed at once, the later replacing the earlier.
        let stored = _rowCache.store(rows, keepingArray: stores.count <= 1)
        return (rows, stored.generation, stored.keptArray, stores.count <= 1)
    }

    /// IDs of the objects a fetch request selects, in result order.
    func fetchObjectIDs<Result>(_ request: NSFetchRequest<Result>) throws -> [NSManagedObjectID] {
        let entity = try _entity(of: request)
        let stores = _stores(for: entity, request: request)
        if stores.count <= 1 {
            return try stores.first?._fetchObjectIDs(request, entity: entity) ?? []
        }
        return try fetchRows(request).map(\.objectID)
    }

    /// The identities of the objects a fetch request selects, in result order: a SQLite store names its
    /// rows by scope and primary key, without making an ID for each (see `LazyObjectIDs.md`).
    func fetchObjectIdentities<Result>(_ request: NSFetchRequest<Result>) throws -> [ObjectIdentity] {
        let entity = try _entity(of: request)
        let stores = _stores(for: entity, request: request)
        if stores.count <= 1 {
            return try stores.first?._fetchObjectIdentities(request, entity: entity) ?? []
        }
        return try fetchRows(request).map(\.identity)
    }

    /// The number of objects a fetch request selects (limit and offset applied).
    func count<Result>(_ request: NSFetchRequest<Result>) throws -> Int {
        let entity = try _entity(of: request)
        let stores = _stores(for: entity, request: request)
        if stores.count <= 1 {
            return try stores.first?._count(request, entity: entity) ?? 0
        }
        return try fetchObjectIDs(request).count
    }

    /// The row of one object: the row cache first, then the store; `nil` when the object no longer
    /// exists (or its ID is temporary).
    func row(for objectID: NSManagedObjectID) throws -> StoreRow? {
        if let cached = _rowCache.row(for: objectID) { return cached }
        guard let store = _store(of: objectID) else { return nil }
        let row = try store._row(for: objectID)
        if let row { _rowCache.store([row]) }
        return row
    }

    /// The row of one object read from its store, bypassing the cache (which it refreshes).
    func freshRow(for objectID: NSManagedObjectID) throws -> StoreRow? {
        guard let store = _store(of: objectID) else { return nil }
        let row = try store._row(for: objectID)
        if let row { _rowCache.store([row]) } else { _rowCache.remove([objectID]) }
        return row
    }

    /// Destination IDs of a to-many relationship of one object, in order for ordered relationships.
    ///
    /// A SQLite store reads the destinations of a one-to-many relationship whole (see
    /// `SQLiteStore.storeRelatedRows(for:of:)`); their rows join the row cache where it has none for them
    /// (a row already cached stays, so the cache's generation and the faults made from it stay valid),
    /// and each destination's fault fires from the cache instead of a query of its own.
    func relatedObjectIDs(for relationship: NSRelationshipDescription, of objectID: NSManagedObjectID) throws -> [NSManagedObjectID] {
        guard let store = _store(of: objectID) else { return [] }
        if !QueryGenerationScope.isPinned, let sqlite = store as? SQLiteStore,
            let rows = try sqlite.storeRelatedRows(for: relationship, of: objectID)
        {
            _rowCache.storeUncached(rows)
            return rows.map(\.objectID)
        }
        return try store._relatedObjectIDs(for: relationship, of: objectID)
    }

    /// Permanent IDs for temporary ones: keys come from each entity's `Z_PRIMARYKEY` row of the store
    /// that will hold the object (the assigned one, by temporary ID, or else the first store that holds
    /// the entity). Permanent IDs given in are returned unchanged.
    func obtainPermanentIDs(
        for temporaryIDs: [NSManagedObjectID],
        assignedStores: [NSManagedObjectID: NSPersistentStore] = [:]
    ) throws -> [NSManagedObjectID: NSManagedObjectID] {
        _writeLock.lock()
        defer { _writeLock.unlock() }
        var result: [NSManagedObjectID: NSManagedObjectID] = [:]
        var byStoreAndEntity: [StoreEntityKey: (store: NSPersistentStore, entity: NSEntityDescription, ids: [NSManagedObjectID])] = [:]
        for id in temporaryIDs {
            guard id.isTemporaryID else {
                result[id] = id
                continue
            }
            let store = try _storeForInserting(id, assignedTo: assignedStores[id])
            let key = StoreEntityKey(store: ObjectIdentifier(store), entity: ObjectIdentifier(id.entity))
            var group = byStoreAndEntity[key] ?? (store, id.entity, [])
            group.ids.append(id)
            byStoreAndEntity[key] = group
        }
        for group in byStoreAndEntity.values {
            let permanent = try group.store._newPermanentIDs(for: group.ids, entity: group.entity)
            for (id, permanentID) in zip(group.ids, permanent) {
                result[id] = permanentID
            }
        }
        return result
    }

    /// Writes a save: per store one transaction with optimistic locking on `Z_OPT`, permanent keys from
    /// `Z_PRIMARYKEY`, the writes and a commit; on any failure nothing is written to that store.
    /// Throws ``StoreSaveConflicts`` for locking failures. Saves are serialized by the coordinator.
    func save(_ changes: StoreSaveChanges) throws -> StoreSaveResult {
        _writeLock.lock()
        defer { _writeLock.unlock() }
        if changes.isEmpty {
            return .empty
        }
        // Each store's share of the changes, and the positions of its inserts among the save's (`nil`:
        // all of them, in order).
        var perStore: [ObjectIdentifier: (store: NSPersistentStore, changes: StoreSaveChanges, insertPositions: [Int]?)] = [:]
        // Changed in place: copying a store's changes out and back for each object made saves quadratic.
        func add(_ store: NSPersistentStore, _ apply: (inout StoreSaveChanges) -> Void) {
            apply(&perStore[ObjectIdentifier(store), default: (store, StoreSaveChanges(), [])].changes)
        }
        // The store of new objects, looked up once per entity.
        var insertingStores: [ObjectIdentifier: NSPersistentStore] = [:]
        func store(for insert: UnsafePointer<StoreSaveChanges.Insert>) throws -> NSPersistentStore {
            // Unretained: the insert keeps its ID.
            try Unmanaged.passUnretained(insert.pointee.objectID).withBorrowedReference { objectID in
                if !changes.assignedStores.isEmpty, let assigned = changes.assignedStores[objectID] {
                    return try _storeForInserting(objectID, assignedTo: assigned)
                }
                guard objectID.isTemporaryID else { return try _requireStore(of: objectID) }
                let entity = objectID.entity
                if let known = insertingStores[ObjectIdentifier(entity)] { return known }
                let store = try _storeForInserting(entity)
                insertingStores[ObjectIdentifier(entity)] = store
                return store
            }
        }
        // The inserts of a save nearly always go to one store, which then takes them as they are.
        var onlyStore: NSPersistentStore?
        var spread = false
        try changes.inserted.forEachInPlace { _, insert in
            guard !spread else { return }
            let target = try store(for: insert)
            if onlyStore == nil { onlyStore = target } else if onlyStore !== target { spread = true }
        }
        if spread {
            try changes.inserted.forEachInPlace { position, insert in
                let target = try store(for: insert)
                add(target) { $0.inserted.append(insert.pointee) }
                perStore[ObjectIdentifier(target)]?.insertPositions?.append(position)
            }
        } else if let onlyStore {
            var share = StoreSaveChanges()
            share.inserted = changes.inserted
            perStore[ObjectIdentifier(onlyStore)] = (onlyStore, share, nil)
        }
        for update in changes.updated {
            add(try _requireStore(of: update.objectID)) { $0.updated.append(update) }
        }
        for delete in changes.deleted {
            add(try _requireStore(of: delete.objectID)) { $0.deleted.append(delete) }
        }
        for check in changes.versionChecks {
            add(try _requireStore(of: check.objectID)) { $0.versionChecks.append(check) }
        }
        var insertedIDs: [NSManagedObjectID] = spread ? changes.inserted.map(\.objectID) : []
        let permanentIDs = PermanentIDTable()
        var versions = ObjectIDMap<Int64>()
        var derivedValues: [StoreDerivedValue] = []
        for (store, storeChanges, positions) in perStore.values.sorted(by: { _storeIndex($0.store) < _storeIndex($1.store) }) {
            if store.isReadOnly {
                throw NSError(
                    domain: NSCocoaErrorDomain, code: NSPersistentStoreSaveError,
                    userInfo: [
                        NSLocalizedDescriptionKey: "Cannot save to the read-only store at \(store.url?.path ?? "(no location)").",
                        NSAffectedStoresErrorKey: [store],
                    ])
            }
            let result = try store._save(storeChanges)
            if let positions {
                for (position, id) in zip(positions, result.insertedIDs) { insertedIDs[position] = id }
            } else {
                insertedIDs = result.insertedIDs
            }
            permanentIDs.merge(result.permanentIDs)
            if perStore.count == 1 { versions = result.versions } else { versions.merge(result.versions) }
            _refreshCache(after: storeChanges, result: result)
            if !result.derivedValues.isEmpty {
                // Rows the store changed itself: the cache forgets them, so their next read sees the file.
                _rowCache.remove(result.derivedValues.map(\.objectID))
                derivedValues += result.derivedValues
            }
        }
        // Every store writes new rows with version 1.
        var result = StoreSaveResult(insertedIDs: insertedIDs, permanentIDs: permanentIDs, insertedVersion: 1, versions: versions)
        result.derivedValues = derivedValues
        return result
    }

    // MARK: Helpers

    /// Updates the row cache with what a store just wrote.
    private func _refreshCache(after changes: StoreSaveChanges, result: StoreSaveResult) {
        func permanent(_ id: NSManagedObjectID) -> NSManagedObjectID { result.permanentIDs[id] ?? id }
        func translate(_ value: Any) -> Any {
            if let id = value as? NSManagedObjectID { return permanent(id) }
            return value
        }
        // The new rows go to the cache as they are, indexed when it is next used (stores write them with
        // version 1).
        _rowCache.storeInserted(changes.inserted, ids: result.insertedIDs, version: result.insertedVersion ?? 1)
        var rows: [StoreRow] = []
        rows.reserveCapacity(changes.updated.count)
        var stale: [NSManagedObjectID] = []
        for update in changes.updated {
            guard let old = _rowCache.row(for: update.objectID), let version = result.versions[update.objectID] else {
                stale.append(update.objectID)
                continue
            }
            var values = old.values
            for (key, value) in update.changedValues {
                values[key] = value.map(translate)
            }
            rows.append(StoreRow(objectID: update.objectID, version: version, values: values))
        }
        _rowCache.remove(stale + changes.deleted.map(\.objectID))
        _rowCache.store(rows)
        // A to-many relationship kept through its inverse's key changes the destinations' rows too: forget
        // the old and new destinations so that their next read sees the new key.
        var owners: [String: Set<NSManagedObjectID>] = [:]
        var destinations = Set<NSManagedObjectID>()
        func note(_ owner: NSManagedObjectID, _ toMany: [String: [NSManagedObjectID]]) {
            for (name, ids) in toMany {
                guard let inverse = owner.entity.relationshipsByName[name]?.inverseRelationship, !inverse.isToMany else { continue }
                owners[inverse.name, default: []].insert(owner)
                destinations.formUnion(ids.map(permanent))
            }
        }
        changes.inserted.forEachInPlace { index, insert in
            if !insert.pointee.toMany.isEmpty { note(result.insertedIDs[index], insert.pointee.toMany) }
        }
        for update in changes.updated where !update.toMany.isEmpty { note(update.objectID, update.toMany) }
        if !owners.isEmpty {
            // Looked up by the cached rows' identities: a fetched row has no ID to compare.
            var destinationKeys = ObjectIDMap<Void>()
            for id in destinations { destinationKeys[id] = () }
            _rowCache.remove { row in
                if destinationKeys[row.identity] != nil { return true }
                return owners.contains { name, ids in (row.values[name] as? NSManagedObjectID).map(ids.contains) ?? false }
            }
        }
    }

    /// The entity a request fetches. A request made with `NSFetchRequest(entityName:)` has its entity
    /// set from then on, as Apple's Core Data resolves it when a context executes the request.
    package func _entity<Result>(of request: NSFetchRequest<Result>) throws -> NSEntityDescription {
        if let entity = request.entity, let name = entity.name, let own = managedObjectModel.entitiesByName[name] {
            return own
        }
        guard let name = request.entityName, let entity = managedObjectModel.entitiesByName[name] else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSCoreDataError,
                userInfo: [
                    NSLocalizedDescriptionKey: request.entityName.map { "The fetch request's entity \"\($0)\" is not in the coordinator's model." }
                        ?? "The fetch request has no entity."
                ])
        }
        if request._entity == nil { request._entity = entity }
        return entity
    }

    /// The stores that hold an entity, limited to the request's affected stores when it names some.
    func _stores<Result>(for entity: NSEntityDescription, request: NSFetchRequest<Result>) -> [NSPersistentStore] {
        let affected = request._affectedStores?.compactMap { $0 as? NSPersistentStore }
        return persistentStores.filter { store in
            guard _store(store, holds: entity) else { return false }
            return affected.map { list in list.contains { $0 === store } } ?? true
        }
    }

    /// Whether a store's configuration includes an entity.
    func _store(_ store: NSPersistentStore, holds entity: NSEntityDescription) -> Bool {
        let configuration = store.configurationName
        guard configuration != "PF_DEFAULT_CONFIGURATION_NAME",
            let entities = managedObjectModel.entities(forConfigurationName: configuration)
        else { return true }
        return entities.contains { $0.name == entity.name }
    }

    /// The store a new object of an entity goes to: the first store whose configuration holds it.
    func _storeForInserting(_ entity: NSEntityDescription) throws -> NSPersistentStore {
        guard let store = persistentStores.first(where: { _store($0, holds: entity) }) else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreSaveError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "No persistent store of the coordinator holds the entity \(entity.name ?? "(unnamed)"); add a store before saving."
                ])
        }
        return store
    }

    /// The coordinator's store that holds a permanent ID, `nil` for a temporary ID or a foreign store.
    func _store(of objectID: NSManagedObjectID) -> NSPersistentStore? {
        guard let identifier = objectID.storeIdentifier else { return nil }
        return persistentStores.first { $0.identifier == identifier }
    }

    /// The store of a permanent ID, or an error naming the ID.
    private func _requireStore(of objectID: NSManagedObjectID) throws -> NSPersistentStore {
        guard let store = _store(of: objectID) else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSManagedObjectReferentialIntegrityError,
                userInfo: [
                    NSLocalizedDescriptionKey: "The object \(objectID.uriRepresentation().absoluteString) is not in any store of the coordinator."
                ])
        }
        return store
    }

    private func _storeIndex(_ store: NSPersistentStore) -> Int {
        persistentStores.firstIndex { $0 === store } ?? Int.max
    }

    /// A copy of a request without limit and offset, for merging several stores' results.
    private func _unlimitedCopy<Result>(of request: NSFetchRequest<Result>) -> NSFetchRequest<Result> {
        guard let copy = request.copy() as? NSFetchRequest<Result> else { return request }
        copy._fetchLimit = 0
        copy._fetchOffset = 0
        return copy
    }

    /// Rows sorted by sort descriptors read from their values.
    private func _sortedRows(_ rows: [StoreRow], by descriptors: [NSSortDescriptor]?) -> [StoreRow] {
        guard let descriptors, !descriptors.isEmpty else { return rows }
        return rows.sorted { a, b in
            for descriptor in descriptors {
                let order = descriptor.compare(a.values.dictionary as NSDictionary, to: b.values.dictionary as NSDictionary)
                if order != .orderedSame { return order == .orderedAscending }
            }
            return false
        }
    }

    /// The offset/limit window of a request applied to merged results.
    private func _window(_ rows: [StoreRow], of request: NSFetchRequest<some Any>) -> [StoreRow] {
        let start = min(max(request.fetchOffset, 0), rows.count)
        var slice = Array(rows[start...])
        if request.fetchLimit > 0 { slice = Array(slice.prefix(request.fetchLimit)) }
        return slice
    }
}
