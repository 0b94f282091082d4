import Foundation

/// `collection[index]`, `collection[FIRST]`, `collection[LAST]` and `collection[SIZE]`.
///
/// Apple represents an index as the function `objectFrom:withIndex:`; `SIZE` is the collection's count.
/// `FIRST` is index 0 and `LAST` index -1 (negative indexes count from the end).
enum PredicateFormatSubscripts {
    /// The function name of an index subscript.
    static let indexFunction = "objectFrom:withIndex:"

    /// Whether index subscripts can be evaluated by this build.
    static var supportsIndexing: Bool { ExpressionFunctions.arity(of: indexFunction) == 2 }

    /// The expression for `base[FIRST]`, `base[LAST]` or `base[SIZE]`, or `nil` when indexing is not
    /// supported.
    static func expression(_ base: NSExpression, symbol: String) -> NSExpression? {
        switch symbol {
        case "SIZE": return NSExpression(forFunction: "count:", arguments: [base])
        case "FIRST": return expression(base, index: NSExpression(forConstantValue: 0))
        default: return expression(base, index: NSExpression(forConstantValue: -1))
        }
    }

    /// The expression for `base[index]`, or `nil` when indexing is not supported.
    static func expression(_ base: NSExpression, index: NSExpression) -> NSExpression? {
        guard supportsIndexing else { return nil }
        return NSExpression(forFunction: indexFunction, arguments: [base, index])
    }
}
