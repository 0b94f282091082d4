import Foundation

/// Prints predicates and expressions in Apple's canonical `predicateFormat` text.
///
/// The text reads back through ``PredicateFormatParser`` into an equal predicate: comparisons print as
/// `name == "Ann"`, `name BEGINSWITH[cd] "a"`, `ANY children.age > 10`; `AND` and `OR` subpredicates of
/// a compound predicate are parenthesized (`(a == 1 OR b == 2) AND c == 3`, `NOT (a == 1 AND b == 2)`); arithmetic prints infix with the parentheses its
/// precedence needs; other functions print as Apple spells them (`sum:(values)`, `now()`).
enum PredicateFormatPrinter {
    /// The canonical format text of a predicate.
    static func format(_ predicate: NSPredicate) -> String {
        switch predicate {
        case let comparison as NSComparisonPredicate: return format(comparison: comparison)
        case let compound as NSCompoundPredicate: return format(compound: compound)
        default: return predicate.predicateFormat
        }
    }

    /// The canonical format text of an expression.
    static func format(_ expression: NSExpression) -> String {
        switch expression.expressionType {
        case .fetchRequest:
            // Its arguments are the request, the context and the count-only flag.
            let arguments = (expression.arguments ?? []).map { format($0) }.joined(separator: ", ")
            return "FETCH(\(arguments))"
        case .constantValue:
            return PredicateFormatConstants.format(expression.constantValue)
        case .evaluatedObject:
            return "SELF"
        case .variable:
            return "$" + expression.variable
        case .keyPath:
            let path = escape(keyPath: expression.keyPath)
            let operand = expression.operand
            if operand.expressionType == .evaluatedObject { return path }
            return operandText(operand, minimum: Level.postfix) + "." + path
        case .function:
            return format(function: expression)
        case .unionSet, .intersectSet, .minusSet:
            let word =
                expression.expressionType == .unionSet
                ? "UNION"
                : expression.expressionType == .intersectSet ? "INTERSECT" : "MINUS"
            return operandText(expression.leftExpression, minimum: Level.set) + " \(word) "
                + operandText(expression.rightExpression, minimum: Level.additive)
        case .subquery:
            let collection = expression.collection as? NSExpression
            return "SUBQUERY(" + (collection.map { format($0) } ?? "nil") + ", $" + expression.variable
                + ", " + format(expression.predicate) + ")"
        case .aggregate:
            let elements = expression.collection as? [NSExpression] ?? []
            return "{" + elements.map { format($0) }.joined(separator: ", ") + "}"
        case .anyKey:
            return "ANYKEY"
        case .block:
            let arguments = (expression.arguments ?? []).map { format($0) }.joined(separator: ", ")
            return "BLOCK(<block>, {\(arguments)})"
        case .conditional:
            return "TERNARY(" + format(expression.predicate) + ", " + format(expression.trueExpression) + ", "
                + format(expression.falseExpression) + ")"
        }
    }

    // MARK: Predicates

    private static func format(comparison: NSComparisonPredicate) -> String {
        let left = format(comparison.leftExpression)
        let right = format(comparison.rightExpression)
        if comparison.predicateOperatorType == .customSelector {
            return "\(left) \(comparison.customSelector ?? "") \(right)"
        }
        let modifier: String
        switch comparison.comparisonPredicateModifier {
        case .direct: modifier = ""
        case .any: modifier = "ANY "
        case .all: modifier = "ALL "
        }
        return modifier + left + " " + symbol(for: comparison.predicateOperatorType)
            + options(comparison.options) + " " + right
    }

    private static func symbol(for type: NSComparisonPredicate.Operator) -> String {
        switch type {
        case .lessThan: return "<"
        case .lessThanOrEqualTo: return "<="
        case .greaterThan: return ">"
        case .greaterThanOrEqualTo: return ">="
        case .equalTo: return "=="
        case .notEqualTo: return "!="
        case .matches: return "MATCHES"
        case .like: return "LIKE"
        case .beginsWith: return "BEGINSWITH"
        case .endsWith: return "ENDSWITH"
        case .in: return "IN"
        case .customSelector: return "CUSTOM"
        case .contains: return "CONTAINS"
        case .between: return "BETWEEN"
        }
    }

