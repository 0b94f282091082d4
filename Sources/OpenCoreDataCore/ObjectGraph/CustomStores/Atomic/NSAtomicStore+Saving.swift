import Foundation

/// A save reaching an atomic store: optimistic locking on the nodes' versions, the nodes changed as the
/// saving context's objects say, then `save()`; when `save()` throws, the nodes are put back.
extension NSAtomicStore {
    /// Permanent IDs for new objects of the requesting context, from ``newReferenceObject(for:)``.
    func _storePermanentIDs(for temporaryIDs: [NSManagedObjectID]) throws -> [NSManagedObjectID] {
        let context = try _savingContext()
        return try temporaryIDs.map { id in
            guard let object = context.registeredObject(for: id) else {
                throw _badValue("cannot give a permanent ID to \(id.uriRepresentation().absoluteString): no context holds the object.")
            }
            return objectID(for: object.entity, withReferenceObject: newReferenceObject(for: object))
        }
    }

    func _saveToStore(_ changes: StoreSaveChanges) throws -> StoreSaveResult {
        let context = try _savingContext()
        try _checkVersions(changes)
        func object(_ id: NSManagedObjectID) throws -> NSManagedObject {
            guard let object = context.registeredObject(for: id) else {
                throw _saveError("the object \(id.uriRepresentation().absoluteString) is not in the saving context.")
            }
            return object
        }
        let inserted = try changes.inserted.map { insert in
            guard !insert.objectID.isTemporaryID else {
                throw _saveError("the new object \(insert.objectID.uriRepresentation().absoluteString) has no permanent ID.")
            }
            return try object(insert.objectID)
        }
        let updated = try changes.updated.map { try object($0.objectID) }
        let deletedIDs = changes.deleted.map(\.objectID)
        // What the save changes, kept to put back when `save()` fails.
        let before = _nodesLock.withLock { _nodes }
        var updatedCaches: [(NSAtomicStoreCacheNode, NSMutableDictionary?, Int64)] = []
        do {
            var newNodes: [NSAtomicStoreCacheNode] = []
            for object in inserted {
                let node = newCacheNode(for: object)
                guard node.objectID == object.objectID else {
                    throw _saveError(
                        "newCacheNode(for:) returned a node for \(node.objectID.uriRepresentation().absoluteString) for the object \(object.objectID.uriRepresentation().absoluteString)."
                    )
                }
                node._version = 1
                newNodes.append(node)
            }
            addCacheNodes(Set(newNodes))
            for (node, object) in zip(newNodes, inserted) { updateCacheNode(node, from: object) }
            var versions = ObjectIDMap<Int64>()
            for object in updated {
                guard let node = cacheNode(for: object.objectID) else { continue }
                updatedCaches.append((node, node.propertyCache?.mutableCopy() as? NSMutableDictionary, node._version))
                updateCacheNode(node, from: object)
                node._version += 1
                versions[object.objectID] = node._version
            }
            let removed = Set(deletedIDs.compactMap { cacheNode(for: $0) })
            if !removed.isEmpty {
                willRemoveCacheNodes(removed)
                _nodesLock.withLock { for id in deletedIDs { _nodes[id] = nil } }
            }
            try save()
            return StoreSaveResult(insertedIDs: inserted.map(\.objectID), permanentIDs: PermanentIDTable(), insertedVersion: 1, versions: versions)
        } catch {
            _nodesLock.withLock { _nodes = before }
            for (node, cache, version) in updatedCaches {
                node.propertyCache = cache
                node._version = version
            }
            throw error
        }
    }

    /// Throws the conflicts of a save: each changed, deleted or locked object whose node changed since
    /// the context read it, or is gone.
    private func _checkVersions(_ changes: StoreSaveChanges) throws {
        let expected =
            changes.updated.map { ($0.objectID, $0.expectedVersion) }
            + changes.deleted.map { ($0.objectID, $0.expectedVersion) }
            + changes.versionChecks.map { ($0.objectID, $0.expectedVersion) }
        var conflicts: [StoreSaveConflicts.Conflict] = []
        for (id, version) in expected {
            let node = cacheNode(for: id)
            if let node, node._version == version { continue }
            conflicts.append(.init(objectID: id, expectedVersion: version, storeRow: try node.map(_row(from:))))
        }
        if !conflicts.isEmpty { throw StoreSaveConflicts(conflicts: conflicts) }
    }

    /// The context whose save or permanent IDs the store is working on.
    private func _savingContext() throws -> NSManagedObjectContext {
        guard let context = StoreRequestor.context, context.persistentStoreCoordinator === persistentStoreCoordinator else {
            throw _saveError("a save reached the store without the context that made it.")
        }
        return context
    }

    private func _saveError(_ message: String) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreSaveError,
            userInfo: [
                NSLocalizedDescriptionKey: "Cannot save to the atomic store \(Swift.type(of: self)) at \(url?.path ?? "(no location)"): \(message)",
                NSAffectedStoresErrorKey: [self],
            ])
    }
}
