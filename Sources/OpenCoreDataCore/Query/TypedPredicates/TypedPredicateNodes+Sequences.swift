import Foundation

// Sequences and ranges: a to-many relationship's `contains(where:)`, `allSatisfy` and `filter` become
// `SUBQUERY`s, `contains(_:)` becomes `IN`, a range's `contains(_:)` `BETWEEN` or bounds.

extension TypedPredicateConversion {
    /// `SUBQUERY(sequence, $_local_N, test)`, the closure's variable bound to the iterator variable.
    func subquery(
        _ sequence: Any, _ variable: PredicateExpressions.VariableID, _ test: Any,
        negated: Bool = false
    ) throws -> NSExpression {
        let collection = try expression(sequence)
        let name = newIteratorName()
        var condition = try binding(variable, to: NSExpression(forVariable: name)).predicate(test)
        if negated { condition = NSCompoundPredicate(notPredicateWithSubpredicate: condition) }
        return NSExpression(forSubquery: collection, usingIteratorVariable: name, predicate: condition)
    }

    /// `expression.@count <op> 0`.
    static func count(of expression: NSExpression, _ type: NSComparisonPredicate.Operator) -> NSPredicate {
        NSComparisonPredicate(
            leftExpression: NSExpression(forKeyPath: "@count", operand: expression),
            rightExpression: NSExpression(forConstantValue: 0), modifier: .direct, type: type)
    }
}

extension PredicateExpressions.SequenceContainsWhere: TypedPredicateNode {
    /// `$0.tags.contains { $0.name == "x" }` becomes `SUBQUERY(tags, $_local_1, $_local_1.name == "x").@count != 0`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        .predicate(TypedPredicateConversion.count(of: try conversion.subquery(sequence, variable.key, test), .notEqualTo))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: TypedPredicateNode {
    /// `$0.tags.allSatisfy { … }` becomes `SUBQUERY(tags, $_local_1, NOT (…)).@count == 0`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        .predicate(
            TypedPredicateConversion.count(
                of: try conversion.subquery(sequence, variable.key, test, negated: true), .equalTo))
    }
}

extension PredicateExpressions.Filter: TypedPredicateNode {
    /// `$0.tags.filter { … }` becomes `SUBQUERY(tags, $_local_1, …)`; its `count` reads `@count`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        .expression(try conversion.subquery(sequence, variable.key, filter))
    }
}

extension PredicateExpressions.SequenceContains: TypedPredicateNode {
    /// `[1, 2, 3].contains($0.a)` becomes `a IN {1, 2, 3}`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        try conversion.comparison(element, sequence, .in)
    }
}

extension PredicateExpressions.SequenceMaximum: TypedPredicateNode {
    /// `$0.values.max()` becomes the key path `values.@max.self`, printed `values.@max.#self`, as Apple's
    /// conversion makes it.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        .expression(TypedPredicateConversion.appending("@max.self", to: try conversion.expression(elements)))
    }
}

extension PredicateExpressions.SequenceMinimum: TypedPredicateNode {
    /// `$0.values.min()` becomes the key path `values.@min.self`, printed `values.@min.#self`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        .expression(TypedPredicateConversion.appending("@min.self", to: try conversion.expression(elements)))
    }
}

extension PredicateExpressions.ClosedRange: TypedPredicateNode {
    /// `lo...hi` as a value: the aggregate `{lo, hi}` that `BETWEEN` takes.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        .expression(NSExpression(forAggregate: [try conversion.expression(lower), try conversion.expression(upper)]))
    }
}

