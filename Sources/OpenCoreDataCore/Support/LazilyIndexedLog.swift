/// An element of a ``LazilyIndexedLog``: it names the key it is found by.
protocol LazilyIndexedEntry {
    associatedtype Key: Hashable
    /// The key the entry is found by.
    var key: Key { get }
}

/// Entries in the order they were added, found by key through an index that is brought up to date only
/// when a lookup needs it.
///
/// Adding an entry whose key is known to be new (``appendNew(_:)``) is an append. A context takes its new
/// objects one by one, and a save that then takes them all (the usual case) never looks one up by key:
/// hashing each into a table, whose growth rehashed them again, was a tenth of a large insert. The first
/// lookup indexes every entry appended since the last one.
///
/// A value type: copies share one storage until one of them changes, and each change first makes the
/// storage its own. Copies that share a storage therefore hold the same entries, so a lookup through any
/// of them may bring the shared index up to date for all.
struct LazilyIndexedLog<Entry: LazilyIndexedEntry> {
    /// The entries, with the index of the first `indexedCount` of them.
    ///
    /// Not thread-safe: a log is used on one queue at a time (its context's). Its properties skip the
    /// runtime's dynamic exclusivity checks: no access to one calls code that can reach the same storage.
    private final class Storage {
        /// The entries in the order they were added; `nil` where one was removed since the last compaction.
        #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
        @exclusivity(unchecked)
        #endif
        var entries: [Entry?]
        /// The position in `entries` of each entry among the first `indexedCount`.
        #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
        @exclusivity(unchecked)
        #endif
        var positions: [Entry.Key: Int]
        /// How many of `entries` `positions` covers.
        #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
        @exclusivity(unchecked)
        #endif
        var indexedCount: Int
        /// The number of entries present.
        #if !(OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY)
        @exclusivity(unchecked)
        #endif
        var count: Int

        init(entries: [Entry?] = [], positions: [Entry.Key: Int] = [:], indexedCount: Int = 0, count: Int = 0) {
            self.entries = entries
            self.positions = positions
            self.indexedCount = indexedCount
            self.count = count
        }

        /// A storage of its own holding the same entries (the arrays themselves are shared until changed).
        func copy() -> Storage {
            Storage(entries: entries, positions: positions, indexedCount: indexedCount, count: count)
        }

        /// Indexes the entries appended since the last lookup. An entry whose key an earlier entry has
        /// (``LazilyIndexedLog/appendNew(_:)`` misused) replaces that entry in its place, as an update
        /// would have.
        @inline(__always)
        func indexAppended() {
            if indexedCount < entries.count { indexRemaining() }
        }

        /// The position of the entry with the given key, indexing the appended entries first.
        @inline(__always)
        func position(of key: Entry.Key) -> Int? {
            guard count > 0 else { return nil }
            indexAppended()
            return positions[key]
        }

        @inline(never)
        private func indexRemaining() {
            positions.reserveCapacity(count)
            while indexedCount < entries.count {
                let position = indexedCount
                indexedCount += 1
                guard let entry = entries[position] else { continue }
                if let earlier = positions.updateValue(position, forKey: entry.key) {
                    entries[earlier] = entry
                    entries[position] = nil
                    positions[entry.key] = earlier
                    count -= 1
                }
            }
        }
    }

    private var storage: Storage?

    /// An empty log.
    init() {}

    /// The number of entries.
    var count: Int { storage?.count ?? 0 }

    /// Whether there are no entries.
    var isEmpty: Bool { count == 0 }

    /// The entry with the given key, if any.
    subscript(key: Entry.Key) -> Entry? {
        guard let storage, let position = storage.position(of: key) else { return nil }
        return storage.entries[position]
    }

    /// Adds an entry at the end without looking its key up: no entry may have the same key.
    ///
    /// Should one have it after all, the next lookup keeps the new entry in the old one's place, as an
    /// update would have; until then, ``count`` counts both.
    @inline(__always)
    mutating func appendNew(_ entry: Entry) {
        // With the technique off (``RuntimeTechniques/lazyIndexing``) every entry is indexed as it comes.
        guard RuntimeTechniques.lazyIndexing else {
            update(entry)
            return
        }
        makeUnique()
        // Borrowed: the log keeps its storage.
        Unmanaged.passUnretained(storage.unsafelyAssumedValue).withBorrowedReference { storage in
            storage.entries.append(entry)
            storage.count += 1
        }
    }

