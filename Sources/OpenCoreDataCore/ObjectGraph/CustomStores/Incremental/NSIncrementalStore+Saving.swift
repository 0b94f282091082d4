import Foundation

/// A save reaching an incremental store: optimistic locking against the versions of the store's nodes,
/// then one ``NSSaveChangesRequest`` with the saving context's objects.
extension NSIncrementalStore {
    func _saveToStore(_ changes: StoreSaveChanges) throws -> StoreSaveResult {
        guard let context = StoreRequestor.context, context.persistentStoreCoordinator === persistentStoreCoordinator else {
            throw _saveError("a save reached the store without the context that made it.")
        }
        try _checkVersions(changes, context: context)
        func objects(_ ids: [NSManagedObjectID], _ what: String) throws -> Set<NSManagedObject> {
            var objects = Set<NSManagedObject>()
            objects.reserveCapacity(ids.count)
            for id in ids {
                guard let object = context.registeredObject(for: id) else {
                    throw _saveError("the \(what) object \(id.uriRepresentation().absoluteString) is not in the saving context.")
                }
                objects.insert(object)
            }
            return objects
        }
        let insertedIDs = changes.inserted.map(\.objectID)
        if let temporary = insertedIDs.first(where: \.isTemporaryID) {
            throw _saveError("the new object \(temporary.uriRepresentation().absoluteString) has no permanent ID.")
        }
        let request = NSSaveChangesRequest(
            inserted: try objects(insertedIDs, "inserted"),
            updated: try objects(changes.updated.map(\.objectID), "updated"),
            deleted: try objects(changes.deleted.map(\.objectID), "deleted"),
            locked: try objects(changes.versionChecks.map(\.objectID), "locked"))
        request.affectedStores = [self]
        _ = try execute(request, with: context)
        var versions = ObjectIDMap<Int64>()
        for update in changes.updated { versions[update.objectID] = update.expectedVersion + 1 }
        return StoreSaveResult(insertedIDs: insertedIDs, permanentIDs: PermanentIDTable(), insertedVersion: 1, versions: versions)
    }

    /// Throws the conflicts of a save: each changed, deleted or locked object whose node no longer has
    /// the version the context read (or that the store no longer has).
    private func _checkVersions(_ changes: StoreSaveChanges, context: NSManagedObjectContext) throws {
        let expected =
            changes.updated.map { ($0.objectID, $0.expectedVersion) }
            + changes.deleted.map { ($0.objectID, $0.expectedVersion) }
            + changes.versionChecks.map { ($0.objectID, $0.expectedVersion) }
        guard !expected.isEmpty else { return }
        var conflicts: [StoreSaveConflicts.Conflict] = []
        if let reader = self as? any IncrementalStoreVersionReading {
            let current = try reader.versionsForObjects(with: expected.map(\.0), with: context)
            for (id, version) in expected where current[id] != UInt64(clamping: version) {
                // Only a conflict's row is read whole; a row gone since the versions were read has none.
                var node: NSIncrementalStoreNode?
                if current[id] != nil {
                    do {
                        node = try newValuesForObject(with: id, with: context)
                    } catch let error as NSError where error.domain == NSCocoaErrorDomain && error.code == NSManagedObjectReferentialIntegrityError {
                        node = nil
                    }
                }
                let row = try node.map { try _row(from: $0, for: id, context: context) }
                conflicts.append(.init(objectID: id, expectedVersion: version, storeRow: row))
            }
            if !conflicts.isEmpty { throw StoreSaveConflicts(conflicts: conflicts) }
            return
        }
        for (id, version) in expected {
            // A store says an object is gone by throwing.
            let node = try? newValuesForObject(with: id, with: context)
            if let node, node.version == UInt64(clamping: version) { continue }
            let row = try node.map { try _row(from: $0, for: id, context: context) }
            conflicts.append(.init(objectID: id, expectedVersion: version, storeRow: row))
        }
        if !conflicts.isEmpty { throw StoreSaveConflicts(conflicts: conflicts) }
    }

    private func _saveError(_ message: String) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreSaveError,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "Cannot save to the incremental store \(Swift.type(of: self)) at \(url?.path ?? "(no location)"): \(message)",
                NSAffectedStoresErrorKey: [self],
            ])
    }
}

extension NSManagedObjectContext {
    /// Before a save of a context whose coordinator has an incremental or atomic store: permanent IDs
    /// for the new objects, so that the store is handed them under the IDs it gave.
    func _obtainPermanentIDsForIncrementalStores(_ source: any ContextObjectSource) throws {
        guard let coordinator = source as? NSPersistentStoreCoordinator, !_inserted.isEmpty,
            coordinator.persistentStores.contains(where: { $0 is NSIncrementalStore || $0 is NSAtomicStore })
        else { return }
        try obtainPermanentIDs(for: Array(_inserted.values))
    }
}
