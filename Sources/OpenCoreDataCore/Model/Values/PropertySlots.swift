import COpenCoreDataRuntime

/// The slots of one object's or row's values: a fixed-size collection of ``PropertySlot``s with value
/// semantics, whose copies share one buffer until one of them changes.
///
/// A `ContiguousArray<PropertySlot>` does the same, but on this platform every new array buffer of a
/// non-class element (a new row, the first write to values shared with an entity's defaults) goes
/// through the standard library's unspecialized allocation path, which looks up the storage class's
/// generic metadata each time: about 700 instructions per buffer, more than reading the row itself.
/// This buffer's class is not generic, so its allocation is a plain object allocation.
struct PropertySlots: RandomAccessCollection, MutableCollection, ExpressibleByArrayLiteral {
    typealias Index = Int
    typealias Element = PropertySlot

    /// The buffer; `nil` when there are no slots.
    private var storage: PropertySlotStorage?

    /// No slots.
    init() {
        storage = nil
    }

    /// The given slots.
    init(arrayLiteral elements: PropertySlot...) {
        self.init(count: elements.count) { buffer in
            for (index, element) in elements.enumerated() { buffer[index] = element }
        }
    }

    /// `count` slots of the same value.
    init(repeating slot: PropertySlot, count: Int) {
        self.init(count: count) { buffer in
            for index in 0..<count { buffer[index] = slot }
        }
    }

    /// `count` empty slots, which `fill` may then set in place (`fill` must keep to the buffer's slots).
    @inline(__always)
    init(count: Int, filling fill: (UnsafeMutableBufferPointer<PropertySlot>) -> Void) {
        guard count > 0 else {
            storage = nil
            return
        }
        let storage = PropertySlotStorage.make(count: count)
        storage.withUnsafeMutablePointerToElements { elements in
            for index in 0..<count { (elements + index).initialize(to: .absent) }
            fill(UnsafeMutableBufferPointer(start: elements, count: count))
        }
        self.storage = storage
    }

    var startIndex: Int { 0 }

    var endIndex: Int {
        @inline(__always) get { storage?.count ?? 0 }
    }

    @inline(__always)
    func index(after index: Int) -> Int { index + 1 }

    @inline(__always)
    func index(before index: Int) -> Int { index - 1 }

    subscript(position: Int) -> PropertySlot {
        @inline(__always) get {
            precondition(position >= 0 && position < endIndex, "Index out of range")
            return storage.unsafelyAssumedValue.withUnsafeMutablePointerToElements { $0[position] }
        }
        @inline(__always) set {
            replace(at: position, with: newValue)
        }
    }

    /// The subscript's setter: replaces a slot's value with `slot`, taken rather than copied. An old
    /// value that holds no reference (none, a number or a date, as a new object's and a row's slots
    /// mostly do) is overwritten without being destroyed first.
    @inline(__always)
    private mutating func replace(at position: Int, with slot: consuming PropertySlot) {
        precondition(position >= 0 && position < endIndex, "Index out of range")
        // No other reference may be held while asking whether this one is the only one.
        if !isKnownUniquelyReferenced(&storage) { storage = storage.unsafelyAssumedValue.copy() }
        // Moved into the closure through an optional, which the closure empties: capturing the slot
        // itself would copy it.
        var pending = Optional(consume slot)
        // Written in place through the buffer this value holds: replacing the slot's old value (which
        // may release objects) cannot release the buffer, so it is not retained around it.
        Unmanaged.passUnretained(storage.unsafelyAssumedValue).withBorrowedReference {
            $0.withUnsafeMutablePointerToElements { elements in
                let element = elements + position
                if element.pointee.holdsNoReference {
                    element.initialize(to: pending.take().unsafelyAssumedValue)
                } else {
                    element.pointee = pending.take().unsafelyAssumedValue
                }
            }
        }
    }

    /// Whether these slots are in a buffer no other value shares; `false` for slots without a buffer.
    /// (Mutating only because asking takes the reference in place: nothing changes.)
    @inline(__always)
    mutating func holdsBufferAlone() -> Bool {
        isKnownUniquelyReferenced(&storage)
    }

