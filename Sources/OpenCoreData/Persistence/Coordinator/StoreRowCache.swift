import Synchronization

/// The coordinator's row cache: the last row seen for each object ID, with its version (`Z_OPT`).
///
/// Fetches and saves refresh it; a fault fires from it before asking the store.
///
/// The rows of a save's new objects, and the rows of a fetch into an empty cache, are kept as they are
/// handed over and indexed by ID only when the cache is next used for anything else: a save whose new
/// rows nobody reads back (the objects that saved them keep their own snapshots), or a first fetch whose
/// faults fire from the rows they were made with, never indexes them.
// @unchecked Sendable: `rows` and `unindexed` are only touched while holding `lock`; `generation` is
// atomic, and changed only while holding `lock` too. The rows' values are never changed in place.
final class StoreRowCache: @unchecked Sendable {
    private let lock = NSLock()
    // Unchecked exclusivity: every access is one lookup or update under `lock`.
    @exclusivity(unchecked) private var rows = ObjectIDMap<StoreRow>()
    /// Rows not yet in `rows`, in the order they were handed over (under `lock`).
    @exclusivity(unchecked) private var unindexed: [UnindexedRows] = []

    /// Rows handed over but not yet indexed.
    private enum UnindexedRows {
        /// The new rows of one save.
        case inserted(InsertedRows)
        /// The rows of one fetch.
        case fetched([StoreRow])
    }

    /// The new rows of one save: its inserts and, position by position, their permanent IDs.
    private struct InsertedRows {
        let inserts: [StoreSaveChanges.Insert]
        let ids: [NSManagedObjectID]
        /// The version of every new row.
        let version: Int64
    }
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
        return lock.withLock {
            indexUnindexedRows()
            return rows[objectID]
        }
    }

    /// Stores rows, replacing older snapshots of the same objects, and returns the cache's generation
    /// with them stored: while the cache keeps it, they are the cached rows of their objects. Returns
    /// `nil` (and stores nothing) while a query generation is pinned: its rows bypass the cache.
    @discardableResult
    func store(_ newRows: [StoreRow]) -> UInt64? {
        store(newRows, keepingArray: false).generation
    }

    /// `store(_:)`, keeping the array itself when `keepingArray` allows and the cache is empty: the rows
    /// are then indexed when the cache is next used for anything else. `keptArray` tells whether it did,
    /// so that the caller reads the rows without changing the array (a change would copy it).
    ///
    /// An empty cache has no row the new ones could replace, so its generation stays as it is: the
    /// caller keeps the array only for rows that name each object once (two rows of one ID in a kept
    /// array would advance the generation only when they are indexed).
    func store(_ newRows: [StoreRow], keepingArray: Bool) -> (generation: UInt64?, keptArray: Bool) {
        guard !QueryGenerationScope.isPinned else { return (nil, false) }
        return lock.withLock {
            if keepingArray, newRows.count > 1, rows.isEmpty, unindexed.isEmpty {
                unindexed.append(.fetched(newRows))
                return (generation.load(ordering: .relaxed), true)
            }
            if !newRows.isEmpty { indexUnindexedRows() }
            // Only an empty cache reserves: later rows often replace cached ones.
            if rows.isEmpty { rows.reserveCapacity(newRows.count) }
            var replaced = false
            for row in newRows where rows.updateValue(row, forKey: row.objectID) != nil { replaced = true }
            if replaced { advanceGeneration() }
            return (generation.load(ordering: .relaxed), false)
        }
    }

    /// Stores the rows of a save's new objects: the objects with the temporary IDs of `inserts` now have
    /// the permanent IDs `ids` (position by position), and their rows `version`.
    ///
    /// The rows are indexed when the cache is next read or changed. New rows replace no cached row (their
    /// IDs are new), so the cache's generation stays as it is.
    func storeInserted(_ inserts: [StoreSaveChanges.Insert], ids: [NSManagedObjectID], version: Int64) {
        precondition(inserts.count == ids.count, "a save's IDs out of step with its inserts")
        guard !QueryGenerationScope.isPinned, !inserts.isEmpty else { return }
        lock.withLock { unindexed.append(.inserted(InsertedRows(inserts: inserts, ids: ids, version: version))) }
    }

    /// Moves the rows not yet indexed into `rows` (with `lock` held), in the order they were handed over:
    /// the rows of saves' new objects with each to-one value naming a new object of the same save by its
    /// permanent ID, and fetched rows as they are.
    private func indexUnindexedRows() {
        guard !unindexed.isEmpty else { return }
        let batches = unindexed
        unindexed = []
        var replaced = false
        for batch in batches {
            switch batch {
            case .inserted(let batch):
                if rows.isEmpty { rows.reserveCapacity(batch.ids.count) }
                // Built on the first temporary ID a value holds: most saves' rows hold none.
                let permanentIDs = PermanentIDTable(inserts: batch.inserts, ids: batch.ids)
                func permanent(_ id: NSManagedObjectID) -> NSManagedObjectID { permanentIDs[id] ?? id }
                for (insert, id) in zip(batch.inserts, batch.ids) {
                    let row = StoreRow(objectID: id, version: batch.version, values: insert.values.mappingObjectIDs(permanent))
                    if rows.updateValue(row, forKey: id) != nil { replaced = true }
                }
            case .fetched(let fetched):
                if rows.isEmpty { rows.reserveCapacity(fetched.count) }
                for row in fetched where rows.updateValue(row, forKey: row.objectID) != nil { replaced = true }
            }
        }
        if replaced { advanceGeneration() }
    }

    /// Forgets the rows of some objects.
    func remove(_ objectIDs: some Sequence<NSManagedObjectID>) {
        lock.withLock {
            var removed = false
            var indexed = false
            for id in objectIDs {
                if !indexed {
                    indexUnindexedRows()
                    indexed = true
                }
                if rows.removeValue(forKey: id) != nil { removed = true }
            }
            if removed { advanceGeneration() }
        }
    }

    /// Forgets the rows that match a condition.
    func remove(where condition: (StoreRow) -> Bool) {
        lock.withLock {
            indexUnindexedRows()
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
            indexUnindexedRows()
            rows.removeAll { id, _ in id.storeIdentifier == storeIdentifier }
            advanceGeneration()
        }
    }

    /// The number of cached rows.
    var count: Int {
        lock.withLock {
            indexUnindexedRows()
            return rows.count
        }
    }
}
