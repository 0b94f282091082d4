/// The names of an object's properties changed since it was last fetched or saved.
///
/// A property of the object's slot layout is one bit; a name outside the layout (or past its 64th
/// slot) is kept by name. Recording a change from a `@Managed` setter sets a bit instead of hashing
/// the property's name.
struct ChangedKeys: Sequence, ExpressibleByArrayLiteral {
    /// The layout the bits refer to; `nil` until the first change recorded by slot (so that a new
    /// object's empty set shares no layout, whose reference count every object would otherwise touch).
    private var layout: PropertySlotLayout?
    private var bits: UInt64 = 0
    private var others = Set<String>()

    /// No changed keys.
    init() {
        layout = nil
    }

    /// No changed keys.
    init(arrayLiteral names: String...) {
        layout = nil
        others = Set(names)
    }

    /// The given names, as bits of `layout` where it has them.
    init(_ names: some Sequence<String>, layout: PropertySlotLayout) {
        self.layout = layout
        for name in names { insert(name) }
    }

    /// Whether no key is changed.
    var isEmpty: Bool { bits == 0 && others.isEmpty }

    /// Records the change of the property in slot `index` of `layout`, named `key`.
    @inline(__always)
    mutating func insert(slot index: Int, of layout: PropertySlotLayout, key: String) {
        if index < 64 {
            if self.layout === layout {
                bits |= 1 << UInt64(index)
                return
            }
            if isEmpty {
                self.layout = layout
                bits = 1 << UInt64(index)
                return
            }
        }
        insert(key)
    }

    /// Records the change of a property by name.
    mutating func insert(_ key: String) {
        if let index = layout?.index(of: key), index < 64 {
            bits |= 1 << UInt64(index)
        } else {
            others.insert(key)
        }
    }

    /// Forgets the change of a property.
    mutating func remove(_ key: String) {
        if let index = layout?.index(of: key), index < 64 {
            bits &= ~(1 << UInt64(index))
        } else {
            others.remove(key)
        }
    }

    /// Forgets every change, keeping the layout.
    mutating func removeAll() {
        bits = 0
        if !others.isEmpty { others = [] }
    }

    /// Whether a property's change is recorded.
    func contains(_ key: String) -> Bool {
        if let index = layout?.index(of: key), index < 64 { return bits & (1 << UInt64(index)) != 0 }
        return others.contains(key)
    }

    /// The changed names together with `names`.
    func union(_ names: some Sequence<String>) -> Set<String> {
        Set(self).union(names)
    }

    /// Records the change of every property in `names`.
    mutating func formUnion(_ names: some Sequence<String>) {
        for name in names { insert(name) }
    }

    /// The changed names for which `isIncluded` is true.
    func filter(_ isIncluded: (String) throws -> Bool) rethrows -> Set<String> {
        var result: Set<String> = []
        for name in self where try isIncluded(name) { result.insert(name) }
        return result
    }

    /// The changed names: the layout's in slot order, then the others.
    func makeIterator() -> Iterator {
        Iterator(layout: layout, bits: bits, others: others.makeIterator())
    }

    /// Iterates the changed names.
    struct Iterator: IteratorProtocol {
        fileprivate let layout: PropertySlotLayout?
        fileprivate var bits: UInt64
        fileprivate var others: Set<String>.Iterator

        mutating func next() -> String? {
            if bits != 0 {
                let index = bits.trailingZeroBitCount
                bits &= bits - 1
                // A bit is set only together with the layout.
                return layout!.names[index]
            }
            return others.next()
        }
    }
}
