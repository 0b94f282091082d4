/// The names a model file may give entities and properties.
///
/// Xcode's model editor and model compiler accept only identifiers: letters, digits and underscores,
/// not starting with a digit. The names become table and column names of SQLite stores, so a model file
/// naming anything else (spaces, dots, quotes, SQL) is refused when it loads rather than when a store is
/// opened.
enum ModelNameRules {
    /// Whether `name` is a name Xcode accepts for an entity or a property.
    static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.numericType == nil else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
    }

    /// Why `name` is refused, for the error message.
    static func problem(with name: String, kind: String) -> String {
        "the \(kind) name '\(name)' is not valid: names are letters, digits and underscores, not starting with a digit"
    }
}
