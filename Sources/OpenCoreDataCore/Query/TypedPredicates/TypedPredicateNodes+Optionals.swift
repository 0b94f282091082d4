import Foundation

// `?.`, `??` and `?:`, each a `TERNARY` as Apple's conversion makes it.

extension PredicateExpressions.OptionalFlatMap: TypedPredicateNode {
    /// `$0.parent?.name` becomes `TERNARY(parent != nil, parent.name, nil)`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        let value = try conversion.expression(wrapped)
        let inner = conversion.binding(variable.key, to: value)
        return .expression(
            NSExpression(
                forConditional: TypedPredicateConversion.isPresent(value), trueExpression: try inner.expression(transform),
                falseExpression: NSExpression(forConstantValue: nil)))
    }
}

extension PredicateExpressions.NilCoalesce: TypedPredicateNode {
    /// `$0.note ?? ""` becomes `TERNARY(note != nil, note, "")`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        let value = try conversion.expression(lhs)
        return .expression(
            NSExpression(
                forConditional: TypedPredicateConversion.isPresent(value), trueExpression: value,
                falseExpression: try conversion.expression(rhs)))
    }
}

extension PredicateExpressions.Conditional: TypedPredicateNode {
    /// `$0.isDone ? a : b` becomes `TERNARY(isDone == YES, a, b)`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        .expression(
            NSExpression(
                forConditional: try conversion.predicate(test),
                trueExpression: try conversion.expression(trueBranch),
                falseExpression: try conversion.expression(falseBranch)))
    }
}
