/// A dictionary keyed by object ID that compares its keys directly.
///
/// `[NSManagedObjectID: Value]` compares keys through `NSObject`'s `isEqual(_:)`, which takes `Any?`
/// and casts it back to an ID on every probe; the registries and caches that every fetched and saved
/// object passes through use this map instead. Keys hash with the ID's cached hash.
struct ObjectIDMap<Value> {
    /// An object ID as a dictionary key.
    struct Key: Hashable {
        let id: NSManagedObjectID

        @inline(__always)
        init(_ id: NSManagedObjectID) {
            self.id = id
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.id._names(sameObjectAs: rhs.id)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(id.hash)
        }
    }

    private var storage: [Key: Value] = [:]

    init() {}

    /// Adds the entries of `other`, replacing the values of IDs both have.
    mutating func merge(_ other: ObjectIDMap<Value>) {
        storage.merge(other.storage) { $1 }
    }

    /// The value of an ID; setting `nil` removes it.
    subscript(id: NSManagedObjectID) -> Value? {
        @inline(__always) get { storage[Key(id)] }
        @inline(__always) set { storage[Key(id)] = newValue }
    }

    /// Sets the value of an ID and returns the value it replaced, if any.
    @discardableResult
    mutating func updateValue(_ value: Value, forKey id: NSManagedObjectID) -> Value? {
        storage.updateValue(value, forKey: Key(id))
    }

    /// Removes the value of an ID and returns it.
    @discardableResult
    mutating func removeValue(forKey id: NSManagedObjectID) -> Value? {
        storage.removeValue(forKey: Key(id))
    }

    /// Keeps room for `capacity` entries.
    mutating func reserveCapacity(_ capacity: Int) {
        storage.reserveCapacity(capacity)
    }

    /// Removes every entry.
    mutating func removeAll() {
        storage.removeAll()
    }

    /// Removes the entries for which `shouldRemove` is true.
    mutating func removeAll(where shouldRemove: (NSManagedObjectID, Value) throws -> Bool) rethrows {
        storage = try storage.filter { try !shouldRemove($0.key.id, $0.value) }
    }

    /// The values, in no particular order.
    var values: Dictionary<Key, Value>.Values { storage.values }

    /// The number of entries.
    var count: Int { storage.count }

    /// Whether the map has no entries.
    var isEmpty: Bool { storage.isEmpty }
}
