/// Constants that specify the reason a managed object may need to reinitialize its values, passed to
/// ``NSManagedObject/awake(fromSnapshotEvents:)``.
public struct NSSnapshotEventType: OptionSet, Sendable {
    public let rawValue: UInt

    /// Creates a set of snapshot events from its raw bit mask.
    public init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// Specifies a change due to undo from insertion: undo took a new object out of its context, or
    /// redo put it back.
    public static let undoInsertion = NSSnapshotEventType(rawValue: 1 << 1)
    /// Specifies a change due to undo from deletion: undo brought a deleted object back, or redo
    /// deleted it again.
    public static let undoDeletion = NSSnapshotEventType(rawValue: 1 << 2)
    /// Specifies a change due to a property-level undo or redo.
    public static let undoUpdate = NSSnapshotEventType(rawValue: 1 << 3)
    /// Specifies a change due to the managed object context being rolled back.
    public static let rollback = NSSnapshotEventType(rawValue: 1 << 4)
    /// Specifies a change due to the managed object being refreshed with its changes merged.
    public static let refresh = NSSnapshotEventType(rawValue: 1 << 5)
    /// Specifies a change due to conflict resolution during a save operation.
    public static let mergePolicy = NSSnapshotEventType(rawValue: 1 << 6)
}

/// Which snapshot event an undo or redo step means for an object.
enum SnapshotEvents {
    /// The event of moving an object between memberships: into or out of "deleted" is a deletion undone
    /// or redone, and so is a saved object coming back from "absent" (its delete was saved); a new
    /// object moving into or out of "absent" is an insertion undone or redone.
    static func membershipEvent(
        from before: NSManagedObjectContext.ObjectMembership,
        to after: NSManagedObjectContext.ObjectMembership, isNew: Bool
    ) -> NSSnapshotEventType {
        switch (before, after) {
        case (.deleted, _), (_, .deleted): return .undoDeletion
        case (.absent, _), (_, .absent): return isNew ? .undoInsertion : .undoDeletion
        default: return .undoUpdate
        }
    }
}

extension NSManagedObjectContext {
    /// Runs an undo or redo, gathering the snapshot events of the objects it changes, then calls each
    /// object's `awake(fromSnapshotEvents:)` once with all of its events.
    func _deliveringSnapshotEvents(_ body: () -> Void) {
        let outer = _pendingSnapshotEvents
        _pendingSnapshotEvents = [:]
        body()
        let gathered = _pendingSnapshotEvents ?? [:]
        _pendingSnapshotEvents = outer
        for (object, flags) in gathered.values { object.awake(fromSnapshotEvents: flags) }
    }

    /// Records a snapshot event for an object during an undo or redo.
    func _noteSnapshotEvent(_ event: NSSnapshotEventType, for object: NSManagedObject) {
        guard _pendingSnapshotEvents != nil else { return }
        let key = ObjectIdentifier(object)
        if let entry = _pendingSnapshotEvents?[key] {
            _pendingSnapshotEvents?[key] = (object, entry.flags.union(event))
        } else {
            _pendingSnapshotEvents?[key] = (object, event)
        }
    }
}
