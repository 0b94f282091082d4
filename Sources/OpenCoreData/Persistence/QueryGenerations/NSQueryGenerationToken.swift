import GRDB

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
                  let pool = sqlite._database as? DatabasePool else { continue }
            snapshots[identifier] = try SQLiteStoreFileAccess.run(sqlite.fileURL) { try pool.makeSnapshot() }
        }
        return NSQueryGenerationToken(snapshots: snapshots)
    }
}

/// The query generation the reads on the current thread or task are pinned to.
enum QueryGenerationScope {
    /// Set while a pinned context reads through its coordinator; `nil` otherwise.
    @TaskLocal static var current: NSQueryGenerationToken?

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
