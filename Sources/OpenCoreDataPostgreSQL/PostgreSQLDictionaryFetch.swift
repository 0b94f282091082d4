import Foundation
import OpenCoreData
import PostgresNIO

/// A `.dictionaryResultType` fetch compiled to one statement: `propertiesToFetch` (attributes, to-one
/// relationships, key paths through to-one relationships, and in expression descriptions key paths,
/// `posts.@count` and the aggregate functions `count:`, `sum:`, `average:`, `min:` and `max:`),
/// `propertiesToGroupBy`, `havingPredicate`, sort descriptors, `returnsDistinctResults`, offset and limit.
/// Values come back as the SQLite store gives them: each expression's value converted to its
/// description's `expressionResultType`, nil values left out.
struct PostgreSQLDictionaryFetch {
    let store: PostgreSQLStore
    let open: PostgreSQLStore.Open
    let request: NSFetchRequest<NSFetchRequestResult>
    let entity: NSEntityDescription
    let joins = Joins()

    /// The aggregate functions of `NSExpression` and their PostgreSQL forms.
    static let aggregateFunctions: [String: String] = [
        "count:": "count", "sum:": "sum", "average:": "avg", "min:": "min", "max:": "max",
    ]

    /// Whether the request needs the server to compute its dictionaries: it aggregates or groups.
    static func computes(_ request: NSFetchRequest<NSFetchRequestResult>) -> Bool {
        if request.propertiesToGroupBy?.isEmpty == false || request.havingPredicate != nil { return true }
        return (request.propertiesToFetch ?? []).contains { $0 is NSExpressionDescription }
    }

