import GRDB

/// `TERNARY(predicate, a, b)`: a `CASE` expression, so that `#Predicate`'s `?.`, `??` and `?:` run in SQL.
extension SQLiteFetchCompiler {
    /// `CASE WHEN <test> THEN <a> ELSE <b> END`, of the kind its branches share.
    ///
    /// SQL's `CASE` takes the `ELSE` branch when the test is `NULL`, as in-memory evaluation takes the false
    /// branch of a predicate that is not true. Branches of different kinds have no SQL form: in memory a
    /// `TERNARY` may give a string for one object and a number for another, which no column comparison can
    /// follow.
    func conditionalOperand(
        _ test: NSPredicate, _ whenTrue: NSExpression, _ whenFalse: NSExpression,
        in scope: SQLiteQueryScope, expression: NSExpression
    ) throws -> SQLiteOperand {
        let condition = try predicateSQL(test, in: scope)
        let branches = [try operand(whenTrue, in: scope), try operand(whenFalse, in: scope)]
        if case .constant(let a) = branches[0], case .constant(let b) = branches[1], Self.isNull(a) && Self.isNull(b) {
            return .constant(nil)
        }
        if let entity = branches.lazy.compactMap(Self.objectEntity).first {
            let keys = try branches.map { branch -> SQLFragment in
                switch branch {
                case .object(let sql, let other) where other === entity || entity.isKindOf(entity: other) || other.isKindOf(entity: entity):
                    return sql
                case .constant(let value) where Self.isNull(value):
                    return SQLFragment("NULL")
                default:
                    throw Self.unsupported("the branches of \(expression) are not both objects of \(entity.name ?? "one entity")")
                }
            }
            return .object(Self.caseExpression(condition, keys[0], keys[1]), entity: entity)
        }
        var category: SQLiteValueCategory?
        for branch in branches {
            let kind: SQLiteValueCategory?
            switch branch {
            case .scalar(_, let c): kind = c
            case .constant(let value):
                guard let value = EvaluationValues.flatten(value) else { continue }
                guard let (c, _) = SQLiteValueCategory.encode(value) else {
                    throw Self.unsupported("the value \(value) in \(expression) has no SQL form")
                }
                kind = c
            case .object, .collection:
                throw Self.unsupported("a branch of \(expression) is not a single value")
            }
            guard let kind else { continue }
            if let category, category != kind {
                throw Self.unsupported("the branches of \(expression) give values of different kinds")
            }
            category = kind
        }
        let values = try branches.map { branch -> SQLFragment in
            switch branch {
            case .scalar(let sql, _): return sql
            case .constant(let value):
                guard let value = EvaluationValues.flatten(value) else { return SQLFragment("NULL") }
                guard let (_, encoded) = SQLiteValueCategory.encode(value) else {
                    throw Self.unsupported("the value \(value) in \(expression) has no SQL form")
                }
                return .bound(encoded)
            case .object, .collection:
                throw Self.unsupported("a branch of \(expression) is not a single value")
            }
        }
        return .scalar(Self.caseExpression(condition, values[0], values[1]), category: category)
    }

    private static func caseExpression(_ condition: SQLFragment, _ a: SQLFragment, _ b: SQLFragment) -> SQLFragment {
        "(CASE WHEN " + condition + " THEN " + a + " ELSE " + b + " END)"
    }

    private static func isNull(_ value: Any?) -> Bool {
        EvaluationValues.flatten(value) == nil
    }

    private static func objectEntity(_ operand: SQLiteOperand) -> NSEntityDescription? {
        if case .object(_, let entity) = operand { return entity }
        return nil
    }
}
