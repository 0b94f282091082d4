import Foundation

/// Prints predicates and expressions in Apple's canonical `predicateFormat` text.
enum PredicateFormatPrinter {
    static func format(_ predicate: NSPredicate) -> String { "" }
    static func format(_ expression: NSExpression) -> String { "" }
}
