import Foundation

/// Resolves function names written in format text (`sum:(x)`, `now()`, `add:to:(a, b)`, `sqrt(x)`) to
/// the built-in functions of `NSExpression(forFunction:arguments:)`.
enum PredicateFormatFunctions {
    /// The built-in function a call names, or `nil` when the name is unknown or the argument count is
    /// wrong. A name written without its colon (`sum(x)`) finds the function with the colon (`sum:`).
    static func resolve(_ name: String, argumentCount: Int) -> String? {
        for candidate in candidates(for: name) {
            if let arity = ExpressionFunctions.arity(of: candidate), accepts(arity, argumentCount) {
                return candidate
            }
        }
        return nil
    }

    /// Why a call cannot be resolved, for the error message.
    static func problem(with name: String, argumentCount: Int) -> String {
        for candidate in candidates(for: name) {
            if let arity = ExpressionFunctions.arity(of: candidate) {
                let expected =
                    arity == -1
                    ? "one or more arguments"
                    : arity == 1 ? "1 argument" : "\(arity) arguments"
                return "the function '\(candidate)' takes \(expected), not \(argumentCount)"
            }
        }
        return "unknown function '\(name)'"
    }

    private static func candidates(for name: String) -> [String] {
        name.hasSuffix(":") || name.contains(":") ? [name] : [name, name + ":"]
    }

    private static func accepts(_ arity: Int, _ count: Int) -> Bool {
        arity == count || (arity == -1 && count >= 1)
    }

    /// The infix operator Apple prints for an arithmetic function, with its binding strength (higher binds
    /// tighter), or `nil` for a function printed as a call.
    static func infixOperator(for function: String) -> (symbol: String, precedence: Int)? {
        switch function {
        case "add:to:": return ("+", 1)
        case "from:subtract:": return ("-", 1)
        case "multiply:by:": return ("*", 2)
        case "divide:by:": return ("/", 2)
        case "raise:toPower:": return ("**", 3)
        default: return nil
        }
    }
}

/// The reserved words of the format language.
enum PredicateFormatReservedWords {
    /// Every reserved word, as Apple's guide lists them, plus the words of the keyword forms; a key path
    /// component spelled like one of them is printed with a leading `#`.
    static let all: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES",
        "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO",
        "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE",
        "UTI-CONFORMS-TO", "UTI-EQUALS", "FUNCTION", "TERNARY", "UNION", "INTERSECT", "MINUS",
    ]

    /// Words that can never start an expression: operators and predicate keywords.
    private static let structural: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "MATCHES", "CONTAINS", "BEGINSWITH",
        "ENDSWITH", "BETWEEN", "TRUEPREDICATE", "FALSEPREDICATE",
    ]

    /// Whether an uppercased word is an operator or predicate keyword.
    static func isStructural(_ uppercasedWord: String) -> Bool { structural.contains(uppercasedWord) }

    /// Whether a key must be written with `#` to be read as a key.
    static func needsEscape(_ key: String) -> Bool { all.contains(key.uppercased()) }
}
