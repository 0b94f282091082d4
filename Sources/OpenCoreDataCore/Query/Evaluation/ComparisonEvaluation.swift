/// Evaluation of comparison predicates: modifiers, operators and options.
enum ComparisonEvaluation {
    typealias Operator = NSComparisonPredicate.Operator

    static func evaluate(_ predicate: NSComparisonPredicate, object: Any?, scope: EvaluationScope) -> Bool {
        let left = predicate.leftExpression.evaluate(object, in: scope)
        let right = predicate.rightExpression.evaluate(object, in: scope)
        if let selector = predicate.customSelector {
            return CustomSelectorComparison.evaluate(selector, left, right)
        }
        var modifier = predicate.comparisonPredicateModifier
        if predicate.leftExpression.expressionType == .anyKey, modifier == .direct { modifier = .any }
        switch modifier {
        case .direct:
            return compare(left, right, predicate.predicateOperatorType, predicate.options)
        case .any, .all:
            guard let elements = EvaluationValues.elements(of: left) else {
                // A single value is treated as a collection of one; `nil` as an empty collection.
                guard let single = EvaluationValues.flatten(left) else { return modifier == .all }
                return compare(single, right, predicate.predicateOperatorType, predicate.options)
            }
            if modifier == .any {
                return elements.contains { compare($0, right, predicate.predicateOperatorType, predicate.options) }
            }
            return elements.allSatisfy { compare($0, right, predicate.predicateOperatorType, predicate.options) }
        }
    }

    /// Applies one operator to two values.
    static func compare(_ lhs: Any?, _ rhs: Any?, _ op: Operator, _ options: NSComparisonPredicate.Options) -> Bool {
        let left = EvaluationValues.flatten(lhs), right = EvaluationValues.flatten(rhs)
        switch op {
        case .equalTo: return ValueComparison.isEqual(left, right, options: options)
        case .notEqualTo: return !ValueComparison.isEqual(left, right, options: options)
        case .lessThan: return ValueComparison.compare(left, right, options: options) == .orderedAscending
        case .lessThanOrEqualTo:
            let order = ValueComparison.compare(left, right, options: options)
            return order == .orderedAscending || order == .orderedSame
        case .greaterThan: return ValueComparison.compare(left, right, options: options) == .orderedDescending
        case .greaterThanOrEqualTo:
            let order = ValueComparison.compare(left, right, options: options)
            return order == .orderedDescending || order == .orderedSame
        case .matches, .like, .beginsWith, .endsWith:
            guard let l = left.flatMap(ValueComparison.string), let r = right.flatMap(ValueComparison.string) else {
                return false
            }
            switch op {
            case .matches: return RegularExpressionMatching.matches(l, pattern: r, options: options)
            case .like: return StringFolding.like(l, pattern: r, options: options)
            case .beginsWith: return StringFolding.begins(l, with: r, options: options)
            default: return StringFolding.ends(l, with: r, options: options)
            }
        case .in: return contains(container: right, element: left, options: options)
        case .contains: return contains(container: left, element: right, options: options)
        case .between:
            guard let bounds = EvaluationValues.elements(of: right), bounds.count == 2 else { return false }
            return compare(left, bounds[0], .greaterThanOrEqualTo, options)
                && compare(left, bounds[1], .lessThanOrEqualTo, options)
        case .customSelector: return false
        }
    }

    /// `CONTAINS` and `IN`: membership in a collection (a dictionary's values), or a substring.
    private static func contains(container: Any?, element: Any?, options: NSComparisonPredicate.Options) -> Bool {
        guard let container else { return false }
        if let string = ValueComparison.string(container) {
            guard let part = element.flatMap(ValueComparison.string) else { return false }
            return StringFolding.contains(string, part, options: options)
        }
        if let elements = EvaluationValues.elements(of: container) {
            return elements.contains { ValueComparison.isEqual($0, element, options: options) }
        }
        if let dictionary = container as? any AnyKeyedLookup {
            return dictionary.anyValues.contains { ValueComparison.isEqual($0, element, options: options) }
        }
        if type(of: container) is NSDictionary.Type, let dictionary = container as? NSDictionary {
            return dictionary.allValues.contains { ValueComparison.isEqual($0, element, options: options) }
        }
        return false
    }
}
