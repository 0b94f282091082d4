/// Reading and writing several properties at once by name, as Foundation's key-value coding offers on
/// Apple platforms (`NSObject` on Linux has no key-value coding).
extension NSManagedObject {
    /// Sets properties of the object from a dictionary, calling ``setValue(_:forKey:)`` for each key.
    ///
    /// `NSNull` values set the property to `nil`. An unknown key stops the program, as
    /// ``setValue(_:forKey:)`` does.
    public func setValuesForKeys(_ keyedValues: [String: Any]) {
        for (key, value) in keyedValues {
            setValue(value is NSNull ? nil : value, forKey: key)
        }
    }

    /// Returns a dictionary with the values of the given properties, read with ``value(forKey:)``.
    ///
    /// A property whose value is `nil` appears as `NSNull`.
    public func dictionaryWithValues(forKeys keys: [String]) -> [String: Any] {
        var result: [String: Any] = [:]
        result.reserveCapacity(keys.count)
        for key in keys {
            result[key] = value(forKey: key) ?? NSNull()
        }
        return result
    }
}
