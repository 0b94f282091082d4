import COpenCoreDataRuntime
import Synchronization

/// The coordinator's row cache: the last row seen for each object ID, with its version (`Z_OPT`).
///
/// Fetches and saves refresh it; a fault fires from it before asking the store.
///
/// The rows of a save's new objects, and the rows of a fetch into an empty cache, are kept as they are
/// handed over and indexed by ID only when the cache is next used for anything else: a save whose new
/// rows nobody reads back (the objects that saved them keep their own snapshots), or a first fetch whose
/// faults fire from the rows they were made with, never indexes them.
///
/// A row stays while an object holds it (as its snapshot, or its current values): when a context goes
/// away, is reset, or lets go of objects nothing else refers to, the rows of its objects that no other
/// object holds are forgotten (`forgetUnheldRows(of:)`), as Core Data's row cache lets go of a row once
/// no context refers to it. Without that, a coordinator that outlives its contexts would keep every row
/// any of them ever fetched.
// @unchecked Sendable: `rows` and `unindexed` are only touched while holding `lock`; `generation` is
// atomic, and changed only while holding `lock` too. The rows' values are never changed in place.
final class StoreRowCache: @unchecked Sendable {
    private let lock = NSLock()
    // Unchecked exclusivity: every access is one lookup or update under `lock`.
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    private var rows = ObjectIDMap<StoreRow>()
    /// Rows not yet in `rows`, in the order they were handed over (under `lock`).
    #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
    @exclusivity(unchecked)
    #endif
    private var unindexed: [UnindexedRows] = []

    /// Rows handed over but not yet indexed.
    private enum UnindexedRows {
        /// The new rows of one save.
        case inserted(InsertedRows)
        /// The rows of one fetch.
        case fetched(FetchedRows)
    }

    /// The rows of one fetch, not yet indexed: a class, so that the array is changed in place, never
    /// copied (a copy would hold every row's values a second time).
    private final class FetchedRows {
        var rows: [StoreRow]

        init(_ rows: [StoreRow]) {
            self.rows = rows
        }

        /// Moves the rows no object holds into `forgotten`, keeping the others in order. Called with the
        /// cache's lock held, so that no one can take a new reference to the rows' values meanwhile; the
        /// caller lets go of `forgotten` after unlocking.
        ///
        /// A large fetch's rows have long left the processor's caches: each row's ID and values are asked
        /// for some rows ahead, and the rows are taken last first, as the context lets go of its objects.
        func takeUnheldRows(into forgotten: inout [StoreRow]) {
            // Taken out, so that the array is a local one held once (unless the fetch that made it still
            // holds it: then every row is held, and kept): each row is moved out, not copied, and asked
            // about in place.
            var all = rows
            rows = []
            var kept: [StoreRow] = []
            while var row = StoreRow.removeLast(prefetchingAheadIn: &all) {
                if row.holdsValuesAlone() {
                    forgotten.append(row)
                } else {
                    kept.append(row)
                }
            }
            kept.reverse()
            rows = kept
        }
    }

    /// The new rows of one save: its inserts and, position by position, their permanent IDs (a class, for
    /// the same reason as ``FetchedRows``).
    private final class InsertedRows {
        private(set) var inserts: [StoreSaveChanges.Insert]
        private(set) var ids: [NSManagedObjectID]
        /// The version of every new row.
        let version: Int64

        init(inserts: [StoreSaveChanges.Insert], ids: [NSManagedObjectID], version: Int64) {
            self.inserts = inserts
            self.ids = ids
            self.version = version
        }

