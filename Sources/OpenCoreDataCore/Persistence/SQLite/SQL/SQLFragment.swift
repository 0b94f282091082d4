import GRDB

/// A piece of SQL text with the values bound to its `?` parameters, in order.
///
/// Fragments are combined by concatenation, which keeps each value next to its placeholder: a value is
/// never spliced into the text.
struct SQLFragment: Sendable {
    /// The SQL text.
    var sql: String
    /// The values of the text's `?` parameters, in order.
    var arguments: [DatabaseValue]

    /// A fragment of text with its bound values.
    init(_ sql: String, _ arguments: [DatabaseValue] = []) {
        self.sql = sql
        self.arguments = arguments
    }

    /// A single bound value: `?`.
    static func bound(_ value: DatabaseValue) -> SQLFragment {
        SQLFragment("?", [value])
    }

    /// The fragment `TRUE` (1) or `FALSE` (0).
    static func constant(_ value: Bool) -> SQLFragment {
        SQLFragment(value ? "1" : "0")
    }

    /// Concatenates two fragments.
    static func + (lhs: SQLFragment, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(lhs.sql + rhs.sql, lhs.arguments + rhs.arguments)
    }

    /// Appends text to a fragment.
    static func + (lhs: SQLFragment, rhs: String) -> SQLFragment {
        SQLFragment(lhs.sql + rhs, lhs.arguments)
    }

    /// Prepends text to a fragment.
    static func + (lhs: String, rhs: SQLFragment) -> SQLFragment {
        SQLFragment(lhs + rhs.sql, rhs.arguments)
    }

    /// The fragments joined by a separator.
    static func joined(_ parts: [SQLFragment], separator: String) -> SQLFragment {
        var result = SQLFragment("")
        for (index, part) in parts.enumerated() {
            if index > 0 { result.sql += separator }
            result.sql += part.sql
            result.arguments += part.arguments
        }
        return result
    }

    /// The fragment in parentheses.
    var parenthesized: SQLFragment {
        "(" + self + ")"
    }
}
