/// Batch operations through the coordinator: the stores that hold the entity run them one after
/// another under the coordinator's write lock, and the row cache forgets every row they touched.
extension NSPersistentStoreCoordinator {
    /// Runs a batch update on every store that holds the entity (or on the affected stores).
    func batchUpdate(_ operation: BatchUpdateOperation, affectedStores: [NSPersistentStore]?) throws -> (count: Int, objectIDs: [NSManagedObjectID]?)
    {
        _writeLock.lock()
        defer { _writeLock.unlock() }
        var count = 0
        var ids: [NSManagedObjectID]? = operation.reportsObjectIDs ? [] : nil
        for store in try _batchStores(for: operation.entity, affectedStores: affectedStores, request: "batch update") {
            let result = try store.batchUpdate(operation)
            count += result.count
            if let found = result.objectIDs {
                ids?.append(contentsOf: found)
                _rowCache.remove(found)
            } else {
                let family = Set(operation.entity.selfAndSubentityNames)
                _rowCache.remove { row in
                    row.identity.storeIdentifier == store.identifier && family.contains(row.entity.name ?? "")
                }
            }
        }
        return (count, ids)
    }

    /// Runs a batch delete on every store that holds the entity (or on the affected stores).
    func batchDelete(_ operation: BatchDeleteOperation, affectedStores: [NSPersistentStore]?) throws -> BatchDeleteOutcome {
        _writeLock.lock()
        defer { _writeLock.unlock() }
        var outcome = BatchDeleteOutcome()
        var stores = try _batchStores(for: operation.entity, affectedStores: affectedStores, request: "batch delete")
        if let ids = operation.objectIDs {
            let named = Set(ids.compactMap(\.storeIdentifier))
            stores = stores.filter { named.contains($0.identifier) }
        }
        for store in stores {
            let result = try store.batchDelete(operation)
            outcome.deleted += result.deleted
            outcome.requested += result.requested
            outcome.nullified += result.nullified
            _rowCache.remove(result.deleted + result.nullified)
        }
        return outcome
    }

    /// Runs a batch insert on the store new objects of the entity go to (or the first affected store
    /// that holds it).
    func batchInsert(_ operation: BatchInsertOperation, affectedStores: [NSPersistentStore]?) throws -> [NSManagedObjectID] {
        let rows = try _validatedBatchRows(operation)
        _writeLock.lock()
        defer { _writeLock.unlock() }
        let store: NSPersistentStore
        if let affectedStores {
            guard let first = affectedStores.first(where: { _store($0, holds: operation.entity) }) else {
                throw _batchError(
                    NSPersistentStoreUnsupportedRequestTypeError,
                    "None of the request's affected stores holds the entity \(operation.entity.name ?? "").")
            }
            store = first
        } else {
            store = try _storeForInserting(operation.entity)
        }
        guard let batchStore = store as? any BatchOperationStore else {
            throw _batchError(
                NSPersistentStoreUnsupportedRequestTypeError,
                "A batch insert needs a SQLite store; the store at \(store.url?.path ?? "(no location)") is of type \(store.type).")
        }
        guard !store.isReadOnly else {
            throw _batchError(NSPersistentStoreSaveError, "Cannot insert into the read-only store at \(store.url?.path ?? "(no location)").")
        }
        let ids = try batchStore.batchInsert(BatchInsertOperation(entity: operation.entity, rows: rows))
        _rowCache.remove(ids)
        return ids
    }

    /// The stores a batch request runs on; each must run batch operations and be writable.
    private func _batchStores(
        for entity: NSEntityDescription, affectedStores: [NSPersistentStore]?,
        request: String
    ) throws -> [any BatchOperationStore] {
        let candidates = (affectedStores ?? persistentStores).filter { _store($0, holds: entity) }
        return try candidates.map { store in
            guard let batchStore = store as? any BatchOperationStore else {
                throw _batchError(
                    NSPersistentStoreUnsupportedRequestTypeError,
                    "A \(request) needs a SQLite store; the store at \(store.url?.path ?? "(no location)") is of type \(store.type).")
            }
            guard !store.isReadOnly else {
                throw _batchError(
                    NSPersistentStoreSaveError, "Cannot run a \(request) on the read-only store at \(store.url?.path ?? "(no location)").")
            }
            return batchStore
        }
    }

    /// Checks and completes the rows of a batch insert: every key names a stored attribute, defaults
    /// fill what is missing, and mandatory attributes have values.
    private func _validatedBatchRows(_ operation: BatchInsertOperation) throws -> [[String: Any]] {
        let entity = operation.entity
        let entityName = entity.name ?? ""
        if entity.isAbstract {
            throw _batchError(NSManagedObjectValidationError, "Cannot insert objects of the abstract entity \(entityName).")
        }
        let attributes = entity.attributesByName
        let relationships = entity.relationshipsByName
        let stored = attributes.values.filter { !$0.isTransient && !($0 is NSDerivedAttributeDescription) }
        return try operation.rows.enumerated().map { index, row in
            var values: [String: Any] = [:]
            for (key, value) in row {
                guard let attribute = attributes[key] else {
                    if relationships[key] != nil {
                        throw _batchError(
                            NSManagedObjectValidationError,
                            "Object \(index) of the batch insert sets the relationship \(key) of \(entityName); batch inserts set attributes only.")
                    }
                    throw _batchError(
                        NSManagedObjectValidationError,
                        "Object \(index) of the batch insert has the key \"\(key)\", which names no attribute of \(entityName).")
                }
                if attribute.isTransient || attribute is NSDerivedAttributeDescription { continue }
                if value is NSNull { continue }
                values[key] = value
            }
            for attribute in stored where values[attribute.name] == nil {
                if let defaultValue = attribute.defaultValue {
                    values[attribute.name] = defaultValue
                } else if !attribute.isOptional {
                    throw NSError(
                        domain: NSCocoaErrorDomain, code: NSValidationMissingMandatoryPropertyError,
                        userInfo: [
                            NSLocalizedDescriptionKey:
                                "Object \(index) of the batch insert has no value for the mandatory attribute \(attribute.name) of \(entityName).",
                            NSValidationKeyErrorKey: attribute.name,
                        ])
                }
            }
            return values
        }
    }

    func _batchError(_ code: Int, _ message: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: message])
    }
}

extension NSEntityDescription {
    /// The names of the entity and of all its subentities, recursively.
    var selfAndSubentityNames: [String] {
        [name ?? ""] + subentities.flatMap(\.selfAndSubentityNames)
    }
}
