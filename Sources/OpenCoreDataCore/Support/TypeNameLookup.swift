/// Swift types found by the names a file gives for them (a Codable envelope's mangled type name, a
/// mapping's migration policy class name).
enum TypeNameLookup {
    /// The type named `name` (mangled, or `Module.Type`), or `nil` when the program has none.
    ///
    /// The runtime's lookup reads arbitrary memory for some names a file may hold (`$`, `$0`: a `$` is
    /// read as a reference into the program's own metadata): names with a `$` or a character outside
    /// printable ASCII name no type here.
    static func type(named name: String) -> Any.Type? {
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "$") }) else {
            return nil
        }
        return _typeByName(name)
    }
}
