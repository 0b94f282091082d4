/// A context's place among other contexts: its parent, its children, and how it follows their saves.
///
/// Touched only on the owning context's queue, except `children`, which a parent reads on its own queue
/// while children register on theirs: it is guarded by `lock`.
// @unchecked Sendable: `children` is guarded by `lock`; the other properties are used only on the
// owning context's queue (the context's queue contract).
final class ContextLinks: @unchecked Sendable {
    /// The parent context (a child has no coordinator of its own).
    var parent: NSManagedObjectContext?
    /// Whether the context merges the saves of its parent (or, without a parent, of the other contexts
    /// on its coordinator) as they happen.
    var automaticallyMergesChangesFromParent = false
    /// The observer of other contexts' saves while merging automatically.
    var saveObserver: NSObjectProtocol?
    /// Temporary IDs of objects that have since received permanent IDs, so that children that still
    /// know an object by its temporary ID find it.
    // Unchecked exclusivity: used on the context's queue, one lookup or update an access.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    var retiredTemporaryIDs = ObjectIDMap<NSManagedObjectID>()
    /// The query generation the context's reads are pinned to.
    // Unchecked exclusivity: read and set on the context's queue; every fault a fetch made asks for it.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    var queryGeneration: NSQueryGenerationToken?

    private let lock = NSLock()
    private var _children: [WeakContext] = []

    /// A weak reference to a context, so that a parent never keeps its children alive.
    struct WeakContext {
        weak var context: NSManagedObjectContext?
    }

    /// The live children of the context.
    var children: [NSManagedObjectContext] {
        lock.withLock {
            _children.removeAll { $0.context == nil }
            return _children.compactMap(\.context)
        }
    }

    /// Whether the context has ever had a child context (live or released).
    var hasHadChildren: Bool {
        lock.withLock { !_children.isEmpty }
    }

    /// Registers a child context.
    func addChild(_ child: NSManagedObjectContext) {
        lock.withLock { _children.append(WeakContext(context: child)) }
    }

    deinit {
        if let saveObserver { NotificationCenter.default.removeObserver(saveObserver) }
    }
}
