import Dispatch

/// An object space to manipulate and track changes to managed objects.
///
/// A context registers one managed object per object ID (uniquing), tracks the objects you insert,
/// change and delete, fetches objects through its persistent store coordinator, and commits the
/// changes with ``save()``.
///
/// A context is not thread-safe: use it only on its own queue. A `.privateQueueConcurrencyType`
/// context owns a private serial queue; a `.mainQueueConcurrencyType` context runs on the main queue.
/// Reach either from another thread with ``perform(_:)``, ``performAndWait(_:)`` or
/// ``perform(schedule:_:)``. Its managed objects belong to it and must not cross threads; pass their
/// ``NSManagedObjectID``s instead.
// @unchecked Sendable: the context may be handed to any thread (as on Apple platforms), but its mutable
// state is touched only from its own queue — the private serial `DispatchQueue` or the main queue — which
// `perform`/`performAndWait` enter. That queue contract, not a lock, makes it safe; callers that use a
// context directly (outside `perform`) must do so from its queue, exactly as Core Data requires.
open class NSManagedObjectContext: NSObject, @unchecked Sendable {
    /// The concurrency type the context was created with.
    public let concurrencyType: NSManagedObjectContextConcurrencyType
    /// The serial queue the context's work runs on (the main queue for main-queue contexts).
    let queue: DispatchQueue
    /// Marks work running on `queue` on behalf of this context (for re-entrant `performAndWait`).
    let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    /// The coordinator the context fetches through and saves to.
    var _coordinator: NSPersistentStoreCoordinator? {
        didSet {
            _coordinatorRowCache = _coordinator?._rowCache
            _lastClassEntity = nil
        }
    }
    /// The coordinator's row cache, which every fault a fetch made asks whether it changed: kept apart
    /// so that asking does not retain the coordinator.
    final var _coordinatorRowCache: StoreRowCache?

    // The object sets below are `@exclusivity(unchecked)`: they are confined to the context's queue and
    // each access is one lookup or update that calls no code able to reach the same set again; the
    // runtime's dynamic check cost more than the lookup. See `NSManagedObject`'s stored properties.

    /// The class of the last `NSManagedObject(context:)` and the entity found for it in the immutable
    /// model of the context's coordinator (forgotten when the coordinator changes): objects are usually
    /// created in runs of one class.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var _lastClassEntity: (type: ObjectIdentifier, entity: NSEntityDescription)?

    /// Registered objects indexed by ID, one per object ID. Unless `retainsRegisteredObjects` is set,
    /// objects nothing else refers to leave it from time to time (see `RegisteredObjectRetention.swift`).
    /// Read and changed through `registry`, which first indexes the objects of fetches registered
    /// without an index (see `DeferredRegistration.swift`).
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var _indexedRegistry = ObjectIDMap<NSManagedObject>()
    /// Objects of fetches registered with the context but not yet in `_indexedRegistry`, one array per
    /// fetch (see `DeferredRegistration.swift`).
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var _unindexedObjects: [[NSManagedObject]] = []
    /// Counts the changes to the registry (each change through `registry`, each array of unindexed
    /// objects added), so that a fetch can tell whether code it called registered objects meanwhile.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var _registryChanges: UInt64 = 0
    /// Whether the registry keeps every registered object (`retainsRegisteredObjects`).
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var _retainsRegisteredObjects = false
    /// How many registered objects without pending changes the registry holds before it next lets go of
    /// the ones nothing else refers to.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var _registryReleaseThreshold = NSManagedObjectContext.minimumRegistryReleaseThreshold
    /// Objects inserted since the last save, in insertion order.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var _inserted = ObjectsInChangeOrder()
    /// Registered objects changed since the last save, in the order of their first change.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var _updated = ObjectsInChangeOrder()
    /// Registered objects deleted since the last save, in deletion order.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var _deleted = ObjectsInChangeOrder()
    /// The errors of faults whose rows could not be loaded, by object ID (`FaultFailures.swift`).
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var _faultFailures: [NSManagedObjectID: NSError] = [:]

