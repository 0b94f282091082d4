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

    /// The names given to the variables of `contains(where:)`, `allSatisfy` and `filter` closures, shared by
    /// every copy of the conversion: `_local_1`, `_local_2`, … in order of appearance, as Apple names them.
    private let iteratorNames = IteratorNames()

    init(input: PredicateExpressions.VariableID) {
        self.input = input
    }

    /// A new iterator variable's name (`_local_1` prints as `$_local_1`).
    func newIteratorName() -> String {
        iteratorNames.count += 1
        return "_local_\(iteratorNames.count)"
    }

    /// This conversion with one more variable bound to an expression.
    func binding(_ variable: PredicateExpressions.VariableID, to expression: NSExpression) -> Self {
        var copy = self
        copy.bindings[variable] = expression
        return copy
    }

    /// The node converted; a node with no conversion that evaluates without the input becomes the constant
    /// it evaluates to, as Apple's conversion folds it (`nonObjC.values.contains(1)` is a Boolean constant).
    func converted(_ node: Any) throws -> TypedPredicateConverted {
        guard let convertible = node as? any TypedPredicateNode else {
            if let constant = Self.folded(node) { return constant }
            throw TypedPredicateConversionError.unsupportedNode(Self.name(of: node))
        }
        do {
            return try convertible.converted(in: self)
        } catch let error as TypedPredicateConversionError {
            if let constant = Self.folded(node) { return constant }
            throw error
        }
    }

    /// The constant a subtree evaluates to with no variable bound, when it is one a store can compare.
    private static func folded(_ node: Any) -> TypedPredicateConverted? {
        guard let expression = node as? any PredicateExpression,
            let value = try? evaluatedWithoutBindings(expression),
            let constant = try? TypedPredicateConstants.storable(value)
        else { return nil }
        return .expression(NSExpression(forConstantValue: constant))
    }

    private static func evaluatedWithoutBindings<Node: PredicateExpression>(_ node: Node) throws -> Any {
        try node.evaluate(PredicateBindings())
    }

    /// A node's type name without its generic arguments (`IntDivision`), for error messages.
    static func name(of node: Any) -> String {
        let full = String(describing: type(of: node))
        return String(full.prefix { $0 != "<" })
    }

    /// The node as a value: a predicate used as a value becomes `TERNARY(predicate, YES, NO)`.
    func expression(_ node: Any) throws -> NSExpression {
        switch try converted(node) {
        case .expression(let expression):
            return expression
        case .predicate(let predicate):
            return NSExpression(
                forConditional: predicate, trueExpression: NSExpression(forConstantValue: true),
                falseExpression: NSExpression(forConstantValue: false))
        }
    }

    /// The node as a predicate: a Boolean value becomes `value == YES`.
    func predicate(_ node: Any) throws -> NSPredicate {
        switch try converted(node) {
        case .predicate(let predicate):
            return predicate
        case .expression(let expression):
            return NSComparisonPredicate(
                leftExpression: expression,
                rightExpression: NSExpression(forConstantValue: true),
                modifier: .direct, type: .equalTo)
        }
    }

    /// `value != nil`, the test of `?.` and `??`.
    static func isPresent(_ value: NSExpression) -> NSPredicate {
        NSComparisonPredicate(
            leftExpression: value, rightExpression: NSExpression(forConstantValue: nil),
            modifier: .direct, type: .notEqualTo)
    }

    func comparison(
        _ lhs: Any, _ rhs: Any, _ type: NSComparisonPredicate.Operator,
        options: NSComparisonPredicate.Options = []
    ) throws -> TypedPredicateConverted {
        .predicate(
            NSComparisonPredicate(
                leftExpression: try expression(lhs), rightExpression: try expression(rhs),
                modifier: .direct, type: type, options: options))
    }
}

/// The counter behind ``TypedPredicateConversion/newIteratorName()``; one conversion runs on one thread.
final class IteratorNames {
    var count = 0
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
