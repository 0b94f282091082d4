/// The ways a merge policy resolves conflicts between a context's changes and the store.
public enum NSMergePolicyType: UInt, Sendable {
    /// A save with conflicts fails with an error listing them.
    case errorMergePolicyType = 0x00
    /// Changed properties of the store's version win over the context's changes, property by property.
    case mergeByPropertyStoreTrumpMergePolicyType = 0x01
    /// The context's changed properties win over the store's version, property by property.
    case mergeByPropertyObjectTrumpMergePolicyType = 0x02
    /// The context's objects replace the store's versions entirely.
    case overwriteMergePolicyType = 0x03
    /// The context's changes are discarded in favor of the store's versions.
    case rollbackMergePolicyType = 0x04
}

/// A policy object that you use to resolve conflicts between the persistent store and in-memory
/// versions of managed objects.
///
/// A context consults its ``NSManagedObjectContext/mergePolicy`` when a save meets conflicts of two
/// kinds:
/// - optimistic-locking conflicts (``NSMergeConflict``): another context or coordinator changed or
///   deleted an object's row since this context read it;
/// - constraint conflicts (``NSConstraintConflict``): the save would store two objects with the same
///   values for one of an entity's `uniquenessConstraints`.
///
/// The default policy of every context is `NSErrorMergePolicy`: the save fails with
/// `NSManagedObjectMergeError` (133020) or `NSManagedObjectConstraintMergeError` (133021) and the
/// conflicts under `NSPersistentStoreSaveConflictsErrorKey`. The other policies change the objects in
/// memory and the save is tried again; the save still writes everything or nothing.
///
/// Subclass `NSMergePolicy` and override ``resolve(optimisticLockingConflicts:)`` or
/// ``resolve(constraintConflicts:)`` to resolve conflicts your own way; call `super` to finish with the
/// policy type the subclass was initialized with.
// @unchecked Sendable: immutable; its only stored property is a `let`.
open class NSMergePolicy: NSObject, @unchecked Sendable {
    /// The kind of resolution the policy applies.
    public let mergeType: NSMergePolicyType

    /// Returns a merge policy initialized with a given policy type.
    public init(merge ty: NSMergePolicyType) {
        mergeType = ty
        super.init()
    }

    /// A policy that causes a save to fail if there are any merge conflicts.
    public static let error = NSMergePolicy(merge: .errorMergePolicyType)
    /// A property-based merge policy that applies external changes: the store's changed properties win.
    public static let mergeByPropertyStoreTrump = NSMergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
    /// A property-based merge policy that applies in-memory changes: the context's changed properties win.
    public static let mergeByPropertyObjectTrump = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
    /// A policy that overwrites the store's versions of conflicting objects with the in-memory objects,
    /// whole.
    public static let overwrite = NSMergePolicy(merge: .overwriteMergePolicyType)
    /// A policy that discards the in-memory state of conflicting objects in favor of the store's versions.
    public static let rollback = NSMergePolicy(merge: .rollbackMergePolicyType)

    /// Resolves the conflicts in a given list: ``NSMergeConflict``s through
    /// ``resolve(optimisticLockingConflicts:)``, then ``NSConstraintConflict``s through
    /// ``resolve(constraintConflicts:)``.
    open func resolve(mergeConflicts list: [Any]) throws {
        let locking = list.compactMap { $0 as? NSMergeConflict }
        let constraints = list.compactMap { $0 as? NSConstraintConflict }
        if !locking.isEmpty { try resolve(optimisticLockingConflicts: locking) }
        if !constraints.isEmpty { try resolve(constraintConflicts: constraints) }
    }

