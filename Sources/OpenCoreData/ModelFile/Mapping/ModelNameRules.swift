/// The names a model file may give entities and properties.
///
/// Xcode's model editor and model compiler accept only identifiers: ASCII letters, digits and
/// underscores, not starting with a digit. The names become table and column names of SQLite stores,
/// so a model file naming anything else is refused when it loads rather than when a store is opened.
enum ModelNameRules {
    /// Whether `name` is a name Xcode accepts for an entity or a property.
    static func isValid(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        }
    }

    /// Why `name` is refused, for the error message.
    static func problem(with name: String, kind: String) -> String {
        "the \(kind) name '\(name)' is not valid: names are letters, digits and underscores, not starting with a digit"
    }
}