    /// Starts loading the buffer's reference count into the processor's caches, for a copy of these
    /// slots soon after (see `ocd_prefetchForWriting`).
    @inline(__always)
    func prefetchForCopy() {
        if let storage { PassPrefetch.forWriting(Unmanaged.passUnretained(storage).toOpaque()) }
    }

    /// Starts loading the whole buffer into the processor's caches, for reading every slot soon after.
    @inline(__always)
    func prefetchForReading() {
        guard let storage else { return }
        // The object's header (two words), the count, then the slots.
        let length = MemoryLayout<Int>.size * 3 + storage.count * MemoryLayout<PropertySlot>.stride
        PassPrefetch.forReading(Unmanaged.passUnretained(storage).toOpaque(), length: length)
    }

    /// The integer in a slot, read in place; `nil` when the slot holds no integer.
    @inline(__always)
    func integer(at position: Int) -> Int64? {
        matching(at: position) { slot in if case .integer(let value) = slot { value } else { nil } }
    }

    /// The double in a slot, read in place; `nil` when the slot holds no double.
    @inline(__always)
    func double(at position: Int) -> Double? {
        matching(at: position) { slot in if case .double(let value) = slot { value } else { nil } }
    }

    /// What `match` finds in a slot, given the slot where it lies instead of a copy of it.
    @inline(__always)
    func matching<T>(at position: Int, _ match: (borrowing PropertySlot) -> T?) -> T? {
        precondition(position >= 0 && position < endIndex, "Index out of range")
        return matching(inRange: position, match)
    }

    /// ``matching(at:_:)`` without the range check, for a position the caller knows is in range: a slot
    /// the layout of the values that hold these slots gives (values have one slot per slot of their
    /// layout, from their initializer on).
    @inline(__always)
    func matching<T>(inRange position: Int, _ match: (borrowing PropertySlot) -> T?) -> T? {
        assumeInRange(position >= 0 && position < endIndex)
        return storage.unsafelyAssumedValue.withUnsafeMutablePointerToElements { elements in match(elements[position]) }
    }
}

/// The buffer of ``PropertySlots``: the number of slots, then the slots.
final class PropertySlotStorage: ManagedBuffer<Int, PropertySlot> {
    /// A buffer of `count` uninitialized slots.
    @inline(__always)
    static func make(count: Int) -> PropertySlotStorage {
        // `create` allocates an instance of the class it is called on.
        assumedDowncast(create(minimumCapacity: count) { _ in count }, to: PropertySlotStorage.self)
    }

    /// The number of slots. (Read through the header's address: `header` is a stored class property,
    /// whose every access the runtime would check for exclusivity.)
    var count: Int {
        @inline(__always) get { withUnsafeMutablePointerToHeader { $0.pointee } }
    }

    /// A new buffer holding the same slots.
    func copy() -> PropertySlotStorage {
        let count = self.count
        let copy = PropertySlotStorage.make(count: count)
        withUnsafeMutablePointerToElements { source in
            copy.withUnsafeMutablePointerToElements { target in
                // One slot at a time: `initialize(from:count:)` copies through the type's value witnesses.
                // A slot that holds no reference (none, a number or a date: every slot of an entity of
                // numbers, whose new objects copy their defaults on their first change) is copied as its
                // bytes, without the call to the enum's outlined copy, which only asks the same question.
                for index in 0..<count {
                    let slot = source + index
                    if slot.pointee.holdsNoReference {
                        UnsafeMutableRawPointer(target + index).copyMemory(from: slot, byteCount: MemoryLayout<PropertySlot>.size)
                    } else {
                        (target + index).initialize(to: slot.pointee)
                    }
                }
            }
        }
        return copy
    }

    deinit {
        withUnsafeMutablePointers { count, elements in
            // One slot at a time, as `copy()` does: a slot that holds no reference has nothing to
            // release, and skipping it saves the call to the enum's outlined destroy that
            // `deinitialize(count:)` makes for every slot.
            for index in 0..<count.pointee where !elements[index].holdsNoReference {
                (elements + index).deinitialize(count: 1)
            }
        }
    }
}