    /// Resolves optimistic-locking conflicts: objects whose rows another writer changed or deleted since
    /// their context read them.
    ///
    /// - `errorMergePolicyType` throws `NSManagedObjectMergeError` (133020) listing the conflicts.
    /// - `mergeByPropertyStoreTrumpMergePolicyType` keeps the store's value of every property the other
    ///   writer changed and the object's value of every property only the context changed.
    /// - `mergeByPropertyObjectTrumpMergePolicyType` keeps the object's value of every property the
    ///   context changed and the store's value of every other property.
    /// - `overwriteMergePolicyType` writes the whole in-memory object over the store's version.
    /// - `rollbackMergePolicyType` discards the object's changes and takes the store's version.
    ///
    /// An object whose row was deleted leaves its context (it no longer exists); a deleted object is
    /// deleted whatever the other writer changed.
    open func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
        if mergeType == .errorMergePolicyType {
            throw NSMergePolicy.lockingError(list)
        }
        for conflict in list {
            LockingConflictResolution.resolve(conflict, as: mergeType)
        }
    }

    /// Resolves uniqueness-constraint conflicts: objects of a save that share the values of one of their
    /// entity's uniqueness constraints with a stored row or with each other.
    ///
    /// - `errorMergePolicyType` throws `NSManagedObjectConstraintMergeError` (133021) listing the conflicts.
    /// - `mergeByPropertyObjectTrumpMergePolicyType` updates the stored object with the values the
    ///   in-memory objects set (an upsert): the inserted object becomes the stored row.
    /// - `mergeByPropertyStoreTrumpMergePolicyType` keeps the stored values, taking the in-memory values
    ///   only for properties the stored row has no value for.
    /// - `overwriteMergePolicyType` replaces every value of the stored row with the in-memory object's.
    /// - `rollbackMergePolicyType` discards the in-memory values: the inserted object becomes the stored
    ///   row as it is.
    ///
    /// Duplicates inserted in the same save are merged into one object; the others leave the context.
    open func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
        if mergeType == .errorMergePolicyType {
            throw NSMergePolicy.constraintError(list)
        }
        for conflict in list {
            ConstraintConflictResolution.resolve(conflict, as: mergeType)
        }
    }

    /// A description naming the policy type.
    open override var description: String {
        "<NSMergePolicy \(mergeType)>"
    }

    /// The error the error policy throws for optimistic-locking conflicts.
    static func lockingError(_ conflicts: [NSMergeConflict]) -> NSError {
        let names = conflicts.map { $0.sourceObject.objectID.uriRepresentation().absoluteString }.joined(separator: ", ")
        return NSError(
            domain: NSCocoaErrorDomain, code: NSManagedObjectMergeError,
            userInfo: [
                NSPersistentStoreSaveConflictsErrorKey: conflicts,
                NSLocalizedDescriptionKey:
                    "Could not merge changes: another writer changed or deleted \(names) since the context read \(conflicts.count == 1 ? "it" : "them").",
            ])
    }

    /// The error the error policy throws for constraint conflicts.
    static func constraintError(_ conflicts: [NSConstraintConflict]) -> NSError {
        let parts = conflicts.map { conflict -> String in
            let entity = conflict.conflictingObjects.first?.entity.name ?? "?"
            let values = conflict.constraint.map { "\($0) = \(conflict.constraintValues[$0].map { "\($0)" } ?? "nil")" }
            return "\(entity) (\(values.joined(separator: ", ")))"
        }
        return NSError(
            domain: NSCocoaErrorDomain, code: NSManagedObjectConstraintMergeError,
            userInfo: [
                NSPersistentStoreSaveConflictsErrorKey: conflicts,
                NSLocalizedDescriptionKey:
                    "Constraint unique violation: the save would store more than one object of \(parts.joined(separator: "; ")).",
            ])
    }
}

/// The default merge policy: a save that meets conflicts fails with an error listing them.
public var NSErrorMergePolicy: AnyObject { NSMergePolicy.error }
/// A property-based merge policy that applies external changes: the store's changed properties win.
public var NSMergeByPropertyStoreTrumpMergePolicy: AnyObject { NSMergePolicy.mergeByPropertyStoreTrump }
/// A property-based merge policy that applies in-memory changes: the context's changed properties win.
public var NSMergeByPropertyObjectTrumpMergePolicy: AnyObject { NSMergePolicy.mergeByPropertyObjectTrump }
/// A policy that overwrites the store's versions of conflicting objects with the in-memory objects.
public var NSOverwriteMergePolicy: AnyObject { NSMergePolicy.overwrite }
/// A policy that discards in-memory changes of conflicting objects in favor of the store's versions.
public var NSRollbackMergePolicy: AnyObject { NSMergePolicy.rollback }
