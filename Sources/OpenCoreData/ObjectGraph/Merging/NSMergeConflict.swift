/// A conflict found when saving: an object the context changed or deleted whose row another writer
/// changed or deleted since the context read it.
///
/// A save that fails with `NSManagedObjectMergeError` (133020) lists its conflicts under
/// `NSPersistentStoreSaveConflictsErrorKey` (`"conflictList"`) in the error's `userInfo`.
open class NSMergeConflict: NSObject {
    /// The object of the context that conflicts.
    public let sourceObject: NSManagedObject
    /// The values of the object in the context (its unsaved state), or `nil`.
    public let objectSnapshot: [String: Any]?
    /// The values of the object in the parent context's cache, or `nil` (always `nil` for a context
    /// saving to a coordinator).
    public let cachedSnapshot: [String: Any]?
    /// The values of the object now in the store, or `nil` when the store no longer has it.
    public let persistedSnapshot: [String: Any]?
    /// The version of the row now in the store; 0 when the row was deleted.
    public let newVersionNumber: Int
    /// The version of the row the context read.
    public let oldVersionNumber: Int

    /// Creates a conflict record.
    public init(source srcObject: NSManagedObject, newVersion newvers: Int, oldVersion oldvers: Int,
                cachedSnapshot cachesnap: [String: Any]?, persistedSnapshot persnap: [String: Any]?) {
        sourceObject = srcObject
        newVersionNumber = newvers
        oldVersionNumber = oldvers
        cachedSnapshot = cachesnap
        persistedSnapshot = persnap
        objectSnapshot = srcObject.conflictSnapshot()
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