    private static func options(_ options: NSComparisonPredicate.Options) -> String {
        var letters = ""
        if options.contains(.caseInsensitive) { letters += "c" }
        if options.contains(.diacriticInsensitive) { letters += "d" }
        if options.contains(.normalized) { letters += "n" }
        return letters.isEmpty ? "" : "[\(letters)]"
    }

    private static func format(compound: NSCompoundPredicate) -> String {
        let subpredicates = compound.subpredicates.compactMap { $0 as? NSPredicate }
        // AND and OR subpredicates are parenthesized; NOT binds tighter than both, so a NOT subpredicate
        // needs none (and adding them would double the nesting of NOT chains).
        func operand(_ predicate: NSPredicate) -> String {
            if let compound = predicate as? NSCompoundPredicate, compound.compoundPredicateType != .not {
                return "(" + format(predicate) + ")"
            }
            return format(predicate)
        }
        switch compound.compoundPredicateType {
        case .not:
            return "NOT " + (subpredicates.first.map(operand) ?? "TRUEPREDICATE")
        case .and:
            if subpredicates.isEmpty { return "TRUEPREDICATE" }
            return subpredicates.map(operand).joined(separator: " AND ")
        case .or:
            if subpredicates.isEmpty { return "FALSEPREDICATE" }
            return subpredicates.map(operand).joined(separator: " OR ")
        }
    }

    // MARK: Expressions

    /// Binding strengths of expression forms, loosest first.
    private enum Level {
        static let set = 0
        static let additive = 1
        static let multiplicative = 2
        static let unary = 3
        static let power = 4
        static let postfix = 5
    }

    /// How tightly the printed form of an expression binds.
    private static func level(of expression: NSExpression) -> Int {
        switch expression.expressionType {
        case .unionSet, .intersectSet, .minusSet:
            return Level.set
        case .function:
            if expression.isMethodCall { return Level.postfix }
            switch expression.function {
            case "add:to:", "from:subtract:": return Level.additive
            case "multiply:by:", "divide:by:": return Level.multiplicative
            case "raise:toPower:": return Level.power
            default: return Level.postfix
            }
        case .constantValue:
            let text = format(expression)
            return text.hasPrefix("-") ? Level.unary : Level.postfix
        default:
            return Level.postfix
        }
    }

    /// An operand, parenthesized when it binds more loosely than its position requires.
    private static func operandText(_ expression: NSExpression, minimum: Int) -> String {
        let text = format(expression)
        return level(of: expression) < minimum ? "(" + text + ")" : text
    }

    private static func format(function expression: NSExpression) -> String {
        let arguments = expression.arguments ?? []
        if expression.isMethodCall {
            let rest = arguments.map { ", " + format($0) }.joined()
            return "FUNCTION(" + format(expression.operand) + ", "
                + PredicateFormatConstants.quote(expression.function) + rest + ")"
        }
        let name = expression.function
        if arguments.count == 2 {
            switch name {
            case "add:to:", "from:subtract:":
                let symbol = name == "add:to:" ? "+" : "-"
                return operandText(arguments[0], minimum: Level.additive) + " \(symbol) "
                    + operandText(arguments[1], minimum: Level.multiplicative)
            case "multiply:by:", "divide:by:":
                let symbol = name == "multiply:by:" ? "*" : "/"
                return operandText(arguments[0], minimum: Level.multiplicative) + " \(symbol) "
                    + operandText(arguments[1], minimum: Level.unary)
            case "raise:toPower:":
                return operandText(arguments[0], minimum: Level.postfix) + " ** "
                    + operandText(arguments[1], minimum: Level.unary)
            case "castObject:toType:":
                return "CAST(" + format(arguments[0]) + ", " + format(arguments[1]) + ")"
            case PredicateFormatSubscripts.indexFunction:
                return operandText(arguments[0], minimum: Level.postfix) + "[" + format(arguments[1]) + "]"
            default:
                break
            }
        }
        return name + "(" + arguments.map { format($0) }.joined(separator: ", ") + ")"
    }

    /// A key path with each reserved-word component escaped with `#`.
    private static func escape(keyPath: String) -> String {
        keyPath.split(separator: ".", omittingEmptySubsequences: false).map { component in
            let key = String(component)
            return PredicateFormatReservedWords.needsEscape(key) ? "#" + key : key
        }.joined(separator: ".")
    }
}
