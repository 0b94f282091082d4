/// A type whose properties can be read by name, as Key-Value Coding reads an object's properties on
/// Apple platforms.
///
/// Predicates, expressions and sort descriptors read the objects they evaluate through this protocol.
/// Adopt it in your own types to filter and sort them with `NSPredicate` and `NSSortDescriptor`;
/// `NSManagedObject` adopts it. Only ``value(forKey:)`` is required: ``value(forKeyPath:)`` follows
/// dotted key paths and collection operators (`@count`, `@sum`, `@avg`, `@min`, `@max`,
/// `@distinctUnionOfObjects`, `@unionOfObjects`, `@distinctUnionOfArrays`, `@unionOfArrays`,
/// `@distinctUnionOfSets`, `@unionOfSets`) on top of it.
///
/// On Apple platforms every `NSObject` offers these methods; on Linux, `NSObject` has no Key-Value Coding,
/// so types state it by adopting this protocol.
public protocol KeyValueCoding {
    /// Returns the value of the property identified by the given key, or `nil` when there is none.
    func value(forKey key: String) -> Any?

    /// Returns the value reached by following the given dot-separated key path from the receiver.
    ///
    /// Each component is read with ``value(forKey:)``; a component applied to a collection is applied to
    /// each of its elements, and a component beginning with `@` is a collection operator. A component
    /// that leads nowhere gives `nil`.
    func value(forKeyPath keyPath: String) -> Any?
}

extension KeyValueCoding {
    /// Returns the value reached by following the given dot-separated key path from the receiver.
    ///
    /// Each component is read with ``value(forKey:)``; a component applied to a collection is applied to
    /// each of its elements, and a component beginning with `@` is a collection operator. A component
    /// that leads nowhere gives `nil`.
    public func value(forKeyPath keyPath: String) -> Any? {
        KeyValueAccess.value(of: self, forKeyPath: keyPath)
    }
}
