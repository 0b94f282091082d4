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
    /// An object's identity as a key of the index, hashed without the general-purpose hasher: object
    /// addresses differ in their middle bits, which a multiply spreads (as ``ObjectIDMap`` does for IDs).
    fileprivate struct Identity: Hashable {
        let identity: ObjectIdentifier

        @inline(__always)
        init(_ identity: ObjectIdentifier) {
            self.identity = identity
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(identity)
        }

        #if !(OCD_PLAIN_SWIFT || OCD_NO_RAW_HASH)
        @inline(__always)
        func _rawHashValue(seed: Int) -> Int {
            ObjectIDMap<Never>.mix(Int(bitPattern: identity), seed: seed)
        }
        #endif
    }

    /// One object of the collection, found by its identity.
    fileprivate struct Member: LazilyIndexedEntry {
        let object: NSManagedObject

        var key: Identity {
            @inline(__always) get { Identity(ObjectIdentifier(object)) }
        }
    }

    /// The objects in the order they were added, indexed by identity when a lookup needs it.
    private var members = LazilyIndexedLog<Member>()

    init() {}

    init(dictionaryLiteral elements: (ObjectIdentifier, NSManagedObject)...) {
        for (key, object) in elements { self[key] = object }
    }

    /// The number of objects.
    var count: Int { members.count }

    /// Whether there are no objects.
    var isEmpty: Bool { members.isEmpty }

    /// The object with the given identity; setting an object keeps the position of the one it replaces,
    /// setting `nil` removes it.
    subscript(key: ObjectIdentifier) -> NSManagedObject? {
        get {
            members[Identity(key)]?.object
        }
        set {
            if let newValue {
                // Setting the object already there changes nothing (and copies no shared storage).
                members.update(Member(object: newValue)) { $0.object === newValue }
            } else {
                members.remove(Identity(key))
            }
        }
    }

    /// Adds an object that is not among the objects, without looking it up (see ``LazilyIndexedLog``).
    @inline(__always)
    mutating func appendNew(_ object: NSManagedObject) {
        members.appendNew(Member(object: object))
    }

    /// Whether `self` is a copy of `other` that neither has changed since it was made (every change of
    /// a copy gives it storage of its own).
    func isUnchanged(since other: ObjectsInChangeOrder) -> Bool {
        members.isUnchanged(since: other.members)
    }

    /// Calls `body` with each object, in the order they were added, unretained, having asked the
    /// processor for objects and their `parts` a few objects ahead (``ObjectPassPrefetch``). The pass
    /// goes through a copy, which keeps the objects: the collection may change meanwhile.
    func forEachAhead(parts: ObjectPassPrefetch.Parts = [], _ body: (NSManagedObject) throws -> Void) rethrows {
        let members = members.entries
        try members.withUnsafeBufferPointer { members in
            guard let base = members.baseAddress else { return }
            // A member is its object's reference and nothing else: the pass reads each as an address.
            try ObjectPassPrefetch.forEach(at: UnsafeRawPointer(base), count: members.count, parts: parts) { _, object in
                try body(object)
            }
        }
    }

    /// The objects, in the order they were added.
    var values: Values { Values(slots: members.entries, count: members.count) }

    func makeIterator() -> Iterator {
        Iterator(slots: members.entries)
    }

    /// The objects of an ``ObjectsInChangeOrder``, in the order they were added.
    struct Values: Sequence {
        fileprivate let slots: [Member?]
        fileprivate let count: Int

        var underestimatedCount: Int { count }

        func makeIterator() -> ValuesIterator {
            ValuesIterator(base: slots.makeIterator())
        }
    }

    /// Iterates over ``Values``.
    struct ValuesIterator: IteratorProtocol {
        fileprivate var base: IndexingIterator<[Member?]>

        mutating func next() -> NSManagedObject? {
            while let slot = base.next() {
                if let member = slot { return member.object }
            }
            return nil
        }
    }

    /// Iterates over the identities and objects, in the order the objects were added.
    struct Iterator: IteratorProtocol {
        fileprivate var base: ValuesIterator

        fileprivate init(slots: [Member?]) {
            base = ValuesIterator(base: slots.makeIterator())
        }

        mutating func next() -> (key: ObjectIdentifier, value: NSManagedObject)? {
            guard let object = base.next() else { return nil }
            return (ObjectIdentifier(object), object)
        }
    }
}
