/// A dictionary keyed by object ID that compares its keys directly and keeps the entries of permanent
/// IDs in pages of consecutive primary keys.
///
/// `[NSManagedObjectID: Value]` compares keys through `NSObject`'s `isEqual(_:)`, which takes `Any?`
/// and casts it back to an ID on every probe; the registries and caches that every fetched and saved
/// object passes through use this map instead.
///
/// Rows come out of a store mostly in primary-key order. A hash table spreads such keys over its whole
/// storage, so a fetch of many rows touches a new cache line (often a new memory page) for each one.
/// Here the entries of one entity's permanent IDs in one store sit in pages of ``pageSize`` consecutive
/// keys: consecutive rows share a page, found by one hash lookup. Temporary IDs are kept in the order
/// they were added and hashed only when a lookup needs them (see ``LazilyIndexedLog``): a context's new
/// objects are added one by one and, saved, taken out all at once.
struct ObjectIDMap<Value> {
    /// An object ID as a dictionary key (temporary IDs).
    ///
    /// The key keeps the ID's hash beside the reference, so that probing a table compares numbers and
    /// references it already holds instead of reading every ID it passes (IDs are scattered over the
    /// heap; reading one is often a cache miss). The same ID is found by identity.
    struct Key: Hashable {
        let id: NSManagedObjectID
        let hash: Int

        @inline(__always)
        init(_ id: NSManagedObjectID) {
            self.id = id
            hash = id.hash
        }

