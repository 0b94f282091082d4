import Foundation
import OpenCoreData
import PostgresNIO

/// Predicates and sort descriptors to parameterized PostgreSQL. What it knows: comparisons of attributes
/// (through to-one relationships too) with constants (`==`, `!=`, `<`, `<=`, `>`, `>=`, `BETWEEN`, `IN`),
/// `BEGINSWITH`, `ENDSWITH`, `CONTAINS` and `LIKE` (with `[c]`), comparisons of to-one relationships and
/// of `SELF` with objects and IDs, counts of to-many relationships and of subqueries over them
/// (`posts.@count > 5`, `SUBQUERY(posts, $p, …).@count > 0`), `AND`, `OR`, `NOT`, `TRUEPREDICATE` and
/// `FALSEPREDICATE`. Everything else (`[d]`, `MATCHES`, other to-many key paths, functions) returns nil
/// and is evaluated in memory by the store. Comparisons are two-valued, as Core Data's: a missing value never makes a row
/// vanish from under `NOT`.
struct PostgreSQLPredicateCompiler {
    let schema: PostgreSQLSchema
    let store: NSIncrementalStore
    var binds = PostgresBindings()
    /// The number of table aliases handed out (`t1`, `t2`, …; the fetched table is `t0`).
    var aliases = 0
    /// The variable of the subquery being compiled (`post` in `SUBQUERY(posts, $post, …)`): its key paths
    /// read the subquery's rows. Nil outside subqueries, where key paths read `SELF`'s.
    var variable: String?
    /// The SQL and type of each fetched column of a dictionary fetch, by its key, which a
    /// `havingPredicate` names.
    var resultColumns: [String: (sql: String, type: NSAttributeType)] = [:]

    init(schema: PostgreSQLSchema, store: NSIncrementalStore) {
        self.schema = schema
        self.store = store
    }

    /// The next parameter's placeholder number.
    private var nextIndex: Int { binds.count + 1 }

    /// The SQL condition of a predicate on rows of `entity` aliased `alias`, or nil when it cannot be
    /// compiled.
    mutating func condition(_ predicate: NSPredicate, entity: NSEntityDescription, alias: String = "t0") -> String? {
        if let compound = predicate as? NSCompoundPredicate {
            let saved = binds
            var parts: [String] = []
            for sub in compound.subpredicates {
                guard let sub = sub as? NSPredicate, let part = condition(sub, entity: entity, alias: alias) else {
                    binds = saved
                    return nil
                }
                parts.append("(\(part))")
            }
            switch compound.compoundPredicateType {
            case .not: return parts.isEmpty ? "FALSE" : "NOT \(parts[0])"
            case .and: return parts.isEmpty ? "TRUE" : parts.joined(separator: " AND ")
            case .or: return parts.isEmpty ? "FALSE" : parts.joined(separator: " OR ")
            @unknown default: return nil
            }
        }
        if let comparison = predicate as? NSComparisonPredicate {
            let saved = binds
            let result = compare(comparison, entity: entity, alias: alias)
            if result == nil { binds = saved }
            return result
        }
        if type(of: predicate) == NSPredicate.self {
            switch predicate.predicateFormat {
            case "TRUEPREDICATE": return "TRUE"
            case "FALSEPREDICATE": return "FALSE"
            default: return nil
            }
        }
        return nil
    }

    /// The conjuncts of a predicate that compile, for narrowing a fetch that is finished in memory.
    mutating func compilableConjuncts(_ predicate: NSPredicate, entity: NSEntityDescription) -> String? {
        if let compound = predicate as? NSCompoundPredicate, compound.compoundPredicateType == .and {
            let parts = compound.subpredicates.compactMap { ($0 as? NSPredicate).flatMap { compilableConjuncts($0, entity: entity) } }
            return parts.isEmpty ? nil : parts.map { "(\($0))" }.joined(separator: " AND ")
        }
        return condition(predicate, entity: entity)
    }

    // MARK: Comparisons

