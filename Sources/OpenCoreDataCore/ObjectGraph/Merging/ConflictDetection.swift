/// Optimistic locking for objects the context did not change: `detectConflicts(for:)`.
extension NSManagedObjectContext {
    /// Marks an object for conflict detection at the next save.
    ///
    /// If, when the context next saves, the object's row in the persistent store has changed since the
    /// context read it, the save reports a merge conflict for the object even though the context did
    /// not change it: with `NSErrorMergePolicy` it fails with `NSManagedObjectMergeError`, other merge
    /// policies resolve it. The object is not written. The mark lasts until a save succeeds. In a child
    /// context, the mark passes to the parent with the child's save.
    ///
    /// - Parameter object: An object registered in the context.
    public func detectConflicts(for object: NSManagedObject) {
        _checkQueue("detectConflicts(for:)")
        guard object._context === self else {
            preconditionFailure(
                "detectConflicts(for:): the object \(object._objectID.uriRepresentation().absoluteString) is not registered in this context.")
        }
        guard !object._objectID.isTemporaryID else { return }
        _conflictDetectionObjects[ObjectIdentifier(object)] = object
    }

    /// The version checks of the marked objects that the save does not already update or delete.
    func _versionChecks(excluding changes: StoreSaveChanges, _ source: any ContextObjectSource) throws -> [StoreSaveChanges.Delete] {
        guard !_conflictDetectionObjects.isEmpty else { return [] }
        let written = Set(changes.updated.map(\.objectID)).union(changes.deleted.map(\.objectID))
        var checks: [StoreSaveChanges.Delete] = []
        for object in _conflictDetectionObjects.values where object._context === self && !object._isDeleted {
            let id = object._objectID
            guard !id.isTemporaryID, !written.contains(id) else { continue }
            checks.append(.init(objectID: id, expectedVersion: try version(of: object, source)))
        }
        return checks
    }
}