    /// Runs the statement and returns one dictionary per result row.
    func run(compiler: inout PostgreSQLPredicateCompiler, conditions: [String]) throws -> [[String: Any]] {
        let table = open.schema.table(of: entity)
        let requested = request.propertiesToFetch ?? storedAttributes()
        guard !requested.isEmpty else { throw Self.unsupported("propertiesToFetch is empty") }
        let terms = try requested.map { try term($0) }
        let groups = try (request.propertiesToGroupBy ?? []).map { try term($0) }
        if !groups.isEmpty {
            let grouped = Set(groups.map(\.key))
            for term in terms where !term.isAggregate && !grouped.contains(term.key) {
                throw Self.unsupported(
                    "the fetched property \"\(term.key)\" is neither an aggregate nor in propertiesToGroupBy; every fetched property of a grouped fetch must be one or the other"
                )
            }
        }
        // Names of fetched columns stand for their expressions in HAVING and ORDER BY.
        for term in terms + groups where term.select.count == 1 {
            compiler.resultColumns[term.key] = (term.comparable, term.comparedAs)
        }
        var having = ""
        if let predicate = request.havingPredicate {
            guard !groups.isEmpty else { throw Self.unsupported("a havingPredicate needs propertiesToGroupBy") }
            guard let condition = compiler.condition(predicate, entity: entity) else {
                throw Self.unsupported("the havingPredicate \(predicate.predicateFormat) cannot be computed by PostgreSQL")
            }
            having = " HAVING \(condition)"
        }
        compiler.resultColumns = [:]
        var order: [String] = []
        for descriptor in request.sortDescriptors ?? [] {
            order.append(try orderTerm(descriptor, terms: terms + groups))
        }
        let aggregates = terms.contains(where: \.isAggregate)
        if groups.isEmpty, !aggregates, !request.returnsDistinctResults {
            order.append("t0.\"Z_PK\"")
        } else if order.isEmpty, !groups.isEmpty {
            // As SQLite gives groups: in the order of their keys.
            order = groups.flatMap { group in group.select.map { "\($0)\(group.isText ? " COLLATE \"C\"" : "") ASC NULLS FIRST" } }
        }
        var sql = "SELECT \(request.returnsDistinctResults ? "DISTINCT " : "")\(terms.flatMap(\.select).joined(separator: ", ")) FROM \(table) t0"
        // Read after every term compiled: key paths add the joins.
        for join in joins.clauses { sql += " " + join }
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        if !groups.isEmpty { sql += " GROUP BY " + groups.flatMap(\.select).joined(separator: ", ") }
        sql += having
        if !order.isEmpty { sql += " ORDER BY " + order.joined(separator: ", ") }
        if request.fetchLimit > 0 { sql += " LIMIT \(request.fetchLimit)" }
        if request.fetchOffset > 0 { sql += " OFFSET \(request.fetchOffset)" }

        let start = Date()
        let result = try open.connection.run(sql, compiler.binds)
        open.connection.debugLog?.post(
            .annotation,
            "CoreData: annotation: total fetch execution time: \(SQLDebugLog.postgreSQLSeconds(Date().timeIntervalSince(start))) for \(result.rows.count) rows."
        )
        return try result.rows.map { row in
            let cells = Array(row)
            var dictionary: [String: Any] = [:]
            var index = 0
            for term in terms {
                if let value = try term.value(cells[index..<(index + term.select.count)], store: store, open: open) { dictionary[term.key] = value }
                index += term.select.count
            }
            return dictionary
        }
    }

    // MARK: Terms

    /// One entry of `propertiesToFetch` or `propertiesToGroupBy`, compiled.
    struct Term {
        /// How a result column becomes a dictionary value.
        enum Kind {
            /// An attribute's column, read as the attribute.
            case attribute(NSAttributeType)
            /// A to-one relationship's key column, and its entity column when it has one.
            case objectID(NSEntityDescription)
            /// A computed value of the kind `raw`, converted to the description's result type.
            case expression(result: NSAttributeType, raw: PostgreSQLComputedValue.Kind)
        }

        let key: String
        let select: [String]
        let kind: Kind
        let isAggregate: Bool
        /// The attribute type constants are compared with in `HAVING`.
        let comparedAs: NSAttributeType
        /// Whether the value is text (sorted in code-point order).
        var isText: Bool { comparedAs == .stringAttributeType }
        /// The SQL that compares and sorts as the value does: a decimal, selected as text, as a number.
        var comparable: String { comparedAs == .decimalAttributeType ? "(\(select[0]))::numeric" : select[0] }

        func value(_ cells: ArraySlice<PostgresCell>, store: PostgreSQLStore, open: PostgreSQLStore.Open) throws -> Any? {
            let cell = cells[cells.startIndex]
            switch kind {
            case .attribute(let type):
                return try PostgreSQLValues.value(of: cell, as: type)
            case .objectID(let destination):
                guard let key = try cell.decode(Int64?.self) else { return nil }
                var target = destination
                if cells.count > 1, let number = try cells[cells.startIndex + 1].decode(Int32?.self),
                    let name = open.schema.entityNames[Int(number)], let named = open.model.entitiesByName[name]
                {
                    target = named
                }
                return store.newObjectID(for: target, referenceObject: NSNumber(value: key))
            case .expression(let result, let raw):
                return try PostgreSQLComputedValue.read(cell, as: raw).flatMap { $0.converted(to: result) }
            }
        }
    }

    /// The stored attributes of the entity, inherited ones first: what a dictionary fetch without
    /// `propertiesToFetch` returns.
    private func storedAttributes() -> [Any] {
        var chain: [NSEntityDescription] = []
        var current: NSEntityDescription? = entity
        while let next = current {
            chain.append(next)
            current = next.superentity
        }
        var seen = Set<String>()
        return chain.reversed().flatMap(\.properties).compactMap { property -> Any? in
            guard let attribute = property as? NSAttributeDescription, !attribute.isTransient, seen.insert(attribute.name).inserted else {
                return nil
            }
            return attribute
        }
    }

    private func term(_ property: Any) throws -> Term {
        switch property {
        case let description as NSExpressionDescription:
            guard let expression = description.expression else {
                throw Self.unsupported("the expression description \"\(description.name)\" has no expression")
            }
            return try expressionTerm(expression, key: description.name, resultType: description.expressionResultType)
        case let description as NSPropertyDescription:
            return try keyPathTerm(description.name)
        case let path as String:
            return try keyPathTerm(path)
        default:
            throw Self.unsupported("\(property) is not a property name, key path or property description")
        }
    }

    /// The `LEFT JOIN`s of the to-one relationships key paths go through, one per path prefix, so that an
    /// object without a destination still gives a dictionary (without the key's value).
    // Not Sendable: made and used by one fetch, on its calling thread.
    final class Joins {
        var clauses: [String] = []
        var aliases: [String: String] = [:]
    }

    /// A fetched attribute or to-one relationship of the entity, or a key path through to-one
    /// relationships to one (`owner.name`).
    private func keyPathTerm(_ path: String) throws -> Term {
        var components = path.split(separator: ".").map(String.init)
        while components.count > 1, components[0] == "self" || components[0] == "SELF" { components.removeFirst() }
        guard let last = components.last else { throw Self.unsupported("an empty key path") }
        var owner = entity
        var alias = "t0"
        var prefix = ""
        for step in components.dropLast() {
            guard let relationship = owner.relationshipsByName[step], let destination = relationship.destinationEntity,
                let column = open.schema.columns[owner.name ?? ""]?[step]
            else {
                if owner.relationshipsByName[step]?.isToMany == true {
                    throw Self.unsupported("\"\(path)\" crosses the to-many relationship \"\(step)\"; fetch an aggregate of it instead")
                }
                throw Self.unsupported("\"\(path)\" names no to-one relationship \"\(step)\" of entity \"\(owner.name ?? "")\"")
            }
            prefix += (prefix.isEmpty ? "" : ".") + step
            if let joined = joins.aliases[prefix] {
                alias = joined
            } else {
                let next = "j\(joins.aliases.count + 1)"
                joins.clauses.append(
                    "LEFT JOIN \(open.schema.table(of: destination)) \(next) ON \(next).\"Z_PK\" = \(alias).\(PostgreSQLSchema.quote(column.name))")
                joins.aliases[prefix] = next
                alias = next
            }
            owner = destination
        }
        let columns = open.schema.columns[owner.name ?? ""] ?? [:]
        if let attribute = owner.attributesByName[last], let column = columns[last] {
            return Term(
                key: path, select: [PostgreSQLValues.selection("\(alias).\(PostgreSQLSchema.quote(column.name))", as: attribute.attributeType)],
                kind: .attribute(attribute.attributeType), isAggregate: false, comparedAs: attribute.attributeType)
        }
        if let relationship = owner.relationshipsByName[last], !relationship.isToMany, let column = columns[last],
            let destination = relationship.destinationEntity
        {
            var select = ["\(alias).\(PostgreSQLSchema.quote(column.name))"]
            if let entityColumn = columns[last + "#entity"] { select.append("\(alias).\(PostgreSQLSchema.quote(entityColumn.name))") }
            return Term(key: path, select: select, kind: .objectID(destination), isAggregate: false, comparedAs: .integer64AttributeType)
        }
        if owner.relationshipsByName[last]?.isToMany == true {
            throw Self.unsupported("\"\(path)\" is a to-many relationship; fetch it with an NSExpressionDescription (for example count:(\(path)))")
        }
        throw Self.unsupported("\"\(path)\" names no attribute or to-one relationship of entity \"\(owner.name ?? "")\"")
    }

    /// An expression description's expression: an aggregate function of an attribute, a key path or a
    /// to-many relationship, a key path, or a to-many count.
    private func expressionTerm(_ expression: NSExpression, key: String, resultType: NSAttributeType) throws -> Term {
        if expression.expressionType == .function, let function = Self.aggregateFunctions[expression.function] {
            guard let arguments = expression.arguments, arguments.count == 1 else {
                throw Self.unsupported("\(expression.function) takes one argument")
            }
            let argument = arguments[0]
            if function == "count", argument.expressionType == .evaluatedObject {
                return Term(
                    key: key, select: ["count(*)"], kind: .expression(result: resultType, raw: .integer), isAggregate: true,
                    comparedAs: .integer64AttributeType)
            }
            if function == "count", argument.expressionType == .keyPath, argument.operand.expressionType == .evaluatedObject,
                let perRow = toManyCount(argument.keyPath + ".@count")
            {
                // count:(posts): the group's total of each row's count, as SQLite computes it.
                return Term(
                    key: key, select: ["COALESCE(sum(\(perRow)), 0)::bigint"], kind: .expression(result: resultType, raw: .integer),
                    isAggregate: true, comparedAs: .integer64AttributeType)
            }
            guard argument.expressionType == .keyPath, argument.operand.expressionType == .evaluatedObject else {
                throw Self.unsupported("the argument of \(expression.function) in \"\(key)\" must be a key path of the fetched entity")
            }
            let column = try keyPathTerm(argument.keyPath)
            guard case .attribute(let type) = column.kind else {
                guard function == "count" else { throw Self.unsupported("\(expression.function) of \"\(argument.keyPath)\" needs an attribute") }
                return Term(
                    key: key, select: ["count(\(column.select[0]))"], kind: .expression(result: resultType, raw: .integer),
                    isAggregate: true, comparedAs: .integer64AttributeType)
            }
            let sql = column.select[0]
            let numeric: Set<NSAttributeType> = [
                .integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .doubleAttributeType, .floatAttributeType,
                .decimalAttributeType, .dateAttributeType,
            ]
            let integral: Set<NSAttributeType> = [.integer16AttributeType, .integer32AttributeType, .integer64AttributeType, .booleanAttributeType]
            switch function {
            case "count":
                return Term(
                    key: key, select: ["count(\(sql))"], kind: .expression(result: resultType, raw: .integer), isAggregate: true,
                    comparedAs: .integer64AttributeType)
            case "sum":
                guard numeric.contains(type) || type == .booleanAttributeType else {
                    throw Self.unsupported("sum: of \"\(argument.keyPath)\" needs a number attribute")
                }
                let summed = type == .booleanAttributeType ? "\(sql)::integer" : (type == .decimalAttributeType ? "(\(sql))::numeric" : sql)
                if integral.contains(type) {
                    return Term(
                        key: key, select: ["COALESCE(sum(\(summed)), 0)::bigint"], kind: .expression(result: resultType, raw: .integer),
                        isAggregate: true, comparedAs: .integer64AttributeType)
                }
                if type == .decimalAttributeType {
                    return Term(
                        key: key, select: ["COALESCE(sum(\(summed)), 0)::text"], kind: .expression(result: resultType, raw: .decimalText),
                        isAggregate: true, comparedAs: .decimalAttributeType)
                }
                return Term(
                    key: key, select: ["COALESCE(sum(\(summed)), 0)::double precision"], kind: .expression(result: resultType, raw: .double),
                    isAggregate: true, comparedAs: .doubleAttributeType)
            case "avg":
                guard numeric.contains(type) || type == .booleanAttributeType else {
                    throw Self.unsupported("average: of \"\(argument.keyPath)\" needs a number attribute")
                }
                let averaged = type == .booleanAttributeType ? "\(sql)::integer" : (type == .decimalAttributeType ? "(\(sql))::numeric" : sql)
                return Term(
                    key: key, select: ["avg(\(averaged))::double precision"], kind: .expression(result: resultType, raw: .double),
                    isAggregate: true, comparedAs: .doubleAttributeType)
            default:
                // min and max keep the attribute's type; PostgreSQL's Booleans have bool_and and bool_or.
                switch type {
                case .booleanAttributeType:
                    let name = function == "min" ? "bool_and" : "bool_or"
                    return Term(
                        key: key, select: ["\(name)(\(sql))::integer"], kind: .expression(result: resultType, raw: .integer),
                        isAggregate: true, comparedAs: .integer64AttributeType)
                case .binaryDataAttributeType, .UUIDAttributeType, .URIAttributeType:
                    throw Self.unsupported("\(expression.function) of \"\(argument.keyPath)\" needs a number, date or string attribute")
                default:
                    // Text compares in code-point order, as SQLite's.
                    let raw = PostgreSQLComputedValue.Kind(attributeType: type)
                    let inner = type == .decimalAttributeType ? "(\(sql))::numeric" : (type == .stringAttributeType ? "\(sql) COLLATE \"C\"" : sql)
                    return Term(
                        key: key, select: ["\(function)(\(inner))\(raw.cast)"], kind: .expression(result: resultType, raw: raw),
                        isAggregate: true, comparedAs: type)
                }
            }
        }
        if expression.expressionType == .keyPath, expression.operand.expressionType == .evaluatedObject {
            if let count = toManyCount(expression.keyPath) {
                return Term(
                    key: key, select: [count], kind: .expression(result: resultType, raw: .integer), isAggregate: false,
                    comparedAs: .integer64AttributeType)
            }
            let column = try keyPathTerm(expression.keyPath)
            guard case .attribute(let type) = column.kind else { return column.renamed(key) }
            guard type != .binaryDataAttributeType, type != .UUIDAttributeType else { return column.renamed(key) }
            let raw = PostgreSQLComputedValue.Kind(attributeType: type)
            let cast = type == .booleanAttributeType ? "::integer\(raw.cast)" : raw.cast
            let sql = type == .decimalAttributeType ? column.select[0] : "(\(column.select[0]))\(cast)"
            return Term(key: key, select: [sql], kind: .expression(result: resultType, raw: raw), isAggregate: false, comparedAs: type)
        }
        throw Self.unsupported("the expression \(expression) of \"\(key)\" is not built yet (aggregates of attributes and key paths are)")
    }

    /// The correlated `(SELECT count(*) …)` of a `posts.@count` key path on each fetched row; nil for
    /// another key path.
    private func toManyCount(_ path: String) -> String? {
        guard path.hasSuffix(".@count") else { return nil }
        // Without a subquery's predicate, a count binds no parameter: a compiler of its own is enough.
        var counter = PostgreSQLPredicateCompiler(schema: open.schema, store: store)
        return counter.countOfToMany(NSExpression(forKeyPath: path), entity: entity, alias: "t0")
    }

    /// An `ORDER BY` term: a fetched column's name, or an attribute of the entity.
    private func orderTerm(_ descriptor: NSSortDescriptor, terms: [Term]) throws -> String {
        guard let key = descriptor.key else { throw Self.unsupported("a sort descriptor without a key") }
        var sql: String
        var isText: Bool
        if let term = terms.first(where: { $0.key == key }), term.select.count == 1 {
            sql = term.comparable
            isText = term.isText
        } else if let attribute = entity.attributesByName[key], let column = open.schema.columns[entity.name ?? ""]?[key] {
            sql = "t0.\(PostgreSQLSchema.quote(column.name))"
            isText = attribute.attributeType == .stringAttributeType
        } else {
            throw Self.unsupported("the sort key \"\(key)\" is neither a fetched property nor an attribute")
        }
        switch descriptor.selector {
        case nil, "compare:": if isText { sql += " COLLATE \"C\"" }
        case "caseInsensitiveCompare:": if isText { sql = "lower(\(sql)) COLLATE \"C\"" }
        default: throw Self.unsupported("dictionary results sort with compare: and caseInsensitiveCompare: only")
        }
        return sql + (descriptor.ascending ? " ASC NULLS FIRST" : " DESC NULLS LAST")
    }

    static func unsupported(_ message: String) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError,
            userInfo: [
                NSLocalizedDescriptionKey: "The PostgreSQL store cannot run this fetch request: \(message).",
                NSLocalizedFailureReasonErrorKey: message,
            ])
    }
}

extension PostgreSQLDictionaryFetch.Term {
    /// The same term under another dictionary key.
    func renamed(_ key: String) -> Self {
        Self(key: key, select: select, kind: kind, isAggregate: isAggregate, comparedAs: comparedAs)
    }
}
