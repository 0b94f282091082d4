import GRDB

/// Predicates: constants, `AND`/`OR`/`NOT`, comparisons and their modifiers.
///
/// Every compiled predicate is 1 when the predicate holds and 0 or NULL when it does not, NULL standing
/// for a comparison with a missing value, which in-memory evaluation answers with false. `NOT` and
/// `ALL` turn NULL into 0 before negating, so negations agree with in-memory evaluation too.
extension SQLiteFetchCompiler {
    typealias Operator = NSComparisonPredicate.Operator

    /// Compiles a predicate evaluated for the rows of `scope`.
    func predicateSQL(_ predicate: NSPredicate, in scope: SQLiteQueryScope) throws -> SQLFragment {
        if let compound = predicate as? NSCompoundPredicate {
            let parts = try compound.typedSubpredicates.map { try predicateSQL($0, in: scope).parenthesized }
            switch compound.compoundPredicateType {
            case .and: return parts.isEmpty ? .constant(true) : SQLFragment.joined(parts, separator: " AND ")
            case .or: return parts.isEmpty ? .constant(false) : SQLFragment.joined(parts, separator: " OR ")
            case .not:
                guard parts.count == 1 else {
                    throw Self.unsupported("the NOT predicate \(predicate) has \(parts.count) subpredicates")
                }
                return Self.negated(parts[0])
            }
        }
        if let comparison = predicate as? NSComparisonPredicate {
            return try comparisonSQL(comparison, in: scope)
        }
        switch predicate.base {
        case .value(let value): return .constant(value)
        case .block: throw Self.unsupported("block predicates cannot be used in a fetch from a SQLite store (\(predicate))")
        case .subclass: throw Self.unsupported("the predicate \(predicate) has no SQL form")
        }
    }

    /// `NOT`, with NULL read as false first.
    static func negated(_ fragment: SQLFragment) -> SQLFragment {
        "NOT COALESCE(" + fragment + ", 0)"
    }

    /// Compiles a comparison predicate.
    private func comparisonSQL(_ predicate: NSComparisonPredicate, in scope: SQLiteQueryScope) throws -> SQLFragment {
        let op = predicate.predicateOperatorType
        if predicate.customSelector != nil || op == .customSelector {
            throw Self.unsupported("the custom selector comparison \(predicate) has no SQL form")
        }
        let left = try operand(predicate.leftExpression, in: scope)
        let right = try operand(predicate.rightExpression, in: scope)
        let options = predicate.options
        let test = { (element: SQLiteOperand) throws -> SQLFragment in
            try self.compare(element, right, op, options, predicate)
        }
        switch predicate.comparisonPredicateModifier {
        case .any, .all:
            let all = predicate.comparisonPredicateModifier == .all
            switch left {
            case .collection(let rows):
                return try quantified(rows, all: all, test: test)
            case .scalar(let sql, _), .object(let sql, _):
                // A single value counts as a collection of one, a missing one as an empty collection.
                return all ? ("(" + sql + " IS NULL OR COALESCE(" + (try test(left)) + ", 0))") : try test(left)
            case .constant:
                throw Self.unsupported("ANY/ALL in \(predicate) applies to a constant")
            }
        case .direct:
            if case .collection(let rows) = left {
                guard op == .contains else {
                    throw Self.unsupported("the to-many key path \(rows.description) in \(predicate) needs ANY, ALL, NONE or a collection operator")
                }
                return try quantified(rows, all: false) { element in
                    try self.compare(element, right, .equalTo, options, predicate)
                }
            }
            if case .collection(let rows) = right {
                guard op == .in else {
                    throw Self.unsupported("the to-many key path \(rows.description) in \(predicate) can only be the right side of IN")
                }
                return try quantified(rows, all: false) { element in
                    try self.compare(left, element, .equalTo, options, predicate)
                }
            }
            return try compare(left, right, op, options, predicate)
        }
    }

    /// `EXISTS` (ANY) or `NOT EXISTS … NOT` (ALL) over the rows of a collection, flattening nested
    /// to-many key paths.
    func quantified(
        _ rows: SQLiteCollection, all: Bool,
        test: (SQLiteOperand) throws -> SQLFragment
    ) throws -> SQLFragment {
        let element: SQLiteOperand
        if rows.rest.isEmpty {
            element = .object(SQLFragment("\(rows.scope.alias).Z_PK"), entity: rows.scope.entity)
        } else {
            element = try pathOperand(
                resolve(
                    rows.rest.joined(separator: "."), in: rows.scope,
                    alias: rows.scope.alias, entity: rows.scope.entity))
        }
        let condition: SQLFragment
        if case .collection(let nested) = element {
            let inner = try quantified(nested, all: all, test: test)
            condition = all ? Self.negated(inner) : inner
        } else {
            let holds = try test(element)
            condition = all ? Self.negated(holds) : holds
        }
        let exists = "EXISTS " + rows.select("1", where: condition)
        return all ? "NOT " + exists : exists
    }
}