        /// Moves the inserts whose objects no longer hold their values (and their IDs) into `forgotten`,
        /// keeping the others in order, as ``FetchedRows/takeUnheldRows(into:)`` does for a fetch's rows.
        /// The rows are made only when indexed, so no object holds one yet: an insert whose values nothing
        /// else shares is a row no one will read back from here.
        func takeUnheldInserts(into forgotten: inout [(StoreSaveChanges.Insert, NSManagedObjectID)]) {
            var allInserts = inserts, allIDs = ids
            inserts = []
            ids = []
            var keptInserts: [StoreSaveChanges.Insert] = [], keptIDs: [NSManagedObjectID] = []
            while var insert = allInserts.popLast(), let id = allIDs.popLast() {
                if insert.holdsValuesAlone() {
                    forgotten.append((insert, id))
                } else {
                    keptInserts.append(insert)
                    keptIDs.append(id)
                }
            }
            inserts = keptInserts.reversed()
            ids = keptIDs.reversed()
        }
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
                unindexed.append(.fetched(FetchedRows(newRows)))
                return (generation.load(ordering: .relaxed), true)
            }
            if !newRows.isEmpty { indexUnindexedRows() }
            // Only an empty cache reserves: later rows often replace cached ones.
            if rows.isEmpty { rows.reserveCapacity(newRows.count) }
            var replaced = false
            for row in newRows where rows.updateValue(row, forIdentity: row.identity) != nil { replaced = true }
            if replaced { advanceGeneration() }
            return (generation.load(ordering: .relaxed), false)
        }
    }

    /// Whether the cache holds a row of the object `identity` names (never while a query generation is
    /// pinned).
    func holdsRow(for identity: ObjectIdentity) -> Bool {
        if QueryGenerationScope.isPinned { return false }
        return lock.withLock {
            indexUnindexedRows()
            return rows[identity] != nil
        }
    }

    /// Stores the rows of objects the cache has no row for, leaving every cached row as it is: no row is
    /// replaced, so the cache's generation stays as it is. Stores nothing while a query generation is
    /// pinned.
    func storeUncached(_ newRows: [StoreRow]) {
        guard !QueryGenerationScope.isPinned, !newRows.isEmpty else { return }
        lock.withLock {
            indexUnindexedRows()
            for row in newRows where rows[row.identity] == nil {
                _ = rows.updateValue(row, forIdentity: row.identity)
            }
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
                if rows.isEmpty { rows.reserveCapacity(fetched.rows.count) }
                for row in fetched.rows where rows.updateValue(row, forIdentity: row.identity) != nil { replaced = true }
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

    /// Forgets the cached rows of the objects `identities` name that no object holds, and every row not
    /// yet indexed that no object holds, whatever its ID: a fetch's rows no object shares, a save's new
    /// rows whose objects no longer share their values. Called once the objects a context lets go of are
    /// gone: the rows of objects still alive (in other contexts, or kept by the app) stay.
    ///
    /// A fault fires from the row it was made with only while that row is still the cached one, and it
    /// holds that row's values; so no fault's row is among those forgotten, and the generation stays
    /// as it is (advancing it would send every other context's faults to the store).
    ///
    /// The rows are looked at under the lock and let go of after it: for a large fetch, freeing them is
    /// most of the work.
    func forgetUnheldRows(of identities: consuming [ObjectIdentity]) {
        var identities = identities
        var forgotten: [StoreRow] = []
        var forgottenInserts: [(StoreSaveChanges.Insert, NSManagedObjectID)] = []
        lock.withLock {
            if !rows.isEmpty {
                for identity in identities {
                    if let row = rows.removeValue(forIdentity: identity, where: { $0.holdsValuesAlone() }) {
                        forgotten.append(row)
                    }
                }
            }
            // Rows not yet indexed are looked at where they are, whatever their IDs.
            unindexed.removeAll { batch in
                switch batch {
                case .fetched(let fetched):
                    fetched.takeUnheldRows(into: &forgotten)
                    return fetched.rows.isEmpty
                case .inserted(let inserted):
                    inserted.takeUnheldInserts(into: &forgottenInserts)
                    return inserted.inserts.isEmpty
                }
            }
        }
        // The identities first: the forgotten rows hold what they refer to too, so this only counts
        // them down.
        Self.release(&identities)
        Self.release(&forgotten)
        forgottenInserts = []
    }

    /// Lets go of `rows`, last first, asking for each row's ID and values some rows ahead.
    private static func release(_ rows: inout [StoreRow]) {
        while StoreRow.removeLast(prefetchingAheadIn: &rows) != nil {}
    }

    /// Lets go of `identities`, last first, asking for the reference count of each ID some identities
    /// ahead: after a large context's objects, the IDs have left the processor's caches (the scopes of
    /// fetched rows' identities are shared, and stay cached).
    private static func release(_ identities: inout [ObjectIdentity]) {
        while !identities.isEmpty {
            let ahead = identities.count &- 1 &- PassPrefetch.distance
            if ahead >= 0, case .id(let id) = identities[ahead] {
                PassPrefetch.forWriting(Unmanaged.passUnretained(id).toOpaque())
            }
            identities.removeLast()
        }
    }

    /// Forgets the rows that match a condition.
    func remove(where condition: (StoreRow) -> Bool) {
        lock.withLock {
            indexUnindexedRows()
            rows.removeAll(where: condition)
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
            rows.removeAll(storeIdentifier: storeIdentifier)
            advanceGeneration()
        }
    }

    /// The number of cached rows.
    /// The number of rows of fetches not yet indexed, counted without indexing them.
    var unindexedFetchedRowCount: Int {
        lock.withLock {
            unindexed.reduce(0) { count, batch in
                if case .fetched(let fetched) = batch { count + fetched.rows.count } else { count }
            }
        }
    }

    var count: Int {
        lock.withLock {
            indexUnindexedRows()
            return rows.count
        }
    }
}
