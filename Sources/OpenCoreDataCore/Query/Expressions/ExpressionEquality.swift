/// Structural equality and hashing of expressions: two expressions are equal when they would print the
/// same format.
enum ExpressionEquality {
    static func isEqual(_ a: NSExpression, _ b: NSExpression) -> Bool {
        switch (a.storage, b.storage) {
        case let (.constant(x), .constant(y)):
            return constantsEqual(x, y)
        case (.evaluatedObject, .evaluatedObject), (.anyKey, .anyKey):
            return true
        case let (.variable(x), .variable(y)):
            return x == y
        case let (.keyPath(p, o), .keyPath(q, r)):
            return p == q && o.isEqual(r)
        case let (.function(n, x), .function(m, y)):
            return n == m && x == y
        case let (.method(r1, s1, a1), .method(r2, s2, a2)):
            return s1 == s2 && r1.isEqual(r2) && a1 == a2
        case let (.unionSet(l1, r1), .unionSet(l2, r2)),
            let (.intersectSet(l1, r1), .intersectSet(l2, r2)),
            let (.minusSet(l1, r1), .minusSet(l2, r2)):
            return l1.isEqual(l2) && r1.isEqual(r2)
        case let (.subquery(c1, v1, p1), .subquery(c2, v2, p2)):
            return v1 == v2 && c1.isEqual(c2) && p1.isEqual(p2)
        case let (.aggregate(x), .aggregate(y)):
            return x == y
        case (.block, .block):
            return a === b
        case let (.conditional(p1, t1, f1), .conditional(p2, t2, f2)):
            return p1.isEqual(p2) && t1.isEqual(t2) && f1.isEqual(f2)
        default:
            return false
        }
    }

    /// Constants are equal when their values are equal and of the same broad kind (so `1` and `"1"`
    /// differ, while `1` and `1.0` are the same number).
    private static func constantsEqual(_ x: Any?, _ y: Any?) -> Bool {
        let a = EvaluationValues.flatten(x), b = EvaluationValues.flatten(y)
        if (NumericValue(a) == nil) != (NumericValue(b) == nil) { return false }
        return ValueComparison.isEqual(a, b, options: [])
    }

    static func hash(_ expression: NSExpression, into hasher: inout Hasher) {
        hasher.combine(expression.expressionType)
        switch expression.storage {
        case .constant(let value):
            if let key = EvaluationValues.hashKey(value) {
                hasher.combine(key)
            } else if let elements = EvaluationValues.elements(of: value) {
                hasher.combine(elements.count)
            }
        case .variable(let name): hasher.combine(name)
        case .keyPath(let path, _): hasher.combine(path)
        case .function(let name, let arguments):
            hasher.combine(name)
            hasher.combine(arguments.count)
        case .method(_, let selector, _): hasher.combine(selector)
        case .subquery(_, let variable, _): hasher.combine(variable)
        case .aggregate(let subexpressions): hasher.combine(subexpressions.count)
        default: break
        }
    }
}
