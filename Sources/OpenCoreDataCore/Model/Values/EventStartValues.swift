/// The values an object's changed properties had when its context last processed pending changes:
/// the first value of each property changed in the current event.
///
/// A property of the object's slot layout keeps its value in a slot (one bit says it has one); a name
/// outside the layout is kept by name. Recording from a `@Managed` setter indexes the slot instead of
/// hashing the property's name.
struct EventStartValues: Sequence, ExpressibleByDictionaryLiteral {
    /// The layout the recorded slots refer to; `nil` until the first value recorded by slot.
    private var layout: PropertySlotLayout?
    private var recorded: UInt64 = 0
    private var slots = PropertySlots()
    private var others = [String: PropertySlot]()

    /// No values.
    init() {}

    /// No values.
    init(dictionaryLiteral elements: (String, PropertySlot)...) {
        for (key, slot) in elements { others[key] = slot }
    }

    /// Whether no property has changed in the event.
    var isEmpty: Bool { recorded == 0 && others.isEmpty }

    /// Keeps `slot` as the event's first value of the property in slot `index` of `layout`, named
    /// `key`, unless the property already has one. `slot` is computed only when needed.
    @inline(__always)
    mutating func keepFirst(slot index: Int, of layout: PropertySlotLayout, key: String, _ slot: () -> PropertySlot) {
        if index < 64 {
            if self.layout !== layout, isEmpty {
                self.layout = layout
                slots = []
            }
            if self.layout === layout {
                let bit: UInt64 = 1 << UInt64(index)
                if recorded & bit != 0 { return }
                if slots.isEmpty { slots = PropertySlots(repeating: .absent, count: Swift.min(layout.count, 64)) }
                slots[index] = slot()
                recorded |= bit
                return
            }
        }
        keepFirst(key, slot)
    }

    /// Keeps `slot` as the event's first value of the property named `key`, unless it already has one.
    mutating func keepFirst(_ key: String, _ slot: () -> PropertySlot) {
        if let layout, let index = layout.index(of: key), index < 64 {
            return keepFirst(slot: index, of: layout, key: key, slot)
        }
        if others[key] == nil { others[key] = slot() }
    }

    /// Forgets every value.
    mutating func removeAll() {
        if recorded != 0 {
            recorded = 0
            slots = []
        }
        if !others.isEmpty { others = [:] }
    }

    /// The recorded names and values: the layout's in slot order, then the others.
    func makeIterator() -> AnyIterator<(key: String, value: PropertySlot)> {
        var remaining = recorded
        var otherIterator = others.makeIterator()
        let layout = layout
        let slots = slots
        return AnyIterator {
            if remaining != 0 {
                let index = remaining.trailingZeroBitCount
                remaining &= remaining - 1
                // A bit is set only together with the layout.
                return (layout!.names[index], slots[index])
            }
            return otherIterator.next()
        }
    }
}
