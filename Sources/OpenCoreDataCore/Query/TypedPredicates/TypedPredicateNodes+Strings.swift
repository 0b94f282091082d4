import Foundation

// String searches: `contains`, `starts(with:)` and regular expressions.

extension PredicateExpressions.CollectionContainsCollection: TypedPredicateNode
where Base.Output: StringProtocol, Other.Output: StringProtocol {
    /// `$0.name.contains("x")` becomes `name CONTAINS "x"`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        try conversion.comparison(base, other, .contains)
    }
}

extension PredicateExpressions.SequenceStartsWith: TypedPredicateNode
where Base.Output: StringProtocol, Prefix.Output: StringProtocol {
    /// `$0.name.starts(with: "x")` becomes `name BEGINSWITH "x"`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        try conversion.comparison(base, prefix, .beginsWith)
    }
}

extension PredicateExpressions.StringContainsRegex: TypedPredicateNode {
    /// `$0.name.contains(/[a-c]x/)` becomes `name MATCHES ".*[a-c]x.*"`: `MATCHES` tests the whole string.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        let pattern = try conversion.expression(regex)
        guard case .constant(let value) = pattern.storage, let text = value as? String else {
            throw TypedPredicateConversionError.unsupportedNode("StringContainsRegex with a regular expression that is not a constant")
        }
        return .predicate(
            NSComparisonPredicate(
                leftExpression: try conversion.expression(subject),
                rightExpression: NSExpression(forConstantValue: ".*" + text + ".*"),
                modifier: .direct, type: .matches))
    }
}

extension TypedPredicateConversion {
    /// `TERNARY(a ==[o] b, 0, TERNARY(a <[o] b, -1, 1))`: a string comparison as a `ComparisonResult`'s raw
    /// value, as Apple converts `caseInsensitiveCompare(_:)` and `localizedCompare(_:)`.
    func comparisonResult(_ lhs: Any, _ rhs: Any, options: NSComparisonPredicate.Options) throws -> TypedPredicateConverted {
        let a = try expression(lhs)
        let b = try expression(rhs)
        func compare(_ type: NSComparisonPredicate.Operator) -> NSPredicate {
            NSComparisonPredicate(leftExpression: a, rightExpression: b, modifier: .direct, type: type, options: options)
        }
        let ordered = NSExpression(
            forConditional: compare(.lessThan), trueExpression: NSExpression(forConstantValue: -1),
            falseExpression: NSExpression(forConstantValue: 1))
        return .expression(
            NSExpression(
                forConditional: compare(.equalTo), trueExpression: NSExpression(forConstantValue: 0),
                falseExpression: ordered))
    }
}
