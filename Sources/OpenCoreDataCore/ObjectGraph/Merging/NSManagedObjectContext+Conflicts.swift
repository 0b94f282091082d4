/// Saving with conflicts: the store reports optimistic-locking or uniqueness-constraint conflicts
/// without writing anything, the context's merge policy resolves them in memory, and the save is tried
/// again with the resolved objects — still one transaction that writes everything or nothing.
extension NSManagedObjectContext {
    /// How many times a save is tried again after its merge policy resolved conflicts.
    static let conflictRetryLimit = 5

    /// The pending objects as a save hands them to the store.
    typealias PendingObjects = (inserted: [NSManagedObject], updated: [NSManagedObject], deleted: [NSManagedObject])

    /// Writes the context's pending changes through the coordinator, letting the merge policy resolve
    /// conflicts and trying again; returns what the store produced and the objects it saved.
    ///
    /// - Parameters:
    ///   - firstPending: the pending objects as the caller already listed them, when they are still the
    ///     context's pending objects (the first attempt uses them instead of listing them again).
    ///   - changes: builds the store's changes from the pending objects of one attempt.
    func _writeResolvingConflicts(
        _ coordinator: any ContextObjectSource,
        firstPending: PendingObjects? = nil,
        changes: ([NSManagedObject], [NSManagedObject], [NSManagedObject]) throws -> StoreSaveChanges
    ) throws -> (StoreSaveResult, PendingObjects) {
        var attempts = 0
        var listed = firstPending
        while true {
            let pending: PendingObjects = listed ?? (Array(_inserted.values), Array(_updated.values), Array(_deleted.values))
            listed = nil
            var storeChanges = try changes(pending.inserted, pending.updated, pending.deleted)
            storeChanges.assignedStores = _assignedStores(forInserted: pending.inserted)
            storeChanges.versionChecks = try _versionChecks(excluding: storeChanges, coordinator)
            do {
                // A store with history tracking records who wrote (`Persistence/History/HistoryAuthor.swift`).
                let result = try HistoryAuthor.$current.withValue(_historyAuthor) { try coordinator.save(storeChanges) }
                _conflictDetectionObjects = [:]
                return (result, pending)
            } catch let failure as StoreSaveConflicts {
                // Conflicts come from the stores only, through the root's coordinator (a parent takes a child's save as is).
                let conflicts = mergeConflicts(for: failure, coordinator: try requireCoordinator())
                attempts += 1
                if attempts > Self.conflictRetryLimit { throw NSMergePolicy.lockingError(conflicts) }
                try _activeMergePolicy.resolve(mergeConflicts: conflicts)
                for conflict in conflicts
                where conflict.sourceObject._context === self
                    && conflict._storedValues != nil
                    && conflict.sourceObject.snapshotVersion == Int64(conflict.oldVersionNumber)
                {
                    // A custom policy that returned without settling the object: its current state wins.
                    LockingConflictResolution.resolve(conflict, as: .mergeByPropertyObjectTrumpMergePolicyType)
                }
                for object in Set(conflicts.map(\.sourceObject)) where object._context === self {
                    object.awake(fromSnapshotEvents: .mergePolicy)
                }
            } catch let failure as StoreConstraintConflicts {
                let conflicts = constraintConflicts(for: failure)
                attempts += 1
                if attempts > Self.conflictRetryLimit { throw NSMergePolicy.constraintError(conflicts) }
                try _activeMergePolicy.resolve(mergeConflicts: conflicts)
            }
            processPendingChanges()
        }
    }

    /// The context's merge policy as a policy object (`NSErrorMergePolicy` when it is set to anything else).
    var _activeMergePolicy: NSMergePolicy {
        (mergePolicy as? NSMergePolicy) ?? .error
    }

    /// The conflicts of a save, as ``NSMergeConflict``s; the coordinator's cache takes the rows now stored.
    ///
    /// As in Apple's Core Data, `objectSnapshot` is what the context read and `cachedSnapshot` what the
    /// coordinator holds now; `persistedSnapshot` is set only when the store's row is newer than the
    /// coordinator's (a cache-versus-store conflict), `nil` for a context-versus-cache conflict. A row
    /// the coordinator no longer caches counts as one it holds at the store's version.
    func mergeConflicts(for failure: StoreSaveConflicts, coordinator: NSPersistentStoreCoordinator) -> [NSMergeConflict] {
        failure.conflicts.map { conflict in
            let cachedRow = coordinator._rowCache.row(for: conflict.objectID)
            // The coordinator's cache is behind the store only when it still holds an older version of
            // the row (another coordinator wrote it); otherwise the store's row is what it holds now.
            let cacheIsCurrent = cachedRow == nil || cachedRow?.version == conflict.storeRow?.version
            if let row = conflict.storeRow {
                coordinator._rowCache.store([row])
            } else {
                coordinator._rowCache.remove([conflict.objectID])
            }
            let source = registry[conflict.objectID] ?? object(with: conflict.objectID)
            let stored = conflict.storeRow.map { Self.completeSnapshot($0.values.dictionary, of: source.entity) }
            let cached = cacheIsCurrent ? stored : cachedRow.map { Self.completeSnapshot($0.values.dictionary, of: source.entity) }
            return NSMergeConflict(
                source: source,
                newVersion: Int(conflict.storeRow?.version ?? 0),
                oldVersion: Int(conflict.expectedVersion),
                read: Self.completeSnapshot(source.snapshot.dictionary, of: source.entity),
                cached: cached, persisted: cacheIsCurrent ? nil : stored, stored: stored)
        }
    }

    /// The constraint conflicts of a save, as ``NSConstraintConflict``s.
    func constraintConflicts(for failure: StoreConstraintConflicts) -> [NSConstraintConflict] {
        failure.conflicts.map { conflict in
            let objects = conflict.objectIDs.compactMap { registry[$0] }
            let stored = conflict.storeRow.map { registry[$0.objectID] ?? object(with: $0.objectID) }
            let storedSnapshot = conflict.storeRow.map { Self.completeSnapshot($0.values.dictionary, of: $0.objectID.entity) }
            let snapshots: [Any] = objects.map { object -> [AnyHashable: Any] in
                guard !object.isNewlyInserted else { return [:] }
                var result: [AnyHashable: Any] = [:]
                for (key, value) in Self.completeSnapshot(object.snapshot.dictionary, of: object.entity) { result[key] = value }
                return result
            }
            var storedKeys: [AnyHashable: Any]?
            if let storedSnapshot {
                storedKeys = [:]
                for (key, value) in storedSnapshot { storedKeys?[key] = value }
            }
            let result = NSConstraintConflict(
                constraint: conflict.constraint, database: stored, databaseSnapshot: storedKeys,
                conflicting: objects, conflictingSnapshots: snapshots)
            result.databaseVersion = conflict.storeRow?.version ?? 0
            return result
        }
    }

    /// A snapshot with every attribute and to-one relationship of an entity, `NSNull` for `nil`.
    static func completeSnapshot(_ values: [String: Any], of entity: NSEntityDescription) -> [String: Any] {
        var result: [String: Any] = [:]
        for property in entity.propertiesByName.values where !property.isTransient {
            if let relationship = property as? NSRelationshipDescription, relationship.isToMany { continue }
            result[property.name] = values[property.name] ?? NSNull()
        }
        return result
    }
}
