import Synchronization

/// The coordinator's row cache: the last row seen for each object ID, with its version (`Z_OPT`).
///
/// Fetches and saves refresh it; a fault fires from it before asking the store.
// @unchecked Sendable: the dictionary is only touched while holding `lock`; `generation` is atomic,
// and changed only while holding `lock` too.
final class StoreRowCache: @unchecked Sendable {
    private let lock = NSLock()
    // Unchecked exclusivity: every access is one lookup or update under `lock`.
    @exclusivity(unchecked) private var rows = ObjectIDMap<StoreRow>()
    /// Changes whenever a cached row is replaced or forgotten. Read without the lock: a fault that
    /// fires asks for it alone.
    private let generation = Atomic<UInt64>(1)

    /// Whether no cached row has been replaced or forgotten since the cache had `generation`.
    func isCurrent(_ generation: UInt64) -> Bool {
        if QueryGenerationScope.isPinned { return false }
        return self.generation.load(ordering: .acquiring) == generation
    }

    /// Marks a replaced or forgotten row (with `lock` held).
    private func advanceGeneration() {
        generation.wrappingAdd(1, ordering: .releasing)
    }

    /// The cached row of an object.
    func row(for objectID: NSManagedObjectID) -> StoreRow? {
        if QueryGenerationScope.isPinned { return nil }
        return lock.withLock { rows[objectID] }
    }

    /// Stores rows, replacing older snapshots of the same objects, and returns the cache's generation
    /// with them stored: while the cache keeps it, they are the cached rows of their objects. Returns
    /// `nil` (and stores nothing) while a query generation is pinned: its rows bypass the cache.
    @discardableResult
    func store(_ newRows: [StoreRow]) -> UInt64? {
        guard !QueryGenerationScope.isPinned else { return nil }
        return lock.withLock {
            // Only an empty cache reserves: later rows often replace cached ones.
            if rows.isEmpty { rows.reserveCapacity(newRows.count) }
            var replaced = false
            for row in newRows where rows.updateValue(row, forKey: row.objectID) != nil { replaced = true }
            if replaced { advanceGeneration() }
            return generation.load(ordering: .relaxed)
        }
    }

    /// Forgets the rows of some objects.
    func remove(_ objectIDs: some Sequence<NSManagedObjectID>) {
        lock.withLock {
            var removed = false
            for id in objectIDs where rows.removeValue(forKey: id) != nil { removed = true }
            if removed { advanceGeneration() }
        }
    }

    /// Forgets the rows that match a condition.
    func remove(where condition: (StoreRow) -> Bool) {
        lock.withLock {
            rows.removeAll { _, row in condition(row) }
            advanceGeneration()
        }
    }

    /// Forgets every row of a store.
    func removeAll(of store: NSPersistentStore) {
        removeAll(storeIdentifier: store.identifier)
    }

    /// Forgets every row cached under a store identifier (a store's identifier before it changed).
    func removeAll(storeIdentifier: String?) {
        lock.withLock {
            rows.removeAll { id, _ in id.storeIdentifier == storeIdentifier }
            advanceGeneration()
        }
    }

    /// The number of cached rows.
    var count: Int {
        lock.withLock { rows.count }
    }
}
