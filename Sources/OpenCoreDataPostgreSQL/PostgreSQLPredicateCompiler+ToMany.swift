import Foundation
import OpenCoreData
import PostgresNIO

/// Counts of to-many relationships in predicates: `posts.@count > 5` and
/// `SUBQUERY(posts, $post, $post.publishedAt != nil).@count > 0` become a correlated
/// `(SELECT count(*) …)` over the destination's table (or the join table of a many-to-many relationship),
/// the subquery's predicate compiled on the destination's rows with its variable standing for them.
extension PostgreSQLPredicateCompiler {
    /// Whether a key path expression reads the object being evaluated: `SELF`'s key path at the top, the
    /// subquery variable's inside a subquery.
    func readsEvaluatedObject(_ expression: NSExpression) -> Bool {
        let operand = expression.operand
        switch operand.expressionType {
        case .evaluatedObject: return variable == nil
        case .variable: return variable != nil && operand.variable == variable
        default: return false
        }
    }

    /// The SQL counting the destinations a `….@count` key path names, on rows of `entity` aliased
    /// `alias`; nil when the expression is no such count or cannot be compiled.
    mutating func countOfToMany(_ expression: NSExpression, entity: NSEntityDescription, alias: String) -> String? {
        guard expression.expressionType == .keyPath else { return nil }
        let path = expression.keyPath
        if path == "@count", expression.operand.expressionType == .subquery {
            let subquery = expression.operand
            guard let collection = subquery.collection as? NSExpression, collection.expressionType == .keyPath,
                readsEvaluatedObject(collection), !collection.keyPath.contains(".")
            else { return nil }
            return count(
                relationship: collection.keyPath, of: entity, alias: alias,
                filter: (variable: subquery.variable, predicate: subquery.predicate))
        }
        guard path.hasSuffix(".@count"), readsEvaluatedObject(expression) else { return nil }
        let name = String(path.dropLast(".@count".count))
        guard !name.contains(".") else { return nil }
        return count(relationship: name, of: entity, alias: alias, filter: nil)
    }

    /// `(SELECT count(*) …)` of a to-many relationship's destinations, those matching `filter` only when
    /// it is given.
    private mutating func count(
        relationship name: String, of entity: NSEntityDescription, alias: String,
        filter: (variable: String, predicate: NSPredicate)?
    ) -> String? {
        guard let relationship = entity.relationshipsByName[name], relationship.isToMany,
            let destination = relationship.destinationEntity
        else { return nil }
        aliases += 1
        let inner = "t\(aliases)"
        var from: String
        var conditions: [String]
        if let join = schema.joinTable(name, of: entity) {
            aliases += 1
            let link = "t\(aliases)"
            from =
                "\(schema.qualified(join.name)) \(link) JOIN \(schema.table(of: destination)) \(inner) ON \(inner).\"Z_PK\" = \(link).\(PostgreSQLSchema.quote(join.destinationColumn))"
            conditions = ["\(link).\(PostgreSQLSchema.quote(join.sourceColumn)) = \(alias).\"Z_PK\""]
        } else if let inverse = relationship.inverseRelationship, !inverse.isToMany,
            let column = schema.columns[inverse.entity.name ?? ""]?[inverse.name]
        {
            from = "\(schema.table(of: destination)) \(inner)"
            conditions = ["\(inner).\(PostgreSQLSchema.quote(column.name)) = \(alias).\"Z_PK\""]
        } else {
            return nil
        }
        if let filter {
            let outer = variable
            variable = filter.variable
            defer { variable = outer }
            guard let condition = condition(filter.predicate, entity: destination, alias: inner) else { return nil }
            conditions.append("(\(condition))")
        }
        return "(SELECT count(*) FROM \(from) WHERE \(conditions.joined(separator: " AND ")))"
    }

    /// A comparison of a count with a constant number.
    mutating func compareCount(_ op: NSComparisonPredicate.Operator, count: String, _ constant: Any?) -> String? {
        func bound(_ value: Any?) -> String? {
            guard let value, !(value is Bool), let double = PostgreSQLValues.double(value) else { return nil }
            if double == double.rounded(), abs(double) < 9e18 {
                binds.append(Int64(double))
                return "$\(binds.count)"
            }
            binds.append(double)
            return "$\(binds.count)::double precision"
        }
        let signs: [NSComparisonPredicate.Operator: String] = [
            .equalTo: "=", .notEqualTo: "<>", .lessThan: "<", .lessThanOrEqualTo: "<=", .greaterThan: ">", .greaterThanOrEqualTo: ">=",
        ]
        if let sign = signs[op] {
            guard let value = bound(constant) else { return nil }
            return "\(count) \(sign) \(value)"
        }
        if op == .between, let bounds = Self.elements(constant), bounds.count == 2, let low = bound(bounds[0]), let high = bound(bounds[1]) {
            return "\(count) BETWEEN \(low) AND \(high)"
        }
        return nil
    }
}
