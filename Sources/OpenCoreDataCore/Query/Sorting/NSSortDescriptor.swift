/// A description of how to order objects by one of their properties.
///
/// Sort descriptors name a key or key path, a direction and a comparison. As in Core Data, a missing
/// (`nil`) value sorts before every other value in ascending order. Sort descriptors are immutable once
/// created and may be shared between threads.
open class NSSortDescriptor: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: every stored property is a `let` set at initialization; the comparator block
    // and the key-path reader are only called, never replaced, and key paths are immutable values.

    /// The key path whose values are compared, or `nil` to compare the objects themselves.
    public let key: String?

    /// Whether values are ordered from smallest to largest.
    public let ascending: Bool

    /// The name of the comparison method, such as `"compare:"` or `"localizedStandardCompare:"`, or `nil`
    /// when the descriptor uses a comparator block.
    ///
    /// On Apple platforms this is an Objective-C `Selector`; Linux has no selectors, so the method is
    /// named by its selector string.
    public let selector: String?

    private let block: Comparator?

    /// The Swift key path the descriptor was created with, or `nil` when it was created with a string key.
    public let keyPath: AnyKeyPath?

    /// Reads the Swift key path from an object of its root type; `nil` when the object is of another type.
    private let keyPathReader: ((Any) -> ReadValue?)?

    /// A value read through a Swift key path (which may itself be `nil`).
    struct ReadValue {
        let value: Any?
    }

    /// Creates a sort descriptor that orders by the given key path with `compare:`.
    public convenience init(key: String?, ascending: Bool) {
        self.init(key: key, ascending: ascending, selector: "compare:")
    }

    /// Creates a sort descriptor that orders by the given key path with the named comparison method.
    ///
    /// Linux has no Objective-C selectors: the method is given by its selector name. The names
    /// understood are `"compare:"`, `"caseInsensitiveCompare:"`, `"localizedCompare:"`,
    /// `"localizedCaseInsensitiveCompare:"` and `"localizedStandardCompare:"`; `nil` means `"compare:"`.
    /// Another name is a programmer error and traps.
    public init(key: String?, ascending: Bool, selector: String?) {
        let name = selector ?? "compare:"
        precondition(
            SortComparison.knownSelectors.contains(name),
            "Unknown sort selector \"\(name)\"; use one of \(SortComparison.knownSelectors.sorted())")
        self.key = key
        self.ascending = ascending
        self.selector = name
        block = nil
        keyPath = nil
        keyPathReader = nil
        super.init()
    }

    /// Creates a sort descriptor that orders by the given key path with a comparator block.
    ///
    /// The block receives the two values (`NSNull` for a missing value) and returns their order.
    public init(key: String?, ascending: Bool, comparator cmptr: @escaping Comparator) {
        self.key = key
        self.ascending = ascending
        selector = nil
        block = cmptr
        keyPath = nil
        keyPathReader = nil
        super.init()
    }

    /// Creates a sort descriptor that orders by the property a Swift key path reads, with `compare:`.
    ///
    /// Objects of the key path's root type are read through the key path itself. ``key`` names the key
    /// path (`\Item.owner?.name` → `"owner.name"`) when it is made of stored properties or when the root
    /// type names it through ``KeyValueCoding/kvcKeyPathString(for:)``; otherwise ``key`` is `nil`.
    public convenience init<Root, Value>(keyPath: KeyPath<Root, Value>, ascending: Bool) {
        self.init(swiftKeyPath: keyPath, ascending: ascending, selector: "compare:", comparator: nil)
    }

    /// Creates a sort descriptor that orders by the property a Swift key path reads, with a comparator
    /// block.
    public convenience init<Root, Value>(
        keyPath: KeyPath<Root, Value>, ascending: Bool,
        comparator cmptr: @escaping Comparator
    ) {
        self.init(swiftKeyPath: keyPath, ascending: ascending, selector: nil, comparator: cmptr)
    }

    private init<Root, Value>(
        swiftKeyPath: KeyPath<Root, Value>, ascending: Bool, selector: String?,
        comparator: Comparator?
    ) {
        key = KeyPathNames.string(for: swiftKeyPath)
        self.ascending = ascending
        self.selector = selector
        block = comparator
        keyPath = swiftKeyPath
        keyPathReader = { object in
            guard let root = EvaluationValues.flatten(object) as? Root else { return nil }
            return ReadValue(value: root[keyPath: swiftKeyPath])
        }
        super.init()
    }

    /// The comparison the descriptor applies to two values, before its direction is taken into account.
    open var comparator: Comparator {
        if let block { return block }
        let name = selector ?? "compare:"
        return { lhs, rhs in SortComparison.compareValues(lhs, rhs, selector: name) }
    }

    private init(reversing other: NSSortDescriptor) {
        key = other.key
        ascending = !other.ascending
        selector = other.selector
        block = other.block
        keyPath = other.keyPath
        keyPathReader = other.keyPathReader
        super.init()
    }

    /// A sort descriptor with the same key and comparison and the opposite direction.
    open var reversedSortDescriptor: Any {
        NSSortDescriptor(reversing: self)
    }

    /// Returns the order of two objects according to the descriptor: their values for ``key`` compared
    /// with the descriptor's comparison, reversed when the descriptor is descending.
    open func compare(_ object1: Any, to object2: Any) -> ComparisonResult {
        compareSortValues(sortValue(of: object1), sortValue(of: object2))
    }

    /// Orders two values already read with ``sortValue(of:)``, taking the direction into account.
    func compareSortValues(_ lhs: Any?, _ rhs: Any?) -> ComparisonResult {
        let order: ComparisonResult
        if let block {
            order = block(lhs ?? NSNull(), rhs ?? NSNull())
        } else {
            order = SortComparison.compareValues(lhs, rhs, selector: selector ?? "compare:")
        }
        return ascending ? order : order.reversed
    }

    /// Forces a sort descriptor that was securely decoded to allow evaluation.
    ///
    /// Sort descriptors created in this process may always be evaluated; the method exists for source
    /// compatibility with Apple platforms.
    open func allowEvaluation() {}

    /// Returns the sort descriptor itself: sort descriptors are immutable, so a copy is the same object.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// Returns whether the given object is a sort descriptor with the same key, direction and comparison.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSSortDescriptor else { return false }
        if other === self { return true }
        return key == other.key && ascending == other.ascending && selector == other.selector
            && keyPath == other.keyPath && block == nil && other.block == nil
    }

    /// A hash value consistent with ``isEqual(_:)``.
    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(key)
        hasher.combine(ascending)
        hasher.combine(selector)
        return hasher.finalize()
    }

    /// A textual description: the key, the direction and the comparison, as Apple prints them.
    open override var description: String {
        "(\(key ?? "self"), \(ascending ? "ascending" : "descending"), \(selector ?? "comparator"))"
    }

    /// A value read once for sorting many elements.
    package enum PreparedValue {
        case raw(Any?)
        case key(SortComparison.SortKey)
    }

    /// Reads and prepares the value the descriptor compares for an object.
    package func preparedValue(of object: Any) -> PreparedValue {
        block == nil ? .key(SortComparison.SortKey(sortValue(of: object))) : .raw(sortValue(of: object))
    }

    /// Orders two prepared values, taking the direction into account.
    package func comparePrepared(_ lhs: PreparedValue, _ rhs: PreparedValue) -> ComparisonResult {
        switch (lhs, rhs) {
        case let (.key(a), .key(b)):
            let order = SortComparison.compareKeys(a, b, selector: selector ?? "compare:")
            return ascending ? order : order.reversed
        case let (.raw(a), .raw(b)):
            return compareSortValues(a, b)
        default:
            return .orderedSame
        }
    }

    /// The value the descriptor compares for an object: its value for ``key``, or the object itself.
    func sortValue(of object: Any) -> Any? {
        if let keyPathReader, let read = keyPathReader(object) { return EvaluationValues.flatten(read.value) }
        guard let key else { return EvaluationValues.flatten(object) }
        if let coding = EvaluationValues.flatten(object) as? KeyValueCoding {
            return EvaluationValues.flatten(coding.value(forKeyPath: key))
        }
        return KeyValueAccess.value(of: object, forKeyPath: key)
    }
}
