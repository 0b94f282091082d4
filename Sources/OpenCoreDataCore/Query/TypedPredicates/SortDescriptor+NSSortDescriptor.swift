import Foundation

extension SortDescriptor where Compared: NSObject {
    /// Creates a sort descriptor equivalent to a sort descriptor object, or returns `nil` when the object
    /// has no key, orders with a comparator block, or compares with a method other than `compare:`,
    /// `localizedStandardCompare:` or `localizedCompare:`.
    ///
    /// As on Apple platforms, the sort descriptor reads the key with key-value coding and compares the
    /// values with the method the object names, and the key is not checked against `comparedType`.
    /// ``NSSortDescriptor/init(_:)`` turns the result back into the same key, order and method.
    ///
    /// - Parameters:
    ///   - descriptor: A sort descriptor object.
    ///   - comparedType: The type that the sort descriptor compares.
    public init?(_ descriptor: NSSortDescriptor, comparing comparedType: Compared.Type) {
        guard let key = descriptor.key, let selector = descriptor.selector,
            SortKeyReference.convertibleSelectors.contains(selector)
        else { return nil }
        // Linux has no way from a key to a Swift key path of the property: the sort descriptor reads the
        // key through a key path to a subscript that takes it, and the registry names that key path again.
        let reference = SortKeyReference(key: key, selector: selector)
        let keyPath: KeyPath<Compared, SortKeyValue> & Sendable = \Compared.[openCoreDataSortKey: reference]
        SortKeyReference.register(keyPath, reference)
        self.init(keyPath, order: descriptor.ascending ? .forward : .reverse)
    }
}

/// The key and comparison method of a sort descriptor object converted to a `SortDescriptor`.
struct SortKeyReference: Hashable, Sendable {
    let key: String
    let selector: String

    /// The methods Apple's conversion accepts: `compare:` and the two localized string comparisons.
    /// (`caseInsensitiveCompare:` and `localizedCaseInsensitiveCompare:` give `nil`, as there.)
    static let convertibleSelectors: Set<String> = ["compare:", "localizedStandardCompare:", "localizedCompare:"]

    /// The key paths made by ``SortDescriptor/init(_:comparing:)``, with what they read. Equal key paths
    /// are one entry, so the table holds one entry per root type, key and method ever converted.
    private static let registry = LockedValue<[AnyKeyPath: SortKeyReference]>([:])

    static func register(_ keyPath: AnyKeyPath, _ reference: SortKeyReference) {
        registry.withLock { table in
            if table[keyPath] == nil { table[keyPath] = reference }
        }
    }

    /// What a key path made by ``SortDescriptor/init(_:comparing:)`` reads, or `nil` for any other.
    static func reference(for keyPath: AnyKeyPath) -> SortKeyReference? {
        guard type(of: keyPath).valueType == SortKeyValue.self else { return nil }
        return registry.withLock { $0[keyPath] }
    }
}

/// A value read for a converted sort descriptor, ordered by the descriptor's comparison method.
struct SortKeyValue: Comparable {
    let value: SortComparison.SortKey
    let selector: String

    static func < (lhs: SortKeyValue, rhs: SortKeyValue) -> Bool {
        SortComparison.compareKeys(lhs.value, rhs.value, selector: lhs.selector) == .orderedAscending
    }

    static func == (lhs: SortKeyValue, rhs: SortKeyValue) -> Bool {
        SortComparison.compareKeys(lhs.value, rhs.value, selector: lhs.selector) == .orderedSame
    }
}

extension NSObject {
    /// The value for a converted sort descriptor's key, read with key-value coding as a sort descriptor
    /// object reads it.
    subscript(openCoreDataSortKey reference: SortKeyReference) -> SortKeyValue {
        let descriptor = NSSortDescriptor(key: reference.key, ascending: true, selector: reference.selector)
        return SortKeyValue(value: SortComparison.SortKey(descriptor.sortValue(of: self)), selector: reference.selector)
    }
}
