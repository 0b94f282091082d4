/// A context's objects of one kind of pending change (inserted, updated or deleted), by identity, in the
/// order they were first added.
///
/// A save, validation, `processPendingChanges()` and the did-save notification each pass over these
/// objects. In a dictionary's order every step of such a pass lands on an object far from the last one
/// in memory (a cache miss on a large save); in the order the objects were added, which is usually the
/// order they were made in, the passes walk memory forward.
///
/// Used like the dictionary it replaces: keys are the objects' `ObjectIdentifier`s, setting `nil`
/// removes, and iterating (or iterating ``values``) works on a copy, so the collection may change
/// meanwhile.
struct ObjectsInChangeOrder: Sequence, ExpressibleByDictionaryLiteral {
    /// An object's identity as a key of `positions`, hashed without the general-purpose hasher: object
    /// addresses differ in their middle bits, which a multiply spreads (as ``ObjectIDMap`` does for IDs).
    private struct Identity: Hashable {
        let identity: ObjectIdentifier

        @inline(__always)
        init(_ identity: ObjectIdentifier) {
            self.identity = identity
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(identity)
        }

        @inline(__always)
        func _rawHashValue(seed: Int) -> Int {
            ObjectIDMap<Never>.mix(Int(bitPattern: identity), seed: seed)
        }
    }

    /// Each object's position in `slots`.
    private var positions: [Identity: Int] = [:]
    /// The objects in the order they were added; `nil` where one was removed since the last compaction.
    private var slots: [NSManagedObject?] = []

    init() {}

    init(dictionaryLiteral elements: (ObjectIdentifier, NSManagedObject)...) {
        for (key, object) in elements { self[key] = object }
    }

    /// The number of objects.
    var count: Int { positions.count }

    /// Whether there are no objects.
    var isEmpty: Bool { positions.isEmpty }

    /// The object with the given identity; setting an object keeps the position of the one it replaces,
    /// setting `nil` removes it.
    subscript(key: ObjectIdentifier) -> NSManagedObject? {
        get {
            guard let position = positions[Identity(key)] else { return nil }
            return slots[position]
        }
        set {
            if let newValue {
                // One probe: a new object's entry is made with the next position.
                let next = slots.count
                let position = Self.value(&positions[Identity(key), default: next])
                if position == next {
                    slots.append(newValue)
                } else if slots[position] !== newValue {
                    // Setting the object already there changes nothing (and copies no shared storage).
                    slots[position] = newValue
                }
            } else if let position = positions.removeValue(forKey: Identity(key)) {
                slots[position] = nil
                if positions.isEmpty {
                    slots = []
                } else if slots.count >= 32, positions.count < slots.count / 2 {
                    compact()
                }
            }
        }
    }

    @inline(__always)
    private static func value(_ position: inout Int) -> Int { position }

    /// Drops the places of removed objects (keeping the order), so that passes do not walk over them.
    private mutating func compact() {
        var remaining: [NSManagedObject?] = []
        remaining.reserveCapacity(positions.count)
        for case let object? in slots {
            positions[Identity(ObjectIdentifier(object))] = remaining.count
            remaining.append(object)
        }
        slots = remaining
    }

    /// Whether `self` is a copy of `other` that neither has changed since it was made (every change of
    /// a copy gives it storage of its own).
    func isUnchanged(since other: ObjectsInChangeOrder) -> Bool {
        guard slots.count == other.slots.count, positions.count == other.positions.count else { return false }
        if slots.isEmpty { return true }
        return slots.withUnsafeBufferPointer { mine in
            other.slots.withUnsafeBufferPointer { mine.baseAddress == $0.baseAddress }
        }
    }

    /// The objects, in the order they were added.
    var values: Values { Values(slots: slots, count: positions.count) }

    func makeIterator() -> Iterator {
        Iterator(slots: slots)
    }

    /// The objects of an ``ObjectsInChangeOrder``, in the order they were added.
    struct Values: Sequence {
        fileprivate let slots: [NSManagedObject?]
        fileprivate let count: Int

        var underestimatedCount: Int { count }

        func makeIterator() -> ValuesIterator {
            ValuesIterator(base: slots.makeIterator())
        }
    }

    /// Iterates over ``Values``.
    struct ValuesIterator: IteratorProtocol {
        fileprivate var base: IndexingIterator<[NSManagedObject?]>

        mutating func next() -> NSManagedObject? {
            while let slot = base.next() {
                if let object = slot { return object }
            }
            return nil
        }
    }

    /// Iterates over the identities and objects, in the order the objects were added.
    struct Iterator: IteratorProtocol {
        fileprivate var base: ValuesIterator

        fileprivate init(slots: [NSManagedObject?]) {
            base = ValuesIterator(base: slots.makeIterator())
        }

        mutating func next() -> (key: ObjectIdentifier, value: NSManagedObject)? {
            guard let object = base.next() else { return nil }
            return (ObjectIdentifier(object), object)
        }
    }
}
