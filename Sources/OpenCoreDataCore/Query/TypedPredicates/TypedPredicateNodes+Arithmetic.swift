import Foundation

// `+`, `-`, `*`, `/` on floating-point values and unary `-`, as the functions Apple's conversion uses.
// Integer `/` and `%` have no conversion: `divide:by:` and `modulus:by:` compute with doubles.

extension PredicateExpressions.Arithmetic: TypedPredicateNode {
    /// `$0.a + 2` becomes `a + 2` (`add:to:`), `-` `from:subtract:`, `*` `multiply:by:`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        let function: String
        switch op {
        case .add: function = "add:to:"
        case .subtract: function = "from:subtract:"
        case .multiply: function = "multiply:by:"
        }
        return .expression(
            NSExpression(
                forFunction: function,
                arguments: [try conversion.expression(lhs), try conversion.expression(rhs)]))
    }
}

extension PredicateExpressions.FloatDivision: TypedPredicateNode {
    /// `$0.x / 2` becomes `x / 2` (`divide:by:`).
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        .expression(
            NSExpression(
                forFunction: "divide:by:",
                arguments: [try conversion.expression(lhs), try conversion.expression(rhs)]))
    }
}

extension PredicateExpressions.UnaryMinus: TypedPredicateNode {
    /// `-$0.x` becomes `x * -1`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        .expression(
            NSExpression(
                forFunction: "multiply:by:",
                arguments: [try conversion.expression(wrapped), NSExpression(forConstantValue: -1)]))
    }
}