extension PredicateExpressions.RangeExpressionContains: TypedPredicateNode {
    /// `(lo...hi).contains($0.x)` becomes `x BETWEEN {lo, hi}`; `lo..<hi` `x >= lo AND x < hi`; `lo...`
    /// `x >= lo`; `...hi` `x <= hi`; `..<hi` `x < hi`.
    func converted(in conversion: TypedPredicateConversion) throws -> TypedPredicateConverted {
        let value = try conversion.expression(element)
        if let closed = range as? any TypedPredicateRangeNode {
            let (lower, upper) = try closed.bounds(in: conversion)
            guard closed.includesUpperBound else {
                return .predicate(TypedPredicateBounds.predicate(value, lower: lower, upper: upper, includesUpper: false))
            }
            return .predicate(
                NSComparisonPredicate(
                    leftExpression: value, rightExpression: NSExpression(forAggregate: [lower, upper]),
                    modifier: .direct, type: .between))
        }
        guard let bounds = try? TypedPredicateBounds.evaluated(range) else {
            throw TypedPredicateConversionError.unsupportedNode(TypedPredicateConversion.name(of: range))
        }
        let lower = try bounds.lower.map { NSExpression(forConstantValue: try TypedPredicateConstants.storable($0)) }
        let upper = try bounds.upper.map { NSExpression(forConstantValue: try TypedPredicateConstants.storable($0)) }
        if let lower, let upper, bounds.includesUpper {
            return .predicate(
                NSComparisonPredicate(
                    leftExpression: value, rightExpression: NSExpression(forAggregate: [lower, upper]),
                    modifier: .direct, type: .between))
        }
        return .predicate(TypedPredicateBounds.predicate(value, lower: lower, upper: upper, includesUpper: bounds.includesUpper))
    }
}

/// A range node whose bounds are expressions of their own (`$0.low...$0.high`).
protocol TypedPredicateRangeNode {
    var includesUpperBound: Bool { get }
    func bounds(in conversion: TypedPredicateConversion) throws -> (NSExpression, NSExpression)
}

extension PredicateExpressions.ClosedRange: TypedPredicateRangeNode {
    var includesUpperBound: Bool { true }
    func bounds(in conversion: TypedPredicateConversion) throws -> (NSExpression, NSExpression) {
        (try conversion.expression(lower), try conversion.expression(upper))
    }
}

extension PredicateExpressions.Range: TypedPredicateRangeNode {
    var includesUpperBound: Bool { false }
    func bounds(in conversion: TypedPredicateConversion) throws -> (NSExpression, NSExpression) {
        (try conversion.expression(lower), try conversion.expression(upper))
    }
}

/// The bounds of a range value, and the comparisons that test them.
enum TypedPredicateBounds {
    /// The bounds of the range a node evaluates to without the input (a captured `lo...`).
    static func evaluated<Node: PredicateExpression>(_ node: Node) throws -> (lower: Any?, upper: Any?, includesUpper: Bool)? {
        (try node.evaluate(PredicateBindings()) as? any TypedPredicateRangeValue)?.predicateBounds
    }

    /// `value >= lower AND value < upper` (or `<=`), either side left out when it has no bound.
    static func predicate(
        _ value: NSExpression, lower: NSExpression?, upper: NSExpression?,
        includesUpper: Bool
    ) -> NSPredicate {
        var parts: [NSPredicate] = []
        if let lower {
            parts.append(
                NSComparisonPredicate(
                    leftExpression: value, rightExpression: lower, modifier: .direct,
                    type: .greaterThanOrEqualTo))
        }
        if let upper {
            parts.append(
                NSComparisonPredicate(
                    leftExpression: value, rightExpression: upper, modifier: .direct,
                    type: includesUpper ? .lessThanOrEqualTo : .lessThan))
        }
        return parts.count == 1 ? parts[0] : NSCompoundPredicate(andPredicateWithSubpredicates: parts)
    }
}

/// A standard-library range, read as its bounds.
protocol TypedPredicateRangeValue {
    var predicateBounds: (lower: Any?, upper: Any?, includesUpper: Bool) { get }
}

extension ClosedRange: TypedPredicateRangeValue {
    var predicateBounds: (lower: Any?, upper: Any?, includesUpper: Bool) { (lowerBound, upperBound, true) }
}

extension Range: TypedPredicateRangeValue {
    var predicateBounds: (lower: Any?, upper: Any?, includesUpper: Bool) { (lowerBound, upperBound, false) }
}

extension PartialRangeFrom: TypedPredicateRangeValue {
    var predicateBounds: (lower: Any?, upper: Any?, includesUpper: Bool) { (lowerBound, nil, true) }
}

extension PartialRangeThrough: TypedPredicateRangeValue {
    var predicateBounds: (lower: Any?, upper: Any?, includesUpper: Bool) { (nil, upperBound, true) }
}

extension PartialRangeUpTo: TypedPredicateRangeValue {
    var predicateBounds: (lower: Any?, upper: Any?, includesUpper: Bool) { (nil, upperBound, false) }
}
