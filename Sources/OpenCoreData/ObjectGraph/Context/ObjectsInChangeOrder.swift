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
    /// Each object's position in `slots`.
    private var positions: [ObjectIdentifier: Int] = [:]
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
            guard let position = positions[key] else { return nil }
            return slots[position]
        }
        set {
            if let newValue {
                if let position = positions[key] {
                    slots[position] = newValue
                } else {
                    positions[key] = slots.count
                    slots.append(newValue)
                }
            } else if let position = positions.removeValue(forKey: key) {
                slots[position] = nil
                if positions.isEmpty {
                    slots = []
                } else if slots.count >= 32, positions.count < slots.count / 2 {
                    compact()
                }
            }
        }
    }

    /// Drops the places of removed objects (keeping the order), so that passes do not walk over them.
    private mutating func compact() {
        var remaining: [NSManagedObject?] = []
        remaining.reserveCapacity(positions.count)
        for case let object? in slots {
            positions[ObjectIdentifier(object)] = remaining.count
            remaining.append(object)
        }
        slots = remaining
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
