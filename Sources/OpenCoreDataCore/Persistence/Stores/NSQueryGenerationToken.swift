import GRDB
import Synchronization

/// An opaque token that names one generation of the data in a coordinator's stores: their contents as
/// of one moment.
///
/// A context pinned to a generation with `setQueryGenerationFrom(_:)` reads — fetches and faults —
/// that generation only, while other contexts keep writing. Pass ``current`` to pin a context to the
/// stores' contents as they are now; pass another context's `queryGenerationToken` to read the same
/// generation as that context. Only SQLite stores in WAL journal mode keep generations; other stores
/// are read as they are.
// @unchecked Sendable: `snapshots` is a `let` fixed at creation; each snapshot is a GRDB
// `DatabaseSnapshot`, which serializes its own reads on its dedicated connection.
public final class NSQueryGenerationToken: NSObject, NSCopying, @unchecked Sendable {
    /// The snapshot of each SQLite store, by store identifier; empty for the ``current`` marker.
    let snapshots: [String: DatabaseSnapshot]
    /// Whether the token is the ``current`` marker rather than a generation.
    let isCurrentMarker: Bool

    init(snapshots: [String: DatabaseSnapshot], isCurrentMarker: Bool = false) {
        self.snapshots = snapshots
        self.isCurrentMarker = isCurrentMarker
        super.init()
    }

    /// A token that stands for the most recent generation: a context given it pins itself to the
    /// stores' contents at that moment.
    public static let current = NSQueryGenerationToken(snapshots: [:], isCurrentMarker: true)

    /// Returns the token itself: tokens are immutable.
    public func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    /// Whether two tokens name the same generation.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSQueryGenerationToken else { return false }
        if other === self { return true }
        if isCurrentMarker || other.isCurrentMarker { return isCurrentMarker == other.isCurrentMarker }
        return snapshots.keys == other.snapshots.keys && snapshots.allSatisfy { key, value in other.snapshots[key] === value }
    }

    /// A hash consistent with ``isEqual(_:)``.
    public override var hash: Int {
        isCurrentMarker ? 1 : snapshots.keys.sorted().joined().hashValue
    }

    /// A token for the stores' contents now: one read transaction held open on a dedicated connection
    /// per SQLite store in WAL mode.
    static func make(for stores: [NSPersistentStore]) throws -> NSQueryGenerationToken {
        var snapshots: [String: DatabaseSnapshot] = [:]
        for store in stores {
            guard let sqlite = store as? SQLiteStore, let identifier = store.identifier,
                let pool = sqlite._database as? DatabasePool
            else { continue }
            snapshots[identifier] = try SQLiteStoreFileAccess.run(sqlite.fileURL) { try pool.makeSnapshot() }
        }
        return NSQueryGenerationToken(snapshots: snapshots)
    }
}

/// The query generation the reads on the current thread or task are pinned to.
enum QueryGenerationScope {
    /// Set while a pinned context reads through its coordinator; `nil` otherwise.
    @TaskLocal private static var bound: NSQueryGenerationToken?

    /// Whether any read in the process has ever been pinned. Until then no thread or task can have a
    /// generation bound, and the task-local lookup (a few hundred instructions, paid by every fault
    /// that fires) is skipped. It stays set afterwards: a task created inside a pinned read keeps the
    /// binding after the read returns.
    private static let everBound = Atomic<Bool>(false)

    /// The generation reads on the current thread or task are pinned to, if any.
    static var current: NSQueryGenerationToken? {
        guard everBound.load(ordering: .acquiring) else { return nil }
        return bound
    }

    /// Runs `body` with its reads pinned to `token`'s generation.
    static func withPinned<T>(_ token: NSQueryGenerationToken, _ body: () throws -> T) rethrows -> T {
        if !everBound.load(ordering: .relaxed) { everBound.store(true, ordering: .releasing) }
        return try $bound.withValue(token, operation: body)
    }

    /// The pinned snapshot of a store for the current read, if any.
    static func snapshot(for store: NSPersistentStore) -> DatabaseSnapshot? {
        guard let token = current, let identifier = store.identifier else { return nil }
        return token.snapshots[identifier]
    }

    /// Whether reads are pinned (the coordinator's row cache is then neither read nor filled).
    static var isPinned: Bool {
        current != nil
    }
}