    /// ``ConcurrencyDebug/isEnabled``, read once: `@Managed` accessors ask on every access, and reading
    /// a lazily initialized global each time costs a call.
    let _checksQueueUse = ConcurrencyDebug.isEnabled
    final var _name: String?
    final var _transactionAuthor: String?
    final var _shouldDeleteInaccessibleFaults = true
    /// Whether a main-queue context has asked the main queue to process its pending changes at the end
    /// of the current turn (see ``_scheduleEndOfTurnProcessing()``).
    final var _endOfTurnProcessingScheduled = false
    final var _stalenessInterval: TimeInterval = -1
    final var _mergePolicy: Any = NSErrorMergePolicy
    final var _userInfo = NSMutableDictionary()
    /// The pending batches of batched fetches (see `FetchBatches.swift`).
    let _fetchBatches = FetchBatchRegistry()
    final var _undoManager: UndoManager? {
        didSet { _watchesAccess = _checksQueueUse || _undoManager != nil }
    }
    /// Whether the context checks that it is used on its queue or records changes for undo: its objects'
    /// `@Managed` accessors then take the general path, which does both. One flag, kept with
    /// `_undoManager` (`_checksQueueUse` never changes), because every accessor asks.
    final private(set) var _watchesAccess = ConcurrencyDebug.isEnabled
    /// What changed since the last event, for `NSManagedObjectContextObjectsDidChange` (ObjectGraph/Notifications).
    let _changeEvents = ContextChangeEvents()
    /// Parent, children, automatic merging and query generation (ObjectGraph/MultiContext).
    let _links = ContextLinks()
    /// Whether deletes propagate at the end of each event or only at save (`propagatesDeletesAtEndOfEvent`).
    final var _propagatesDeletesAtEndOfEvent = true
    /// Objects marked with `detectConflicts(for:)` for the next save (ObjectGraph/Merging/ConflictDetection.swift).
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var _conflictDetectionObjects = ObjectsInChangeOrder()
    /// Snapshot events gathered during one undo or redo, delivered when it ends (ObjectGraph/Objects/SnapshotEvents.swift).
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var _pendingSnapshotEvents: [ObjectIdentifier: (object: NSManagedObject, flags: NSSnapshotEventType)]?
    /// Stores that new objects were assigned to with `assign(_:to:)`, by temporary ID (ObjectGraph/Context/NSManagedObjectContext+StoreAssignment.swift).
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    final var _storeAssignments: [NSManagedObjectID: NSPersistentStore] = [:]

    /// Creates a context with the given concurrency type.
    public init(concurrencyType: NSManagedObjectContextConcurrencyType) {
        self.concurrencyType = concurrencyType
        switch concurrencyType {
        case .mainQueueConcurrencyType:
            queue = DispatchQueue.main
        default:
            queue = DispatchQueue(label: "OpenCoreData.NSManagedObjectContext")
        }
        super.init()
        if concurrencyType == .privateQueueConcurrencyType {
            queue.setSpecific(key: queueKey, value: ObjectIdentifier(self))
        } else if concurrencyType == .mainQueueConcurrencyType {
            _ = MainQueueMark.key
        }
    }

    deinit {
        // The coordinator's cached rows of the objects let go of go too, unless something still holds
        // them (an object the app kept, or one of another context).
        _forgetUnheldRows(of: _disconnectObjects())
    }

    /// The persistent store coordinator the context fetches through and saves to.
    open var persistentStoreCoordinator: NSPersistentStoreCoordinator? {
        get { _coordinator }
        set {
            _requireNoParentForCoordinator()
            _coordinator = newValue
            if let model = newValue?.managedObjectModel { ManagedObjectClasses.remember(model) }
        }
    }

    /// The name of the context, used in logs and debugging.
    open var name: String? {
        get { _name }
        set { _name = newValue }
    }

    /// The author recorded with the transactions the context saves.
    open var transactionAuthor: String? {
        get { _transactionAuthor }
        set { _transactionAuthor = newValue }
    }

    /// A Boolean value that indicates whether a fault whose object no longer exists in the store is
    /// marked deleted (with empty values) when it fires; `true` unless set. When `false`, the object
    /// reads with no values but is not deleted, and a save that would write it throws
    /// `NSManagedObjectReferentialIntegrityError`.
    open var shouldDeleteInaccessibleFaults: Bool {
        get { _shouldDeleteInaccessibleFaults }
        set { _shouldDeleteInaccessibleFaults = newValue }
    }

    /// Asks the context whether to handle a fault whose data cannot be found, for `oid`, fired by
    /// `property` (`nil` when the whole object was fired). The default returns `true`.
    ///
    /// OpenCoreData does not consult this method: a fault whose row cannot be read reads with no values
    /// and the next save that writes it throws (see the porting guide, "A fault whose row cannot be read
    /// does not stop the program").
    open func shouldHandleInaccessibleFault(
        _ fault: NSManagedObject, for oid: NSManagedObjectID,
        triggeredByProperty property: NSPropertyDescription?
    ) -> Bool {
        true
    }

    /// The longest time, in seconds, a cached row may be used to fulfill a fault; a negative value
    /// (the default) means no limit. With 0 or more, faults are fulfilled from the store itself.
    open var stalenessInterval: TimeInterval {
        get { _stalenessInterval }
        set { _stalenessInterval = newValue }
    }

    /// The merge policy the context applies to conflicts found when saving; `NSErrorMergePolicy`
    /// unless set.
    open var mergePolicy: Any {
        get { _mergePolicy }
        set { _mergePolicy = newValue }
    }

    /// A dictionary for your own information about the context.
    open var userInfo: NSMutableDictionary {
        _userInfo
    }

}
