extension ManagedValueCoercion {
    /// `value` as `Data` when it is `Data` or an `NSData`, else `nil`.
    ///
    /// An `NSData` (a value that went through `AnyObject`, as validation hands values) is copied with
    /// one memory copy: Foundation's bridging cast from `NSData` to `Data` on Linux reads the bytes one
    /// at a time, seconds for a value of tens of megabytes.
    static func data(_ value: Any) -> Data? {
        if Swift.type(of: value) is NSData.Type, let object = value as? NSData {
            return object.length == 0 ? Data() : Data(bytes: object.bytes, count: object.length)
        }
        return value as? Data
    }
}
