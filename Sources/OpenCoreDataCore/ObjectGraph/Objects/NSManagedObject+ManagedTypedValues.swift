import Foundation

// The types `@Managed` properties most often have, each with its own overload of `managedValue(forKey:)`
// and `setManagedValue(_:forKey:)`: a property of one of these types calls code compiled for it, instead of
// the generic accessor, which passes the type at run time and copies values through it.

extension NSManagedObject {
    /// Returns the value of an Integer attribute as `Int64` (`nil` reads as zero).
    // Never inlined, so that the `Int` overload (the same bits here) is a call of this one rather than a
    // body of its own: the optimizer merged two such bodies into one taking the general accessor as an
    // argument, and every `Int64` read went through a thunk passing it.
    @inline(never)
    public func managedValue(forKey key: String) -> Int64 { _managedValue(forKey: key) }
    /// Returns the value of an Integer attribute as `Int` (`nil` reads as zero).
    public func managedValue(forKey key: String) -> Int { Int(truncatingIfNeeded: managedValue(forKey: key) as Int64) }
    /// Returns the value of an Integer attribute as `Int32` (`nil` reads as zero).
    public func managedValue(forKey key: String) -> Int32 { _managedValue(forKey: key) }
    /// Returns the value of an Integer attribute as `Int16` (`nil` reads as zero).
    public func managedValue(forKey key: String) -> Int16 { _managedValue(forKey: key) }
    /// Returns the value of a Double attribute (`nil` reads as zero).
    public func managedValue(forKey key: String) -> Double { _managedValue(forKey: key) }
    /// Returns the value of an Integer attribute as `Int64?`.
    // Never inlined, for the reason given for `Int64`.
    @inline(never)
    public func managedValue(forKey key: String) -> Int64? { _managedValue(forKey: key) }
    /// Returns the value of an Integer attribute as `Int?`.
    public func managedValue(forKey key: String) -> Int? {
        (managedValue(forKey: key) as Int64?).map { Int(truncatingIfNeeded: $0) }
    }
    /// Returns the value of a Double attribute as `Double?`.
    public func managedValue(forKey key: String) -> Double? { _managedValue(forKey: key) }
    /// Returns the value of a Boolean attribute (`nil` reads as `false`).
    public func managedValue(forKey key: String) -> Bool { _managedValue(forKey: key) }
    /// Returns the value of a String attribute (`nil` reads as empty).
    public func managedValue(forKey key: String) -> String { _managedValue(forKey: key) }
    /// Returns the value of a String attribute as `String?`.
    public func managedValue(forKey key: String) -> String? { _managedValue(forKey: key) }
    /// Returns the value of a Date attribute as `Date?`.
    public func managedValue(forKey key: String) -> Date? { _managedValue(forKey: key) }

    /// Sets the value of an Integer attribute from an `Int64`.
    public func setManagedValue(_ value: Int64, forKey key: String) { _setManagedValue(value, forKey: key) }
    /// Sets the value of an Integer attribute from an `Int`.
    public func setManagedValue(_ value: Int, forKey key: String) { _setManagedValue(value, forKey: key) }
    /// Sets the value of an Integer attribute from an `Int32`.
    public func setManagedValue(_ value: Int32, forKey key: String) { _setManagedValue(value, forKey: key) }
    /// Sets the value of an Integer attribute from an `Int16`.
    public func setManagedValue(_ value: Int16, forKey key: String) { _setManagedValue(value, forKey: key) }
    /// Sets the value of a Double attribute.
    public func setManagedValue(_ value: Double, forKey key: String) { _setManagedValue(value, forKey: key) }
    /// Sets the value of an Integer attribute from an `Int64?` (`nil` removes the value).
    public func setManagedValue(_ value: Int64?, forKey key: String) { _setManagedValue(value, forKey: key) }
    /// Sets the value of an Integer attribute from an `Int?` (`nil` removes the value).
    public func setManagedValue(_ value: Int?, forKey key: String) { _setManagedValue(value, forKey: key) }
    /// Sets the value of a Double attribute from a `Double?` (`nil` removes the value).
    public func setManagedValue(_ value: Double?, forKey key: String) { _setManagedValue(value, forKey: key) }
}
