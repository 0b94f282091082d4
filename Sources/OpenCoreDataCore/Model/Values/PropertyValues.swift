import Foundation

#if OCD_PLAIN_SWIFT || OCD_NO_UNRETAINED_LAYOUT
/// How values hold their layout: with the technique off, a strong reference.
typealias PropertySlotLayoutReference = PropertySlotLayout
#else
/// How values hold their layout: without a reference count.
typealias PropertySlotLayoutReference = Unmanaged<PropertySlotLayout>
#endif

/// The values of an object's (or a store row's) properties, one slot per property of its entity.
///
/// Reading and writing by name (`values["title"]`) works as on a `[String: Any]` whose missing keys
/// are `nil`; the hot paths — fetching, `@Managed` accessors, saving — address slots directly through
/// the layout and keep integers and doubles unboxed. Values are a value type: copies share their slots
/// until one of them changes.
struct PropertyValues {
    /// Where each property's value lives.
    var layout: PropertySlotLayout {
        @inline(__always) get {
            #if OCD_PLAIN_SWIFT || OCD_NO_UNRETAINED_LAYOUT
            _layout
            #else
            _layout.takeUnretainedValue()
            #endif
        }
    }
    /// The layout, held without a reference count: every layout lives as long as the process (see
    /// ``PropertySlotLayout/shared(_:)``), and values are copied far more often than anything else that
    /// refers to a layout (a fetched row's values are copied into the row cache, the object's snapshot
    /// and its current values). (`Unmanaged` rather than `unowned(unsafe)`, which this compiler cannot
    /// build without optimization.)
    /// With the technique off (``RuntimeTechniques/unretainedLayout``), an ordinary strong reference.
    private let _layout: PropertySlotLayoutReference
    /// The values, by slot of `layout`.
    var slots: PropertySlots
    /// Values of keys the layout has no slot for (kept so that no value handed in is ever lost).
    private var overflowStorage = OverflowStorage()

    /// The values kept by name.
    private var overflow: [String: Any]? {
        overflowStorage.box?.values
    }

    /// Changes the values kept by name, copying them first when another `PropertyValues` shares them;
    /// an empty result drops them.
    private mutating func modifyOverflow(_ body: (inout [String: Any]) -> Void) {
        if overflowStorage.box == nil {
            overflowStorage.box = OverflowValues([:])
        } else if !isKnownUniquelyReferenced(&overflowStorage.box) {
            overflowStorage.box = OverflowValues(overflowStorage.box!.values)
        }
        body(&overflowStorage.box!.values)
        if overflowStorage.box!.values.isEmpty { overflowStorage.box = nil }
    }

    /// No values, in the layout with no slots: a fault's values until it fires, and the snapshot of an
    /// object never read from a store.
    // Made where it is used rather than kept in a global: every object starts with two of these, and a
    // global's copy would pass its initialization guard and retain its two empty references (four calls
    // per object), where these are known to be empty.
    static var none: PropertyValues {
        @inline(__always) get { PropertyValues(emptyIn: .empty) }
    }

    /// No values in `layout`, which has no slots.
    @inline(__always)
    private init(emptyIn layout: PropertySlotLayout) {
        _layout = Self.reference(to: layout)
        slots = PropertySlots()
    }

    /// How `_layout` holds `layout`.
    @inline(__always)
    private static func reference(to layout: PropertySlotLayout) -> PropertySlotLayoutReference {
        #if OCD_PLAIN_SWIFT || OCD_NO_UNRETAINED_LAYOUT
        layout
        #else
        .passUnretained(layout)
        #endif
    }

    /// Values with every slot of `layout` empty.
    init(layout: PropertySlotLayout) {
        self.init(layout: layout) { _ in }
    }

    /// Values in `layout` whose slots `fill` writes in place, every slot starting empty (`fill` must
    /// keep to the buffer's slots).
    @inline(__always)
    init(layout: PropertySlotLayout, filling fill: (UnsafeMutableBufferPointer<PropertySlot>) -> Void) {
        InternalChecks.check(PropertySlotLayout.isShared(layout), "values made in a layout the shared table does not hold")
        _layout = Self.reference(to: layout)
        slots = PropertySlots(count: layout.count, filling: fill)
    }

    /// Values of an entity's properties, all empty.
    init(entity: NSEntityDescription) {
        self.init(layout: entity._slotLayout)
    }

    /// Values of an entity's properties taken from a dictionary (property name → canonical value).
    init(entity: NSEntityDescription, _ dictionary: [String: Any]) {
        self.init(layout: entity._slotLayout, dictionary)
    }

    /// Values in `layout` taken from a dictionary (property name → canonical value).
    init(layout: PropertySlotLayout, _ dictionary: [String: Any]) {
        self.init(layout: layout)
        for (key, value) in dictionary { self[key] = value }
    }

