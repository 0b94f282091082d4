/// The coordinator's row cache: the last row seen for each object ID, with its version (`Z_OPT`).
///
/// Fetches and saves refresh it; a fault fires from it before asking the store.
// @unchecked Sendable: the dictionary is only touched while holding `lock`.
final class StoreRowCache: @unchecked Sendable {
    private let lock = NSLock()
    // Unchecked exclusivity: every access is one lookup or update under `lock`.
    @exclusivity(unchecked) private var rows = ObjectIDMap<StoreRow>()

    /// The cached row of an object.
    func row(for objectID: NSManagedObjectID) -> StoreRow? {
        if QueryGenerationScope.isPinned { return nil }
        return lock.withLock { rows[objectID] }
    }

    /// Stores rows, replacing older snapshots of the same objects.
    func store(_ newRows: [StoreRow]) {
        guard !newRows.isEmpty, !QueryGenerationScope.isPinned else { return }
        lock.withLock {
            if rows.isEmpty { rows.reserveCapacity(newRows.count) }
            for row in newRows { rows[row.objectID] = row }
        }
    }

    /// Forgets the rows of some objects.
    func remove(_ objectIDs: some Sequence<NSManagedObjectID>) {
        lock.withLock {
            for id in objectIDs { rows.removeValue(forKey: id) }
        }
    }

    /// Forgets the rows that match a condition.
    func remove(where condition: (StoreRow) -> Bool) {
        lock.withLock {
            rows.removeAll { _, row in condition(row) }
        }
    }

    /// Forgets every row of a store.
    func removeAll(of store: NSPersistentStore) {
        lock.withLock {
            rows.removeAll { id, _ in id.storeIdentifier == store.identifier }
        }
    }

    /// The number of cached rows.
    var count: Int {
        lock.withLock { rows.count }
    }
}