    private mutating func compare(_ predicate: NSComparisonPredicate, entity: NSEntityDescription, alias: String) -> String? {
        guard predicate.comparisonPredicateModifier == .direct else { return nil }
        guard !predicate.options.contains(.diacriticInsensitive) else { return nil }
        var op = predicate.predicateOperatorType
        var left = predicate.leftExpression
        var right = predicate.rightExpression
        if left.expressionType == .constantValue, right.expressionType == .keyPath || right.expressionType == .evaluatedObject {
            guard let flipped = Self.flipped(op) else { return nil }
            op = flipped
            swap(&left, &right)
        }
        let constant: Any?
        if right.expressionType == .constantValue {
            constant = right.constantValue
        } else if right.expressionType == .aggregate, let items = right.collection as? [NSExpression],
            items.allSatisfy({ $0.expressionType == .constantValue })
        {
            // A literal list, `{30, 40}` of BETWEEN or IN.
            constant = items.map { $0.constantValue ?? NSNull() }
        } else {
            return nil
        }
        if left.expressionType == .evaluatedObject, variable == nil {
            return compareKey(op, column: "\(alias).\"Z_PK\"", root: schema.roots[entity.name ?? ""], constant)
        }
        if let count = countOfToMany(left, entity: entity, alias: alias) { return compareCount(op, count: count, constant) }
        if left.expressionType == .keyPath, variable == nil, let named = resultColumns[left.keyPath] {
            return compareAttribute(op, options: predicate.options, column: named.sql, type: named.type, constant)
        }
        guard left.expressionType == .keyPath, readsEvaluatedObject(left) else { return nil }
        let path = left.keyPath.split(separator: ".").map(String.init)
        return compare(path: path[...], op: op, options: predicate.options, constant: constant, entity: entity, alias: alias)
    }

    /// A comparison along a key path: to-one steps become `EXISTS` over the destination's table.
    private mutating func compare(
        path: ArraySlice<String>, op: NSComparisonPredicate.Operator, options: NSComparisonPredicate.Options, constant: Any?,
        entity: NSEntityDescription, alias: String
    ) -> String? {
        guard let name = path.first, let columns = schema.columns[entity.name ?? ""] else { return nil }
        if let attribute = entity.attributesByName[name], path.count == 1, let column = columns[name] {
            return compareAttribute(
                op, options: options, column: "\(alias).\(PostgreSQLSchema.quote(column.name))", type: attribute.attributeType, constant)
        }
        guard let relationship = entity.relationshipsByName[name], !relationship.isToMany, let column = columns[name],
            let destination = relationship.destinationEntity
        else { return nil }
        let key = "\(alias).\(PostgreSQLSchema.quote(column.name))"
        if path.count == 1 { return compareKey(op, column: key, root: schema.roots[destination.name ?? ""], constant) }
        aliases += 1
        let inner = "t\(aliases)"
        guard let condition = compare(path: path.dropFirst(), op: op, options: options, constant: constant, entity: destination, alias: inner) else {
            return nil
        }
        return "EXISTS (SELECT 1 FROM \(schema.table(of: destination)) \(inner) WHERE \(inner).\"Z_PK\" = \(key) AND \(condition))"
    }

    /// A comparison of a key column (`Z_PK` or a to-one relationship's) with objects or IDs; an object of
    /// another table than `root`'s never matches.
    private mutating func compareKey(_ op: NSComparisonPredicate.Operator, column: String, root: String?, _ constant: Any?) -> String? {
        switch op {
        case .equalTo, .notEqualTo:
            let negate = op == .notEqualTo
            guard let constant, !(constant is NSNull) else { return negate ? "\(column) IS NOT NULL" : "\(column) IS NULL" }
            guard let found = key(of: constant) else { return nil }
            guard schema.roots[found.entity] == root else { return negate ? "TRUE" : "FALSE" }
            binds.append(found.key)
            return "\(column) IS \(negate ? "" : "NOT ")DISTINCT FROM $\(binds.count)"
        case .in:
            guard let items = Self.elements(constant) else { return nil }
            var placeholders: [String] = []
            for item in items {
                guard let found = key(of: item) else { return nil }
                guard schema.roots[found.entity] == root else { continue }
                binds.append(found.key)
                placeholders.append("$\(binds.count)")
            }
            return placeholders.isEmpty ? "FALSE" : "COALESCE(\(column) IN (\(placeholders.joined(separator: ", "))), FALSE)"
        default:
            return nil
        }
    }

    /// The key and entity name of an object or ID of this store.
    private func key(of value: Any) -> (key: Int64, entity: String)? {
        let id: NSManagedObjectID
        if let object = value as? NSManagedObject {
            id = object.objectID
        } else if let objectID = value as? NSManagedObjectID {
            id = objectID
        } else {
            return nil
        }
        guard !id.isTemporaryID, id.persistentStore === store else { return nil }
        guard let key = (store.referenceObject(for: id) as? NSNumber)?.int64Value else { return nil }
        return (key, id.entity.name ?? "")
    }