    /// The value of a property, boxed in canonical form; `nil` when it has none. Setting `nil` (or
    /// `NSNull`) removes the value.
    subscript(key: String) -> Any? {
        get {
            if let index = layout.index(of: key) { return slots[index].boxed }
            return overflow?[key]
        }
        set {
            if let index = layout.index(of: key) {
                slots[index] = PropertySlot(newValue)
            } else if let newValue {
                modifyOverflow { $0[key] = newValue }
            } else if overflowStorage.box != nil {
                modifyOverflow { $0[key] = nil }
            }
        }
    }

    /// The slot of a property, or `nil` when the layout has none for it.
    @inline(__always)
    func index(of key: String) -> Int? {
        layout.index(of: key)
    }

    /// Whether no property has a value.
    var isEmpty: Bool {
        if overflow?.isEmpty == false { return false }
        for slot in slots where slot.isPresent { return false }
        return true
    }

    /// The number of properties that have a value.
    var count: Int {
        slots.reduce(into: overflow?.count ?? 0) { count, slot in if slot.isPresent { count += 1 } }
    }

    /// The names of the properties that have a value.
    var keys: [String] {
        var keys: [String] = []
        for (index, slot) in slots.enumerated() where slot.isPresent { keys.append(layout.names[index]) }
        if let overflow { keys.append(contentsOf: overflow.keys) }
        return keys
    }

    /// The values as a dictionary (property name → canonical value).
    var dictionary: [String: Any] {
        var result = [String: Any](minimumCapacity: slots.count)
        for (key, value) in self { result[key] = value }
        return result
    }

    /// Removes every value, keeping the layout.
    mutating func removeAll() {
        for index in slots.indices { slots[index] = .absent }
        overflowStorage.box = nil
    }

    /// The values for which `isIncluded` is true, in the same layout.
    func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> PropertyValues {
        var result = PropertyValues(layout: layout)
        for element in self where try isIncluded(element) { result[element.key] = element.value }
        return result
    }

    /// Copies the slots of the given indexes from `other`, which must have the same layout.
    mutating func copySlots(_ indexes: [Int], from other: PropertyValues) {
        for index in indexes { slots[index] = other.slots[index] }
    }
}

/// The values a ``PropertyValues`` keeps by name, if any.
///
/// Values are copied all the time (rows, snapshots and saves share them), and the compiler copies and
/// destroys a struct's fields through the fields' value witnesses: an optional's are the runtime's
/// generic ones (about sixty instructions for a copy), this struct's are compiled (a retain).
private struct OverflowStorage {
    /// The values, shared by copies until one of them changes; `nil` when there are none.
    var box: OverflowValues?
}

/// The values a ``PropertyValues`` keeps by name, shared by its copies until one of them changes.
private final class OverflowValues {
    var values: [String: Any]

    init(_ values: [String: Any]) {
        self.values = values
    }
}

extension PropertyValues: Sequence {
    /// A property name and its value in canonical form.
    typealias Element = (key: String, value: Any)

    /// Iterates the properties that have a value, in slot order, then those kept by name.
    struct Iterator: IteratorProtocol {
        private let values: PropertyValues
        private var index = 0
        private var overflow: Dictionary<String, Any>.Iterator?

        init(_ values: PropertyValues) {
            self.values = values
            overflow = values.overflow?.makeIterator()
        }

        mutating func next() -> Element? {
            while index < values.slots.count {
                defer { index += 1 }
                if let value = values.slots[index].boxed { return (values.layout.names[index], value) }
            }
            return overflow?.next()
        }
    }

    func makeIterator() -> Iterator {
        Iterator(self)
    }
}

extension PropertyValues {
    /// Sets a canonical value, unboxing the numbers of Integer and Double attributes into their slots.
    mutating func setCanonical(_ value: Any?, forKey key: String) {
        guard let index = layout.index(of: key) else {
            self[key] = value
            return
        }
        slots[index] = PropertySlot(canonical: value, kind: layout.kinds[index])
    }
}

extension PropertySlot {
    /// A slot for a canonical value of a slot of the given kind: the numbers of Integer and Double
    /// attributes are kept unboxed.
    init(canonical value: Any?, kind: PropertySlotLayout.Kind) {
        switch kind {
        case .integer:
            if let number = value as? NSNumber, !(number is NSDecimalNumber) {
                self = .integer(number.int64Value)
                return
            }
        case .double:
            if let number = value as? NSNumber, !(number is NSDecimalNumber) {
                self = .double(number.doubleValue)
                return
            }
        case .other, .toMany:
            break
        }
        self.init(value)
    }
}

extension PropertyValues {
    /// The values with the object ID of every to-one relationship replaced by `transform(id)`; the
    /// values themselves (shared, not copied) when they hold no object ID.
    func mappingObjectIDs(_ transform: (NSManagedObjectID) -> NSManagedObjectID) -> PropertyValues {
        var result = self
        for index in layout.toOneSlots {
            if let id = slots[index].objectID { result.slots[index] = .object(transform(id)) }
        }
        if let overflow {
            for (key, value) in overflow {
                if let id = value as? NSManagedObjectID { result.modifyOverflow { $0[key] = transform(id) } }
            }
        }
        return result
    }
}
