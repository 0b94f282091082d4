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
    /// A property becomes a key path (`author.name`); `count` becomes `length` on a string and `@count`
    /// on a collection, `isEmpty` a comparison of either with 0; an array's `first` and `last` become
    /// `values[FIRST]` and `values[LAST]`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        let base = try conversion.expression(root)
        let isString = Root.Output.self is any StringProtocol.Type
        switch kind {
        case .collectionCount?:
            return .expression(Self.appending(isString ? "length" : "@count", to: base))
        case .collectionIsEmpty?:
            return .predicate(
                NSComparisonPredicate(
                    leftExpression: Self.appending(isString ? "length" : "@count", to: base),
                    rightExpression: NSExpression(forConstantValue: 0), modifier: .direct, type: .equalTo))
        case .collectionFirst?:
            // Foundation reports `first` and `last` of arrays only; a set's (a to-many relationship's) has
            // no order, and no conversion, as on Apple platforms.
            return .expression(PredicateFormatSubscripts.expression(base, symbol: "FIRST"))
        case .bidirectionalCollectionLast?:
            return .expression(PredicateFormatSubscripts.expression(base, symbol: "LAST"))
        case nil:
            guard let name = KeyPathNames.string(for: keyPath) else {
                throw TypedPredicateConversionError.unnamedKeyPath(keyPath.debugDescription)
            }
            return .expression(Self.appending(name, to: base))
        }
    }

    private static func appending(_ name: String, to base: NSExpression) -> NSExpression {
        TypedPredicateConversion.appending(name, to: base)
    }
}

extension TypedPredicateConversion {
    /// `base.name`: a key path read from the evaluated object, extended, or read from another value (an
    /// iterator variable, a `SUBQUERY`, a `TERNARY`).
    static func appending(_ name: String, to base: NSExpression) -> NSExpression {
        switch base.storage {
        case .evaluatedObject:
            return NSExpression(forKeyPath: name)
        case .keyPath(let path, let operand):
            return NSExpression(forKeyPath: path + "." + name, operand: operand)
        default:
            return NSExpression(forKeyPath: name, operand: base)
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
        .predicate(
            NSCompoundPredicate(andPredicateWithSubpredicates: [
                try conversion.predicate(lhs),
                try conversion.predicate(rhs),
            ]))
    }
}

extension PredicateExpressions.Disjunction: TypedPredicateNode {
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        .predicate(
            NSCompoundPredicate(orPredicateWithSubpredicates: [
                try conversion.predicate(lhs),
                try conversion.predicate(rhs),
            ]))
    }
}

extension PredicateExpressions.Negation: TypedPredicateNode {
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        .predicate(NSCompoundPredicate(notPredicateWithSubpredicate: try conversion.predicate(wrapped)))
    }
}
