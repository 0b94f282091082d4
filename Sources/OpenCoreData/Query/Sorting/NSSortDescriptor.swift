/// A description of how to order objects by one of their properties.
///
/// Sort descriptors name a key or key path, a direction and a comparison. As in Core Data, a missing
/// (`nil`) value sorts before every other value in ascending order. Sort descriptors are immutable once
/// created and may be shared between threads.
open class NSSortDescriptor: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: every stored property is a `let` set at initialization; the comparator block
    // is only called, never replaced.

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
        precondition(SortComparison.knownSelectors.contains(name),
                     "Unknown sort selector \"\(name)\"; use one of \(SortComparison.knownSelectors.sorted())")
        self.key = key
        self.ascending = ascending
        self.selector = name
        block = nil
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
        super.init()
    }

    /// The comparison the descriptor applies to two values, before its direction is taken into account.
    open var comparator: Comparator {
        if let block { return block }
        let name = selector ?? "compare:"
        return { lhs, rhs in SortComparison.compareValues(lhs, rhs, selector: name) }
    }

    /// A sort descriptor with the same key and comparison and the opposite direction.
    open var reversedSortDescriptor: Any {
        if let block { return NSSortDescriptor(key: key, ascending: !ascending, comparator: block) }
        return NSSortDescriptor(key: key, ascending: !ascending, selector: selector)
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
            && block == nil && other.block == nil
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
    enum PreparedValue {
        case raw(Any?)
        case key(SortComparison.SortKey)
    }

    /// Reads and prepares the value the descriptor compares for an object.
    func preparedValue(of object: Any) -> PreparedValue {
        block == nil ? .key(SortComparison.SortKey(sortValue(of: object))) : .raw(sortValue(of: object))
    }

    /// Orders two prepared values, taking the direction into account.
    func comparePrepared(_ lhs: PreparedValue, _ rhs: PreparedValue) -> ComparisonResult {
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
        guard let key else { return EvaluationValues.flatten(object) }
        if let coding = EvaluationValues.flatten(object) as? KeyValueCoding {
            return EvaluationValues.flatten(coding.value(forKeyPath: key))
        }
        return KeyValueAccess.value(of: object, forKeyPath: key)
    }
}
