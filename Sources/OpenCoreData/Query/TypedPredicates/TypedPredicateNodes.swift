import Foundation

// Each `PredicateExpressions` node that converts, as Apple's conversion converts it.

extension PredicateExpressions.Variable: TypedPredicateNode {
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        if key == conversion.input { return .expression(NSExpression.expressionForEvaluatedObject()) }
        guard let bound = conversion.bindings[key] else {
            throw TypedPredicateConversionError.unsupportedNode("Variable")
        }
        return .expression(bound)
    }
}

extension PredicateExpressions.KeyPath: TypedPredicateNode {
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        guard let name = KeyPathNames.string(for: keyPath) else {
            throw TypedPredicateConversionError.unnamedKeyPath(keyPath.debugDescription)
        }
        let base = try conversion.expression(root)
        switch base.expressionType {
        case .evaluatedObject:
            return .expression(NSExpression(forKeyPath: name))
        case .keyPath:
            return .expression(NSExpression(forKeyPath: base.keyPath + "." + name))
        default:
            throw TypedPredicateConversionError.unsupportedNode("KeyPath on \(base)")
        }
    }
}

extension PredicateExpressions.Value: TypedPredicateNode {
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        .expression(NSExpression(forConstantValue: try TypedPredicateConstants.storable(value)))
    }
}

extension PredicateExpressions.NilLiteral: TypedPredicateNode {
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        .expression(NSExpression(forConstantValue: nil))
    }
}

extension PredicateExpressions.Equal: TypedPredicateNode {
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        try conversion.comparison(lhs, rhs, .equalTo)
    }
}

extension PredicateExpressions.NotEqual: TypedPredicateNode {
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        try conversion.comparison(lhs, rhs, .notEqualTo)
    }
}

extension PredicateExpressions.Comparison: TypedPredicateNode {
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        let type: NSComparisonPredicate.Operator
        switch op {
        case .lessThan: type = .lessThan
        case .lessThanOrEqual: type = .lessThanOrEqualTo
        case .greaterThan: type = .greaterThan
        case .greaterThanOrEqual: type = .greaterThanOrEqualTo
        }
        return try conversion.comparison(lhs, rhs, type)
    }
}

extension PredicateExpressions.Conjunction: TypedPredicateNode {
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        .predicate(NSCompoundPredicate(andPredicateWithSubpredicates: [try conversion.predicate(lhs),
                                                                       try conversion.predicate(rhs)]))
    }
}

extension PredicateExpressions.Disjunction: TypedPredicateNode {
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        .predicate(NSCompoundPredicate(orPredicateWithSubpredicates: [try conversion.predicate(lhs),
                                                                      try conversion.predicate(rhs)]))
    }
}

extension PredicateExpressions.Negation: TypedPredicateNode {
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        .predicate(NSCompoundPredicate(notPredicateWithSubpredicate: try conversion.predicate(wrapped)))
    }
}

extension PredicateExpressions.CollectionContainsCollection: TypedPredicateNode
where Base.Output: StringProtocol, Other.Output: StringProtocol {
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        try conversion.comparison(base, other, .contains)
    }
}

extension PredicateExpressions.SequenceStartsWith: TypedPredicateNode
where Base.Output: StringProtocol, Prefix.Output: StringProtocol {
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        try conversion.comparison(base, prefix, .beginsWith)
    }
}

extension PredicateExpressions.OptionalFlatMap: TypedPredicateNode {
    /// `$0.parent?.name` becomes `TERNARY(parent != nil, parent.name, nil)`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        let value = try conversion.expression(wrapped)
        let inner = conversion.binding(variable.key, to: value)
        let test = NSComparisonPredicate(leftExpression: value, rightExpression: NSExpression(forConstantValue: nil),
                                         modifier: .direct, type: .notEqualTo)
        return .expression(NSExpression(forConditional: test, trueExpression: try inner.expression(transform),
                                        falseExpression: NSExpression(forConstantValue: nil)))
    }
}
