import GRDB

/// The SQL functions that compiled fetches use, registered on each connection of a store.
///
/// They apply the Query layer's own string rules (`StringFolding`, `RegularExpressionMatching`), so a
/// predicate run in SQL and the same predicate evaluated in memory agree. Each takes the predicate's
/// option bits (`[c]` 1, `[d]` 2, `[n]` 4) as its last argument; a NULL string argument gives NULL
/// (which a `WHERE` clause treats as false, as in-memory evaluation treats a missing string).
enum SQLiteFunctions {
    /// `ocd_fold(text, options)`: the text with case and/or diacritics folded.
    static let fold = "ocd_fold"
    /// `ocd_like(text, pattern, options)`: `LIKE` with `*` and `?` wildcards and `\` escapes.
    static let like = "ocd_like"
    /// `ocd_matches(text, pattern, options)`: `MATCHES`, an ICU regular expression over the whole text.
    static let matches = "ocd_matches"
    /// `ocd_begins(text, prefix, options)`: `BEGINSWITH`.
    static let begins = "ocd_begins"
    /// `ocd_ends(text, suffix, options)`: `ENDSWITH`.
    static let ends = "ocd_ends"
    /// `ocd_contains(text, part, options)`: `CONTAINS` between strings (and `IN` with a string on the right).
    static let contains = "ocd_contains"
    /// `ocd_compare(a, b, options)`: -1, 0 or 1 after folding (string comparisons with `[c]`/`[d]`).
    static let compare = "ocd_compare"
    /// `ocd_function(name, arguments…)`: a built-in expression function (`add:to:`, `divide:by:`,
    /// `abs:`, `lowercase:`…) computed exactly as in-memory evaluation computes it.
    static let expressionFunction = "ocd_function"
    /// `ocd_length(text)`: a string's `length` as key-value coding reads it, in UTF-16 code units (SQLite's
    /// `LENGTH` counts code points).
    static let length = "ocd_length"
    /// The collation `OCD_CASE_INSENSITIVE`: `caseInsensitiveCompare:` order.
    static let caseInsensitiveCollation = "OCD_CASE_INSENSITIVE"
    /// The collation `OCD_LOCALIZED`: `localizedCompare:` order.
    static let localizedCollation = "OCD_LOCALIZED"
    /// The collation `OCD_LOCALIZED_CASE_INSENSITIVE`: `localizedCaseInsensitiveCompare:` order.
    static let localizedCaseInsensitiveCollation = "OCD_LOCALIZED_CASE_INSENSITIVE"
    /// The collation `OCD_LOCALIZED_STANDARD`: `localizedStandardCompare:` order (Finder-like: case- and
    /// diacritic-insensitive, digits compared by numeric value).
    static let localizedStandardCollation = "OCD_LOCALIZED_STANDARD"

    /// Registers every function and collation on a connection. Call it when a connection opens
    /// (GRDB `Configuration.prepareDatabase`).
    static func register(in db: Database) {
        db.add(function: stringPredicate(like) { StringFolding.like($0, pattern: $1, options: $2) })
        db.add(function: stringPredicate(matches) { RegularExpressionMatching.matches($0, pattern: $1, options: $2) })
        db.add(function: stringPredicate(begins) { StringFolding.begins($0, with: $1, options: $2) })
        db.add(function: stringPredicate(ends) { StringFolding.ends($0, with: $1, options: $2) })
        db.add(function: stringPredicate(contains) { StringFolding.contains($0, $1, options: $2) })
        db.add(
            function: DatabaseFunction(compare, argumentCount: 3, pure: true) { arguments in
                guard let lhs = string(arguments[0]), let rhs = string(arguments[1]) else { return nil }
                switch StringFolding.compare(lhs, rhs, options: options(arguments[2])) {
                case .orderedAscending: return -1
                case .orderedSame: return 0
                case .orderedDescending: return 1
                }
            })
        db.add(
            function: DatabaseFunction(fold, argumentCount: 2, pure: true) { arguments in
                guard let text = string(arguments[0]) else { return nil }
                return StringFolding.fold(text, options: options(arguments[1]))
            })
        db.add(
            function: DatabaseFunction(length, argumentCount: 1, pure: true) { arguments in
                guard let text = string(arguments[0]) else { return nil }
                return text.utf16.count
            })
        db.add(
            function: DatabaseFunction(expressionFunction, argumentCount: nil, pure: true) { arguments in
                guard let name = arguments.first.flatMap(string) else { return nil }
                let values = arguments.dropFirst().map(value(of:))
                return databaseValue(of: ExpressionFunctions.evaluate(name, Array(values)))
            })
        // Each collation orders strings exactly as the sort descriptor selector of the same name does
        // in memory (`SortComparison`).
        let collations = [
            caseInsensitiveCollation: "caseInsensitiveCompare:",
            localizedCollation: "localizedCompare:",
            localizedCaseInsensitiveCollation: "localizedCaseInsensitiveCompare:",
            localizedStandardCollation: "localizedStandardCompare:",
        ]
        for (collation, selector) in collations {
            db.add(
                collation: DatabaseCollation(collation) { lhs, rhs in
                    SortComparison.compareValues(lhs, rhs, selector: selector)
                })
        }
    }

    /// The value a database value stands for in expression evaluation.
    private static func value(of databaseValue: DatabaseValue) -> Any? {
        switch databaseValue.storage {
        case .null: return nil
        case .int64(let v): return Int(v)
        case .double(let v): return v
        case .string(let v): return v
        case .blob(let v): return v
        }
    }

    /// The database value of an expression function's result (NULL for a result SQL cannot hold).
    private static func databaseValue(of result: Any?) -> DatabaseValue {
        guard let result = EvaluationValues.flatten(result) else { return .null }
        if let string = result as? String { return string.databaseValue }
        if let number = NumericValue(flattened: result) {
            switch number {
            case .integer(let v): return v.databaseValue
            case .unsigned(let v): return Double(v).databaseValue
            case .double(let v): return v.databaseValue
            case .decimal(let v): return NSDecimalNumber(decimal: v).doubleValue.databaseValue
            }
        }
        if let date = result as? Date { return date.timeIntervalSinceReferenceDate.databaseValue }
        return .null
    }

    /// A pure three-argument function (text, text, options) → 0/1, NULL when either text is NULL.
    private static func stringPredicate(
        _ name: String,
        _ test: @escaping @Sendable (String, String, NSComparisonPredicate.Options) -> Bool
    ) -> DatabaseFunction {
        DatabaseFunction(name, argumentCount: 3, pure: true) { arguments in
            guard let lhs = string(arguments[0]), let rhs = string(arguments[1]) else { return nil }
            return test(lhs, rhs, options(arguments[2])) ? 1 : 0
        }
    }

    /// A text argument; numbers and blobs are not strings (as in memory), NULL is none.
    private static func string(_ value: DatabaseValue) -> String? {
        if case .string(let text) = value.storage { return text }
        return nil
    }

    /// The option bits argument.
    private static func options(_ value: DatabaseValue) -> NSComparisonPredicate.Options {
        if case .int64(let bits) = value.storage { return NSComparisonPredicate.Options(rawValue: UInt(bits)) }
        return []
    }
}