    /// Replaces the entry with the same key in its place, or adds `entry` at the end; returns the entry
    /// replaced. An entry for which `isSame` returns `true` stays, and a storage shared with a copy is
    /// then not copied.
    @discardableResult
    mutating func update(_ entry: Entry, unlessSame isSame: (Entry) -> Bool = { _ in false }) -> Entry? {
        if !isKnownUniquelyReferenced(&storage) {
            if let position = storage?.position(of: entry.key),
                let current = storage.unsafelyAssumedValue.entries[position], isSame(current)
            {
                return current
            }
            makeUnique()
        }
        let storage = storage.unsafelyAssumedValue
        storage.indexAppended()
        // One probe: a new key's position is made the next one.
        let next = storage.entries.count
        let position = Self.value(&storage.positions[entry.key, default: next])
        if position == next {
            storage.entries.append(entry)
            storage.indexedCount = next + 1
            storage.count += 1
            return nil
        }
        let current = storage.entries[position]
        if let current, isSame(current) { return current }
        storage.entries[position] = entry
        return current
    }

    @inline(__always)
    private static func value(_ position: inout Int) -> Int { position }

    /// Removes the entry with the given key and returns it.
    @discardableResult
    mutating func remove(_ key: Entry.Key) -> Entry? {
        if !isKnownUniquelyReferenced(&storage) {
            // Looked up before a shared storage is copied: removing a key that is not there copies nothing.
            guard storage?.position(of: key) != nil else { return nil }
            makeUnique()
        }
        let storage = storage.unsafelyAssumedValue
        storage.indexAppended()
        guard let position = storage.positions.removeValue(forKey: key) else { return nil }
        let removed = storage.entries[position]
        storage.entries[position] = nil
        storage.count -= 1
        if storage.count == 0 {
            self.storage = nil
        } else if storage.entries.count >= 32, storage.count < storage.entries.count / 2 {
            compact(storage)
        }
        return removed
    }

    /// Removes the entries for which `isRemoved` returns `true`, giving each entry in place (so that it
    /// may ask whether the log holds the only reference to part of it), and returns them in order.
    ///
    /// `isRemoved` must not use the log: it runs while the log writes its entries. When it throws, the
    /// entries removed before stay removed.
    mutating func removeAll(where isRemoved: (inout Entry) throws -> Bool) rethrows -> [Entry] {
        guard count > 0 else { return [] }
        makeUnique()
        let storage = storage.unsafelyAssumedValue
        storage.indexAppended()
        var removed: [Entry] = []
        // Positions are stepped one by one: `indices` would hold a second reference to the entries, and
        // reaching an entry in place through it would copy them.
        var position = 0
        while position < storage.entries.count {
            defer { position += 1 }
            guard storage.entries[position] != nil, try isRemoved(&storage.entries[position]!) else { continue }
            if let entry = storage.entries[position] {
                storage.positions[entry.key] = nil
                removed.append(entry)
            }
            storage.entries[position] = nil
            storage.count -= 1
        }
        if storage.count == 0 {
            self.storage = nil
        } else if !removed.isEmpty {
            compact(storage)
        }
        return removed
    }

    /// Removes every entry.
    mutating func removeAll() {
        storage = nil
    }

    /// Keeps room for `capacity` entries, and for their index.
    mutating func reserveCapacity(_ capacity: Int) {
        makeUnique()
        storage!.entries.reserveCapacity(capacity)
        storage!.positions.reserveCapacity(capacity)
    }

    /// Whether `self` is a copy of `other` that neither has changed since it was made.
    func isUnchanged(since other: LazilyIndexedLog) -> Bool {
        storage === other.storage || (isEmpty && other.isEmpty)
    }

    /// The entries in the order they were added, with a `nil` where one was removed: a copy, so the log
    /// may change while it is gone through.
    var entries: [Entry?] { storage?.entries ?? [] }

    /// Calls `body` with each entry, in the order they were added.
    func forEach(_ body: (Entry) throws -> Void) rethrows {
        guard let storage else { return }
        for case let entry? in storage.entries { try body(entry) }
    }

    /// Gives the log a storage of its own (a new one when it has none).
    @inline(__always)
    private mutating func makeUnique() {
        if storage == nil {
            storage = Storage()
        } else if !isKnownUniquelyReferenced(&storage) {
            storage = storage!.copy()
        }
    }

    /// Drops the places of removed entries, keeping the order, so that passes do not walk over them.
    private func compact(_ storage: Storage) {
        var remaining: [Entry?] = []
        remaining.reserveCapacity(storage.count)
        var positions: [Entry.Key: Int] = [:]
        positions.reserveCapacity(storage.count)
        for case let entry? in storage.entries {
            positions[entry.key] = remaining.count
            remaining.append(entry)
        }
        storage.entries = remaining
        storage.positions = positions
        storage.indexedCount = remaining.count
    }
}
