import Foundation

/// `collection[index]`, `collection[FIRST]`, `collection[LAST]`, `collection[SIZE]` and
/// `dictionary["key"]`.
///
/// Apple represents an index as the function `objectFrom:withIndex:`; `SIZE` is the collection's count.
/// `FIRST` is index 0 and `LAST` index -1 (negative indexes count from the end), so they print as `[0]`
/// and `[-1]`.
enum PredicateFormatSubscripts {
    /// The function name of an index subscript.
    static let indexFunction = "objectFrom:withIndex:"

    /// The expression for `base[FIRST]`, `base[LAST]` or `base[SIZE]`.
    static func expression(_ base: NSExpression, symbol: String) -> NSExpression {
        switch symbol {
        case "SIZE": return NSExpression(forFunction: "count:", arguments: [base])
        case "FIRST": return expression(base, index: NSExpression(forConstantValue: 0))
        default: return expression(base, index: NSExpression(forConstantValue: -1))
        }
    }

    /// The expression for `base[index]`.
    static func expression(_ base: NSExpression, index: NSExpression) -> NSExpression {
        NSExpression(forFunction: indexFunction, arguments: [base, index])
    }
}
