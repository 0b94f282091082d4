import Foundation

/// What one node of a `Predicate` tree becomes: a value expression or a predicate.
enum TypedPredicateConverted {
    case expression(NSExpression)
    case predicate(NSPredicate)
}

/// A `PredicateExpressions` node that has an `NSPredicate` / `NSExpression` counterpart.
protocol TypedPredicateNode {
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted
}

/// Walks a Foundation `Predicate` tree and builds the equivalent predicate, naming the first node or key
/// path that has no conversion in the error it throws.
struct TypedPredicateConversion {
    /// The variable that stands for the evaluated object (`SELF`).
    let input: PredicateExpressions.VariableID
    /// What the variables of enclosing closures (`?.`) stand for.
    var bindings: [PredicateExpressions.VariableID: NSExpression] = [:]

    init(input: PredicateExpressions.VariableID) {
        self.input = input
    }

    /// This conversion with one more variable bound to an expression.
    func binding(_ variable: PredicateExpressions.VariableID, to expression: NSExpression) -> Self {
        var copy = self
        copy.bindings[variable] = expression
        return copy
    }

    func converted(_ node: Any) throws -> TypedPredicateConverted {
        guard let convertible = node as? any TypedPredicateNode else {
            throw TypedPredicateConversionError.unsupportedNode(String(describing: type(of: node)))
        }
        return try convertible.converted(in: self)
    }

    /// The node as a value: a predicate used as a value becomes `TERNARY(predicate, YES, NO)`.
    func expression(_ node: Any) throws -> NSExpression {
        switch try converted(node) {
        case .expression(let expression):
            return expression
        case .predicate(let predicate):
            return NSExpression(forConditional: predicate, trueExpression: NSExpression(forConstantValue: true),
                                falseExpression: NSExpression(forConstantValue: false))
        }
    }

    /// The node as a predicate: a Boolean value becomes `value == YES`.
    func predicate(_ node: Any) throws -> NSPredicate {
        switch try converted(node) {
        case .predicate(let predicate):
            return predicate
        case .expression(let expression):
            return NSComparisonPredicate(leftExpression: expression,
                                         rightExpression: NSExpression(forConstantValue: true),
                                         modifier: .direct, type: .equalTo)
        }
    }

    func comparison(_ lhs: Any, _ rhs: Any, _ type: NSComparisonPredicate.Operator,
                    options: NSComparisonPredicate.Options = []) throws -> TypedPredicateConverted {
        .predicate(NSComparisonPredicate(leftExpression: try expression(lhs), rightExpression: try expression(rhs),
                                         modifier: .direct, type: type, options: options))
    }
}

/// Why a `Predicate` has no `NSPredicate` counterpart.
enum TypedPredicateConversionError: Error {
    case unsupportedNode(String)
    case unnamedKeyPath(String)
    case unsupportedConstant(String)

    /// The error as the `NSError` the throwing initializers report.
    var nsError: NSError {
        let description: String
        switch self {
        case .unsupportedNode(let node):
            description = "The predicate node \(node) has no NSPredicate conversion"
        case .unnamedKeyPath(let keyPath):
            description = "The key path \(keyPath) names no persistent property"
        case .unsupportedConstant(let type):
            description = "A constant of type \(type) cannot be compared by a store"
        }
        return NSError(domain: NSCocoaErrorDomain, code: NSFormattingError, userInfo: [NSLocalizedDescriptionKey: description])
    }
}
