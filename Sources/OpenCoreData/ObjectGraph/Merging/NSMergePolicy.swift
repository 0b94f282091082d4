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

/// A policy object that defines how conflicts found when saving are resolved.
///
/// The default policy of every context is `NSErrorMergePolicy`: a save that meets a conflict fails with
/// `NSManagedObjectMergeError` (133020) and the conflicts under `NSPersistentStoreSaveConflictsErrorKey`.
// @unchecked Sendable: immutable; its only property is a `let`.
open class NSMergePolicy: NSObject, @unchecked Sendable {
    /// The kind of resolution the policy applies.
    public let mergeType: NSMergePolicyType

    /// Creates a policy of the given type.
    public init(merge ty: NSMergePolicyType) {
        mergeType = ty
        super.init()
    }

    /// The policy that fails a save with conflicts.
    public static let error = NSMergePolicy(merge: .errorMergePolicyType)
    /// The policy whose store-side property values win.
    public static let mergeByPropertyStoreTrump = NSMergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
    /// The policy whose context-side property values win.
    public static let mergeByPropertyObjectTrump = NSMergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
    /// The policy whose context-side objects overwrite the store's.
    public static let overwrite = NSMergePolicy(merge: .overwriteMergePolicyType)
    /// The policy that discards the context's conflicting changes.
    public static let rollback = NSMergePolicy(merge: .rollbackMergePolicyType)
}

/// The default merge policy: a save that meets conflicts fails with an error listing them.
public var NSErrorMergePolicy: Any { NSMergePolicy.error }
