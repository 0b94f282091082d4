/// An encapsulation of conflicts that occur during an attempt to save objects that violate one of
/// their entity's uniqueness constraints.
///
/// A conflict names the constraint (its property names), the values the objects share, the stored
/// object that already has those values (if any) and the objects of the context that would duplicate
/// it. A save that fails with `NSManagedObjectConstraintMergeError` (133021) lists its conflicts under
/// `NSPersistentStoreSaveConflictsErrorKey` in the error's `userInfo`; a merge policy's
/// ``NSMergePolicy/resolve(constraintConflicts:)`` receives them.
open class NSConstraintConflict: NSObject {
    /// The constraint that has been violated: the names of its properties.
    public let constraint: [String]
    /// The values the conflicting objects share, by property name (object IDs for relationships).
    public let constraintValues: [String: Any]
    /// The object already stored with the constraint's values, or `nil` when the conflict is between
    /// objects of the same save only.
    public let databaseObject: NSManagedObject?
    /// The values currently stored in the database for ``databaseObject``, or `nil`.
    public let databaseSnapshot: [String: Any]?
    /// The managed objects that are in conflict.
    public let conflictingObjects: [NSManagedObject]
    /// The original property values of the objects in conflict (empty for objects never saved), in the
    /// order of ``conflictingObjects``.
    public let conflictingSnapshots: [[AnyHashable: Any]]
    /// The version (`Z_OPT`) of the stored row; 0 when there is none.
    var databaseVersion: Int64 = 0

    /// Initializes a constraint conflict.
    public init(
        constraint contraint: [String], database databaseObject: NSManagedObject?,
        databaseSnapshot: [AnyHashable: Any]?, conflicting conflictingObjects: [NSManagedObject],
        conflictingSnapshots: [Any]
    ) {
        constraint = contraint
        self.databaseObject = databaseObject
        var snapshot: [String: Any]?
        if let databaseSnapshot {
            snapshot = [:]
            for (key, value) in databaseSnapshot {
                if let name = key.base as? String { snapshot?[name] = value }
            }
        }
        self.databaseSnapshot = snapshot
        self.conflictingObjects = conflictingObjects
        self.conflictingSnapshots = conflictingSnapshots.map { ($0 as? [AnyHashable: Any]) ?? [:] }
        var values: [String: Any] = [:]
        let source = snapshot ?? conflictingObjects.first?.conflictSnapshot() ?? [:]
        for name in contraint {
            values[name] = source[name] ?? NSNull()
        }
        constraintValues = values
        super.init()
    }

    /// A description naming the constraint, its values and the objects in conflict.
    open override var description: String {
        let values = constraint.map { "\($0) = \(constraintValues[$0].map { "\($0)" } ?? "nil")" }.joined(separator: ", ")
        let objects = conflictingObjects.map { $0.objectID.uriRepresentation().absoluteString }.joined(separator: ", ")
        let stored = databaseObject.map { " stored as \($0.objectID.uriRepresentation().absoluteString)" } ?? ""
        return "NSConstraintConflict (\(values))\(stored): \(objects)"
    }
}
