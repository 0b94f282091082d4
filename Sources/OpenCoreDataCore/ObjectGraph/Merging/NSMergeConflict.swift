/// A conflict found when saving: an object the context changed or deleted whose row another writer
/// changed or deleted since the context read it.
///
/// A save that fails with `NSManagedObjectMergeError` (133020) lists its conflicts under
/// `NSPersistentStoreSaveConflictsErrorKey` (`"conflictList"`) in the error's `userInfo`.
open class NSMergeConflict: NSObject {
    /// The object of the context that conflicts.
    public let sourceObject: NSManagedObject
    /// The values of the object as the context read them (before its unsaved changes), or `nil`.
    public let objectSnapshot: [String: Any]?
    /// The values the persistent store coordinator holds for the object now, or `nil` when it holds
    /// none (the row was deleted).
    public let cachedSnapshot: [String: Any]?
    /// The values now in the store when they differ from the coordinator's (a conflict between the
    /// coordinator's cache and the store, written by another coordinator); `nil` for a conflict
    /// between the context and the coordinator's cache, and when the store no longer has the row.
    public let persistedSnapshot: [String: Any]?
    /// The newest values of the row (the store's, else the cache's), `nil` when the row is gone: what
    /// the merge policies resolve against.
    let _storedValues: [String: Any]?
    /// The version of the row now in the store; 0 when the row was deleted.
    public let newVersionNumber: Int
    /// The version of the row the context read.
    public let oldVersionNumber: Int

    /// Creates a conflict record.
    public init(
        source srcObject: NSManagedObject, newVersion newvers: Int, oldVersion oldvers: Int,
        cachedSnapshot cachesnap: [String: Any]?, persistedSnapshot persnap: [String: Any]?
    ) {
        sourceObject = srcObject
        newVersionNumber = newvers
        oldVersionNumber = oldvers
        cachedSnapshot = cachesnap
        persistedSnapshot = persnap
        objectSnapshot = srcObject.conflictSnapshot()
        _storedValues = persnap ?? cachesnap
        super.init()
    }

    /// A conflict as a save finds it: `read` is what the context read, `stored` the row's values now.
    init(
        source srcObject: NSManagedObject, newVersion newvers: Int, oldVersion oldvers: Int,
        read: [String: Any], cached: [String: Any]?, persisted: [String: Any]?, stored: [String: Any]?
    ) {
        sourceObject = srcObject
        newVersionNumber = newvers
        oldVersionNumber = oldvers
        objectSnapshot = read
        cachedSnapshot = cached
        persistedSnapshot = persisted
        _storedValues = stored
        super.init()
    }

    /// A description of the conflict naming the object and both versions.
    open override var description: String {
        "NSMergeConflict for \(sourceObject.objectID.uriRepresentation().absoluteString): "
            + "old version \(oldVersionNumber), new version \(newVersionNumber)"
    }
}

extension NSManagedObject {
    /// The object's current persistent values as a conflict reports them (`NSNull` for `nil`,
    /// relationships as object IDs).
    func conflictSnapshot() -> [String: Any] {
        var result: [String: Any] = [:]
        for property in _entity.propertiesByName.values where !property.isTransient {
            if let relationship = property as? NSRelationshipDescription, relationship.isToMany { continue }
            result[property.name] = currentValueForSnapshot(property.name) ?? NSNull()
        }
        return result
    }
}