    /// A comparison of an attribute column with a constant.
    private mutating func compareAttribute(
        _ op: NSComparisonPredicate.Operator, options: NSComparisonPredicate.Options, column: String,
        type: NSAttributeType, _ constant: Any?
    ) -> String? {
        let folds = options.contains(.caseInsensitive) && type == .stringAttributeType
        let lhs = folds ? "lower(\(column))" : column
        func placeholder(_ value: Any?) -> String? {
            guard (try? PostgreSQLValues.bind(value, as: type, to: &binds)) != nil else { return nil }
            let text = PostgreSQLValues.placeholder(binds.count, as: type)
            return folds ? "lower(\(text))" : text
        }
        switch op {
        case .equalTo, .notEqualTo:
            let negate = op == .notEqualTo
            guard let constant, !(constant is NSNull) else { return negate ? "\(column) IS NOT NULL" : "\(column) IS NULL" }
            guard let value = placeholder(constant) else { return nil }
            return "\(lhs) IS \(negate ? "" : "NOT ")DISTINCT FROM \(value)"
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            guard let constant, !(constant is NSNull), let value = placeholder(constant) else { return nil }
            let sign = [NSComparisonPredicate.Operator.lessThan: "<", .lessThanOrEqualTo: "<=", .greaterThan: ">", .greaterThanOrEqualTo: ">="][op]!
            return "COALESCE(\(lhs) \(sign) \(value), FALSE)"
        case .between:
            guard let bounds = Self.elements(constant), bounds.count == 2, let low = placeholder(bounds[0]), let high = placeholder(bounds[1]) else {
                return nil
            }
            return "COALESCE(\(lhs) BETWEEN \(low) AND \(high), FALSE)"
        case .in:
            guard let items = Self.elements(constant) else { return nil }
            var placeholders: [String] = []
            for item in items {
                guard let value = placeholder(item) else { return nil }
                placeholders.append(value)
            }
            return placeholders.isEmpty ? "FALSE" : "COALESCE(\(lhs) IN (\(placeholders.joined(separator: ", "))), FALSE)"
        case .beginsWith, .endsWith, .contains, .like:
            guard type == .stringAttributeType, let text = constant as? String else { return nil }
            let escaped = Self.escapeLike(text)
            let pattern: String
            switch op {
            case .beginsWith: pattern = escaped + "%"
            case .endsWith: pattern = "%" + escaped
            case .contains: pattern = "%" + escaped + "%"
            default: pattern = Self.likePattern(text)
            }
            binds.append(pattern)
            let operatorName = options.contains(.caseInsensitive) ? "ILIKE" : "LIKE"
            return "COALESCE(\(column) \(operatorName) $\(binds.count) ESCAPE '\\', FALSE)"
        default:
            return nil
        }
    }

    /// The operator that compares the two sides swapped.
    private static func flipped(_ op: NSComparisonPredicate.Operator) -> NSComparisonPredicate.Operator? {
        switch op {
        case .equalTo, .notEqualTo: return op
        case .lessThan: return .greaterThan
        case .lessThanOrEqualTo: return .greaterThanOrEqualTo
        case .greaterThan: return .lessThan
        case .greaterThanOrEqualTo: return .lessThanOrEqualTo
        default: return nil
        }
    }

    /// The elements of a constant collection.
    static func elements(_ value: Any?) -> [Any]? {
        switch value {
        case let array as [Any]: return array
        case let set as Set<AnyHashable>: return Array(set)
        case let set as NSSet: return set.allObjects
        case let set as NSOrderedSet: return set.array
        case let array as NSArray: return array.map { $0 }
        default: return nil
        }
    }

    /// Text matched literally by `LIKE`.
    private static func escapeLike(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out
    }

    /// Core Data's `LIKE` pattern (`*` any run, `?` one character, `\` escapes) as SQL's.
    private static func likePattern(_ text: String) -> String {
        var out = ""
        var escaping = false
        for character in text {
            if escaping {
                out += escapeLike(String(character))
                escaping = false
                continue
            }
            switch character {
            case "\\": escaping = true
            case "*": out.append("%")
            case "?": out.append("_")
            default: out += escapeLike(String(character))
            }
        }
        return out
    }

    // MARK: Sorting

    /// The `ORDER BY` terms of sort descriptors, or nil when one of them sorts in a way PostgreSQL does not
    /// (a comparator, a localized comparison, a key path through relationships).
    func ordering(_ descriptors: [NSSortDescriptor], entity: NSEntityDescription, alias: String = "t0") -> String? {
        var terms: [String] = []
        for descriptor in descriptors {
            guard let key = descriptor.key, let selector = descriptor.selector,
                let attribute = entity.attributesByName[key], let column = schema.columns[entity.name ?? ""]?[key]
            else { return nil }
            var term = "\(alias).\(PostgreSQLSchema.quote(column.name))"
            let isText = attribute.attributeType == .stringAttributeType
            switch selector {
            case "compare:": if isText { term += " COLLATE \"C\"" }
            case "caseInsensitiveCompare:": term = isText ? "lower(\(term)) COLLATE \"C\"" : term
            default: return nil
            }
            terms.append(term + (descriptor.ascending ? " ASC NULLS FIRST" : " DESC NULLS LAST"))
        }
        return terms.joined(separator: ", ")
    }
}