        @inline(__always)
        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.hash == rhs.hash && (lhs.id === rhs.id || lhs.id._names(sameObjectAs: rhs.id))
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hash)
        }

        /// The table hash: IDs' hashes are already well mixed, so a seeded multiply-and-fold replaces
        /// the general-purpose hasher.
        #if !(OCD_PLAIN_SWIFT || OCD_NO_RAW_HASH)
        @inline(__always)
        func _rawHashValue(seed: Int) -> Int {
            ObjectIDMap.mix(hash, seed: seed)
        }
        #endif
    }

    /// Spreads an already mixed hash with a table's seed (a multiply and two folds), so that tables with
    /// different seeds order the same keys differently.
    @inline(__always)
    static func mix(_ hash: Int, seed: Int) -> Int {
        var bits = UInt64(bitPattern: Int64(hash ^ seed))
        bits ^= bits >> 32
        bits &*= 0xD6E8_FEB8_6659_FD93
        bits ^= bits >> 32
        return Int(truncatingIfNeeded: bits)
    }

    /// The number of consecutive primary keys a page holds. Small, so that a map of scattered keys
    /// stays small; large enough that consecutive rows rarely need another lookup.
    static var pageSize: Int { 1 << pageShift }
    private static var pageShift: Int { 4 }

    /// Names one page: a store, an entity, and a run of ``pageSize`` primary keys.
    ///
    /// The key refers to its entity and store without reference counts, so that looking a page up costs
    /// no atomic operation: a key made for a lookup refers to the caller's, and a key in the table to the
    /// ones its ``Page`` keeps (a copy of the table copies the page, and the references with it). Keys
    /// made from an ID and from a row's ``ObjectIdentity`` are equal when the ID names the row.
    struct PageKey: Hashable {
        /// The entity of the page's IDs, unretained.
        let entity: Unmanaged<NSEntityDescription>
        /// The store of the page's IDs, unretained.
        let store: Unmanaged<ObjectIDStoreReference>
        /// The part of the IDs' hash their store and entity give.
        let base: Int
        /// The primary key divided by the page size.
        let number: Int64

        @inline(__always)
        init(entity: NSEntityDescription, store: ObjectIDStoreReference, base: Int, primaryKey: Int64) {
            self.entity = .passUnretained(entity)
            self.store = .passUnretained(store)
            self.base = base
            number = primaryKey >> ObjectIDMap.pageShift
        }

        /// The key of a permanent ID, whose primary key the caller read.
        @inline(__always)
        init(_ id: NSManagedObjectID, primaryKey: Int64) {
            self.init(
                entity: id.entity, store: id._storeReference!,
                base: id._permanentHashBase(primaryKey: primaryKey), primaryKey: primaryKey)
        }

        /// The key of a row of `scope`.
        @inline(__always)
        init(_ scope: ObjectIDScope, primaryKey: Int64) {
            self.init(entity: scope.entity, store: scope.store, base: scope.hashBase, primaryKey: primaryKey)
        }

        /// Equal as IDs are: the same key run, the same store identifier and the same entity name (the
        /// same references, in the usual case, settle both without reading them).
        static func == (lhs: PageKey, rhs: PageKey) -> Bool {
            guard lhs.number == rhs.number, lhs.base == rhs.base else { return false }
            let sameStore = lhs.store.withBorrowedReference { left in
                rhs.store.withBorrowedReference { ObjectIDStoreReference.sameIdentifier(left, $0) }
            }
            guard sameStore else { return false }
            return lhs.entity.withBorrowedReference { left in
                rhs.entity.withBorrowedReference { NSManagedObjectID.sameEntity(left, $0) }
            }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(base ^ Int(truncatingIfNeeded: number))
        }

        /// The table hash, without the general-purpose hasher (see ``Key``).
        #if !(OCD_PLAIN_SWIFT || OCD_NO_RAW_HASH)
        @inline(__always)
        func _rawHashValue(seed: Int) -> Int {
            ObjectIDMap.mix(base ^ Int(truncatingIfNeeded: number), seed: seed)
        }
        #endif
    }

    /// The entries of one page, by primary key modulo ``pageSize``.
    struct Page {
        /// The entity the page's key refers to, kept alive by the page.
        let entity: NSEntityDescription
        /// The store reference the page's key refers to, kept alive by the page.
        let store: ObjectIDStoreReference
        var entries: ContiguousArray<Value?>
        var count = 0

        init(entity: NSEntityDescription, store: ObjectIDStoreReference) {
            self.entity = entity
            self.store = store
            entries = ContiguousArray(repeating: nil, count: ObjectIDMap.pageSize)
        }

        /// Puts `value` in slot `index` and returns the value it replaces.
        @inline(__always)
        mutating func update(_ value: Value, at index: Int) -> Value? {
            if let old = entries[index] {
                entries[index] = value
                return old
            }
            entries[index] = value
            count += 1
            return nil
        }

        /// Empties slot `index` and returns its value.
        @inline(__always)
        mutating func remove(at index: Int) -> Value? {
            guard let old = entries[index] else { return nil }
            entries[index] = nil
            count -= 1
            return old
        }
    }

    /// The value of a temporary ID, with the ID as a key.
    struct TemporaryEntry: LazilyIndexedEntry {
        let key: Key
        var value: Value
    }

    private var temporary = LazilyIndexedLog<TemporaryEntry>()
    private var pages: [PageKey: Page] = [:]
    private var permanentCount = 0

    init() {}

    @inline(__always)
    private static func slot(of primaryKey: Int64) -> Int {
        Int(truncatingIfNeeded: primaryKey) & (pageSize - 1)
    }

    /// The value of an ID; setting `nil` removes it.
    subscript(id: NSManagedObjectID) -> Value? {
        get {
            guard let primaryKey = id.primaryKey else { return temporary[Key(id)]?.value }
            return self[PageKey(id, primaryKey: primaryKey), primaryKey]
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: id)
            } else {
                removeValue(forKey: id)
            }
        }
    }

    /// The value of the object an identity names.
    subscript(identity: ObjectIdentity) -> Value? {
        @inline(__always) get {
            switch identity {
            case .id(let id): self[id]
            case .row(let scope, let primaryKey): self[PageKey(scope, primaryKey: primaryKey), primaryKey]
            }
        }
    }

    /// The value of a permanent ID, by its page's key.
    @inline(__always)
    private subscript(key: PageKey, primaryKey: Int64) -> Value? {
        pages[key]?.entries[Self.slot(of: primaryKey)]
    }

    /// Sets the value of an ID and returns the value it replaced, if any.
    @discardableResult
    mutating func updateValue(_ value: Value, forKey id: NSManagedObjectID) -> Value? {
        guard let primaryKey = id.primaryKey else { return temporary.update(TemporaryEntry(key: Key(id), value: value))?.value }
        return updateValue(value, forPage: PageKey(id, primaryKey: primaryKey), primaryKey: primaryKey) {
            Page(entity: id.entity, store: id._storeReference!)
        }
    }

    /// Sets the value of the object an identity names and returns the value it replaced, if any.
    @discardableResult
    mutating func updateValue(_ value: Value, forIdentity identity: ObjectIdentity) -> Value? {
        switch identity {
        case .id(let id):
            return updateValue(value, forKey: id)
        case .row(let scope, let primaryKey):
            return updateValue(value, forPage: PageKey(scope, primaryKey: primaryKey), primaryKey: primaryKey) {
                Page(entity: scope.entity, store: scope.store)
            }
        }
    }

    @inline(__always)
    private mutating func updateValue(_ value: Value, forPage key: PageKey, primaryKey: Int64, newPage: () -> Page) -> Value? {
        let slot = Self.slot(of: primaryKey)
        if let index = pages.index(forKey: key) {
            let old = pages.values[index].update(value, at: slot)
            if old == nil { permanentCount += 1 }
            return old
        }
        var page = newPage()
        _ = page.update(value, at: slot)
        pages[key] = page
        permanentCount += 1
        return nil
    }

    /// Adds the value of an ID the map has no value for, without looking the ID up when it is temporary.
    ///
    /// A context registers each object it inserts under the object's new temporary ID this way.
    @inline(__always)
    mutating func appendNew(_ value: Value, forNewKey id: NSManagedObjectID) {
        guard id.primaryKey == nil else {
            updateValue(value, forKey: id)
            return
        }
        temporary.appendNew(TemporaryEntry(key: Key(id), value: value))
    }

    /// Removes the value of an ID and returns it.
    @discardableResult
    mutating func removeValue(forKey id: NSManagedObjectID) -> Value? {
        guard let primaryKey = id.primaryKey else { return temporary.remove(Key(id))?.value }
        return removeValue(forPage: PageKey(id, primaryKey: primaryKey), primaryKey: primaryKey) { _ in true }
    }

    /// Removes the value of a permanent ID when `isUnreferenced`, given the value in place (so that it
    /// may ask whether the map holds the only reference to it), returns `true`; returns the value
    /// removed. The value of a temporary ID stays.
    @discardableResult
    mutating func removeValue(forIdentity identity: ObjectIdentity, where isUnreferenced: (inout Value) -> Bool) -> Value? {
        switch identity {
        case .id(let id):
            guard let primaryKey = id.primaryKey else { return nil }
            return removeValue(forPage: PageKey(id, primaryKey: primaryKey), primaryKey: primaryKey, where: isUnreferenced)
        case .row(let scope, let primaryKey):
            return removeValue(forPage: PageKey(scope, primaryKey: primaryKey), primaryKey: primaryKey, where: isUnreferenced)
        }
    }

    @inline(__always)
    private mutating func removeValue(
        forPage key: PageKey, primaryKey: Int64,
        where isUnreferenced: (inout Value) -> Bool
    ) -> Value? {
        guard let index = pages.index(forKey: key) else { return nil }
        let slot = Self.slot(of: primaryKey)
        guard pages.values[index].entries[slot] != nil, isUnreferenced(&pages.values[index].entries[slot]!),
            let old = pages.values[index].remove(at: slot)
        else { return nil }
        permanentCount -= 1
        if pages.values[index].count == 0 { pages.remove(at: index) }
        return old
    }

    /// Adds the entries of `other`, replacing the values of IDs both have.
    mutating func merge(_ other: ObjectIDMap<Value>) {
        other.temporary.forEach { temporary.update($0) }
        for (key, page) in other.pages {
            for slot in page.entries.indices {
                guard let value = page.entries[slot] else { continue }
                let primaryKey = key.number << Self.pageShift | Int64(slot)
                _ = updateValue(value, forPage: key, primaryKey: primaryKey) { Page(entity: page.entity, store: page.store) }
            }
        }
    }

    /// Keeps room for `capacity` permanent IDs with consecutive primary keys.
    mutating func reserveCapacity(_ capacity: Int) {
        pages.reserveCapacity(capacity / Self.pageSize + 1)
    }

    /// Keeps room for `capacity` temporary IDs.
    mutating func reserveCapacity(temporary capacity: Int) {
        temporary.reserveCapacity(capacity)
    }

    /// Removes every entry.
    mutating func removeAll() {
        temporary.removeAll()
        pages.removeAll()
        permanentCount = 0
    }

    /// Removes the entries for which `shouldRemove` is true. When it throws, the entries of temporary
    /// IDs removed before stay removed.
    mutating func removeAll(where shouldRemove: (Value) throws -> Bool) rethrows {
        _ = try temporary.removeAll { try shouldRemove($0.value) }
        try removePages { page in
            for index in page.entries.indices {
                guard let value = page.entries[index], try shouldRemove(value) else { continue }
                _ = page.remove(at: index)
            }
        }
    }

    /// Removes the entries of the permanent IDs of a store identifier.
    mutating func removeAll(storeIdentifier: String?) {
        pages = pages.filter { $0.value.store.identifier != storeIdentifier }
        permanentCount = pages.values.reduce(0) { $0 + $1.count }
    }

    /// Calls `update` on every page, and keeps the pages it leaves entries in.
    private mutating func removePages(_ update: (inout Page) throws -> Void) rethrows {
        var kept: [PageKey: Page] = [:]
        var keptCount = 0
        for (key, page) in pages {
            var page = page
            try update(&page)
            if page.count > 0 {
                kept[key] = page
                keptCount += page.count
            }
        }
        pages = kept
        permanentCount = keptCount
    }

    /// Removes the entries whose value satisfies `isUnreferenced` and appends the removed values to
    /// `removed`. `isUnreferenced` gets each value in place, so that it may ask whether the map holds
    /// the only reference to it; the caller releases the removed values once the map is consistent.
    mutating func removeValues(where isUnreferenced: (inout Value) -> Bool, into removed: inout [Value]) {
        for entry in temporary.removeAll(where: { isUnreferenced(&$0.value) }) { removed.append(entry.value) }
        var emptied: [PageKey] = []
        var pageIndex = pages.startIndex
        while pageIndex != pages.endIndex {
            for slot in 0..<Self.pageSize where pages.values[pageIndex].entries[slot] != nil {
                guard isUnreferenced(&pages.values[pageIndex].entries[slot]!),
                    let value = pages.values[pageIndex].remove(at: slot)
                else { continue }
                removed.append(value)
                permanentCount -= 1
            }
            if pages.values[pageIndex].count == 0 { emptied.append(pages.keys[pageIndex]) }
            pageIndex = pages.index(after: pageIndex)
        }
        for key in emptied { pages.removeValue(forKey: key) }
    }

    /// Calls `body` with each value, in no particular order.
    func forEachValue(_ body: (Value) throws -> Void) rethrows {
        try temporary.forEach { try body($0.value) }
        for page in pages.values {
            for case let value? in page.entries { try body(value) }
        }
    }

    /// The values, in no particular order.
    var values: [Value] {
        var result: [Value] = []
        result.reserveCapacity(count)
        forEachValue { result.append($0) }
        return result
    }

    /// The number of entries.
    var count: Int { temporary.count + permanentCount }

    /// The number of entries of temporary IDs.
    var temporaryCount: Int { temporary.count }

    /// The entries of temporary IDs, taken out of the map (for ``restoreTemporary(_:where:)``).
    struct TemporaryEntries {
        fileprivate var entries: LazilyIndexedLog<TemporaryEntry>
    }

    /// Removes the entries of every temporary ID and returns them.
    mutating func takeTemporary() -> TemporaryEntries {
        defer { temporary = LazilyIndexedLog() }
        return TemporaryEntries(entries: temporary)
    }

    /// Puts back the taken entries for which `keep` is `true`.
    mutating func restoreTemporary(_ taken: TemporaryEntries, where keep: (NSManagedObjectID, Value) -> Bool) {
        taken.entries.forEach { entry in
            if keep(entry.key.id, entry.value) { temporary.update(entry) }
        }
    }

    /// Whether the map has no entries.
    var isEmpty: Bool { count == 0 }
}

extension ObjectIDMap where Value == StoreRow {
    /// The rows by the identities of the objects they store; of two rows of one object, the later.
    init(indexing rows: [StoreRow]) {
        self.init()
        for row in rows { updateValue(row, forIdentity: row.identity) }
    }
}
