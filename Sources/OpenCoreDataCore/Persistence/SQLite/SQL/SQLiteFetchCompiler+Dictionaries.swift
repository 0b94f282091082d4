import GRDB

/// Dictionary fetches: `propertiesToFetch` (attributes, to-one relationships, key paths through to-one
/// relationships, expression descriptions with aggregate functions), `propertiesToGroupBy`,
/// `havingPredicate` and `returnsDistinctResults`, all computed by SQLite.
extension SQLiteFetchCompiler {
    /// The aggregate functions of `NSExpression` and their SQL forms.
    static let aggregateFunctions: [String: String] = [
        "sum:": "SUM", "average:": "AVG", "min:": "MIN", "max:": "MAX", "count:": "COUNT",
    ]

    /// The collection operators usable as a whole-result aggregate key path (`@sum.height`).
    static let aggregateOperators: [String: String] = [
        "@sum": "SUM", "@avg": "AVG", "@min": "MIN", "@max": "MAX", "@count": "COUNT",
    ]

    /// One compiled entry of `propertiesToFetch` or `propertiesToGroupBy`.
    struct DictionaryTerm {
        /// The dictionary key.
        let key: String
        /// The selected SQL (one or two columns for an object ID).
        let select: [SQLFragment]
        /// How the value is read.
        let kind: SQLiteDictionaryQuery.Column.Kind
        /// Whether the term aggregates rows (an aggregate function), so that it needs no `GROUP BY` entry.
        let isAggregate: Bool
        /// The kind of value, for comparisons in `HAVING` and sorting.
        let category: SQLiteValueCategory?
    }

    /// Compiles a `.dictionaryResultType` fetch request.
    ///
    /// - Throws: ``NSPersistentStoreUnsupportedRequestTypeError`` naming the property, expression or
    ///   predicate SQLite cannot compute, and for a fetched property that is neither aggregated nor
    ///   named in `propertiesToGroupBy` when the request groups.
    func compileDictionaries<Result>(_ request: NSFetchRequest<Result>) throws -> SQLiteDictionaryQuery {
        let entity = try fetchedEntity(of: request)
        let layout = try self.layout(of: entity)
        let scope = SQLiteQueryScope(
            entity: entity, layout: layout, parent: nil, binding: nil,
            counter: SQLiteQueryScope.AliasCounter())
        let requested: [Any] = request.propertiesToFetch ?? Self.storedAttributes(of: entity)
        guard !requested.isEmpty else { throw Self.unsupported("propertiesToFetch is empty") }
        let terms = try requested.map { try dictionaryTerm($0, entity: entity, in: scope) }
        let groups = try (request.propertiesToGroupBy ?? []).map { try dictionaryTerm($0, entity: entity, in: scope) }
        if !groups.isEmpty {
            let grouped = Set(groups.map(\.key))
            for term in terms where !term.isAggregate && !grouped.contains(term.key) {
                throw Self.unsupported(
                    "the fetched property \"\(term.key)\" is neither an aggregate nor in propertiesToGroupBy; every fetched property of a grouped fetch must be one or the other"
                )
            }
        }

        var conditions: [SQLFragment] = []
        if let restriction = entityRestriction(layout, includesSubentities: request.includesSubentities, alias: scope.alias) {
            conditions.append(restriction)
        }
        if let predicate = request.predicate {
            do {
                conditions.append(try predicateSQL(predicate, in: scope).parenthesized)
            } catch let error as NSError {
                throw Self.unsupported(in: predicate, error)
            }
        }

        // Names of fetched columns stand for their expressions in HAVING and ORDER BY.
        var named = self
        for term in terms + groups where term.select.count == 1 {
            named.resultExpressions[term.key] = (term.select[0], term.category)
        }
        var having: SQLFragment?
        if let predicate = request.havingPredicate {
            guard !groups.isEmpty else { throw Self.unsupported("a havingPredicate needs propertiesToGroupBy") }
            do {
                having = try named.predicateSQL(predicate, in: scope)
            } catch let error as NSError {
                throw Self.unsupported(in: predicate, error)
            }
        }
        var order: [SQLFragment] = []
        for descriptor in request.sortDescriptors ?? [] {
            order.append(try named.orderTerm(descriptor, in: scope))
        }
        let aggregates = terms.contains(where: \.isAggregate)
        if !order.isEmpty, groups.isEmpty, !aggregates, !request.returnsDistinctResults {
            order.append(SQLFragment("\(scope.alias).Z_PK"))
        }

        var selected: [SQLFragment] = []
        var columns: [SQLiteDictionaryQuery.Column] = []
        for term in terms {
            columns.append(SQLiteDictionaryQuery.Column(key: term.key, index: selected.count, kind: term.kind))
            selected += term.select
        }
        let distinct = request.returnsDistinctResults ? "DISTINCT " : ""
        var statement =
            "SELECT \(distinct)" + SQLFragment.joined(selected, separator: ", ")
            + " FROM \(scope.fromClause(table: layout.table))"
        if !conditions.isEmpty {
            statement = statement + " WHERE " + SQLFragment.joined(conditions, separator: " AND ")
        }
        if !groups.isEmpty {
            statement = statement + " GROUP BY " + SQLFragment.joined(groups.flatMap(\.select), separator: ", ")
        }
        if let having {
            statement = statement + " HAVING " + having
        }
        if !order.isEmpty {
            statement = statement + " ORDER BY " + SQLFragment.joined(order, separator: ", ")
        }
        let limit = max(0, request.fetchLimit), offset = max(0, request.fetchOffset)
        if limit > 0 || offset > 0 {
            statement =
                statement + " LIMIT ? OFFSET ?"
                + SQLFragment("", [Int64(limit > 0 ? limit : -1).databaseValue, Int64(offset).databaseValue])
        }
        // The FROM clause is read after every term compiled: joins added by key paths are in it.
        return SQLiteDictionaryQuery(
            sql: statement.sql, arguments: StatementArguments(databaseValues: statement.arguments),
            columns: columns)
    }

    /// The stored attributes of an entity, inherited ones first: what a dictionary fetch without
    /// `propertiesToFetch` returns.
    static func storedAttributes(of entity: NSEntityDescription) -> [NSAttributeDescription] {
        var chain: [NSEntityDescription] = []
        var current: NSEntityDescription? = entity
        while let next = current {
            chain.append(next)
            current = next.superentity
        }
        var seen = Set<String>()
        return chain.reversed().flatMap(\.properties).compactMap { property in
            guard let attribute = property as? NSAttributeDescription, !attribute.isTransient,
                seen.insert(attribute.name).inserted
            else { return nil }
            return attribute
        }
    }

    /// Compiles one entry of `propertiesToFetch` or `propertiesToGroupBy`: a property description, an
    /// expression description, or a key path string.
    func dictionaryTerm(_ property: Any, entity: NSEntityDescription, in scope: SQLiteQueryScope) throws -> DictionaryTerm {
        switch property {
        case let description as NSExpressionDescription:
            guard let expression = description.expression else {
                throw Self.unsupported("the expression description \"\(description.name)\" has no expression")
            }
            let (sql, category, isAggregate) = try selectExpression(expression, in: scope)
            return DictionaryTerm(
                key: description.name, select: [sql],
                kind: .expression(description.expressionResultType),
                isAggregate: isAggregate, category: category)
        case let description as NSPropertyDescription:
            return try keyPathTerm(description.name, entity: entity, in: scope)
        case let path as String:
            return try keyPathTerm(path, entity: entity, in: scope)
        case let expression as NSExpression:
            if case .keyPath(let path, let base) = expression.storage, case .evaluatedObject = base.storage {
                return try keyPathTerm(path, entity: entity, in: scope)
            }
            throw Self.unsupported("the expression \(expression) in a property list needs an NSExpressionDescription to name it")
        default:
            throw Self.unsupported("\(property) is not a property name, key path or property description")
        }
    }

    /// A fetched attribute, to-one relationship (its destination's object ID) or key path through to-one
    /// relationships.
    private func keyPathTerm(_ path: String, entity: NSEntityDescription, in scope: SQLiteQueryScope) throws -> DictionaryTerm {
        if path.hasPrefix("@") {
            let (sql, category, _) = try selectExpression(NSExpression(forKeyPath: path), in: scope)
            return DictionaryTerm(
                key: path, select: [sql], kind: .expression(.undefinedAttributeType),
                isAggregate: true, category: category)
        }
        switch try resolve(path, in: scope, alias: scope.alias, entity: entity) {
        case .attribute(let column, let type):
            guard let attribute = attribute(at: path, from: entity) else {
                throw Self.unsupported("\"\(path)\" names no attribute of entity \"\(entity.name ?? "")\"")
            }
            return DictionaryTerm(
                key: path, select: [SQLFragment(column)], kind: .attribute(attribute),
                isAggregate: false, category: SQLiteValueCategory(attributeType: type))
        case .object(let keyColumn, let destination):
            var select = [SQLFragment(keyColumn)]
            if let entityColumn = try entityColumn(at: path, from: entity, keyColumn: keyColumn) {
                select.append(SQLFragment(entityColumn))
            }
            return DictionaryTerm(
                key: path, select: select,
                kind: .objectID(destination: destination, hasEntityColumn: select.count == 2),
                isAggregate: false, category: nil)
        case .toMany:
            throw Self.unsupported(
                "\"\(path)\" crosses a to-many relationship; fetch it with an NSExpressionDescription (for example \(path).@count)")
        }
    }

    /// The attribute a key path through to-one relationships ends at (a composite element by dotted path).
    private func attribute(at path: String, from entity: NSEntityDescription) -> NSAttributeDescription? {
        var current = entity
        var components = path.split(separator: ".").map(String.init)
        while let first = components.first, first == "self" || first == "SELF" { components.removeFirst() }
        for (index, key) in components.enumerated() {
            if let attribute = current.attributesByName[key] {
                var element: NSAttributeDescription = attribute
                for name in components[(index + 1)...] {
                    guard let composite = element as? NSCompositeAttributeDescription,
                        let next = composite.elements.first(where: { $0.name == name })
                    else { return nil }
                    element = next
                }
                return element
            }
            guard let destination = current.relationshipsByName[key]?.destinationEntity else { return nil }
            current = destination
        }
        return nil
    }

    /// The `Z_ENT` column of a to-one destination whose entity has subentities, qualified like
    /// `keyColumn`; `nil` when the relationship keeps none.
    private func entityColumn(at path: String, from entity: NSEntityDescription, keyColumn: String) throws -> String? {
        var components = path.split(separator: ".").map(String.init)
        while let first = components.first, first == "self" || first == "SELF" { components.removeFirst() }
        guard let last = components.last else { return nil }
        var owner = entity
        for key in components.dropLast() {
            guard let destination = owner.relationshipsByName[key]?.destinationEntity else { return nil }
            owner = destination
        }
        guard case .foreignKey(_, let column?, _)? = try layout(of: owner).relationships[last],
            let dot = keyColumn.firstIndex(of: ".")
        else { return nil }
        return String(keyColumn[..<dot]) + "." + column
    }

    /// Compiles the expression of an expression description: an aggregate function over the fetched
    /// rows (`sum:`, `average:`, `min:`, `max:`, `count:` of a scalar, or `@sum.x`-style key paths), or a
    /// per-row value (`posts.@count`, arithmetic, a key path).
    func selectExpression(_ expression: NSExpression, in scope: SQLiteQueryScope)
        throws -> (sql: SQLFragment, category: SQLiteValueCategory?, isAggregate: Bool)
    {
        switch expression.storage {
        case .function(let name, let arguments):
            if let function = Self.aggregateFunctions[name], arguments.count == 1 {
                let argument = try operand(arguments[0], in: scope)
                switch argument {
                case .scalar(let sql, let category):
                    return (aggregate(function, sql, category), function == "COUNT" || function == "AVG" ? .number : category, true)
                case .object(let sql, _) where function == "COUNT":
                    return ("COUNT(" + sql + ")", .number, true)
                case .collection:
                    // An aggregate over a to-many relationship, `count:(employees)` or
                    // `sum:(employees.salary)`: the group's total of each row's own aggregate.
                    if let perRow = Self.perRowAggregate(function, arguments[0]),
                        case .scalar(let sql, let category) = try operand(perRow, in: scope)
                    {
                        let outer = function == "COUNT" ? "SUM" : function
                        return (aggregate(outer, sql, category), function == "COUNT" ? .number : category, true)
                    }
                default:
                    break
                }
            }
        case .keyPath(let path, let base):
            if case .evaluatedObject = base.storage, let first = path.split(separator: ".").first,
                let function = Self.aggregateOperators[String(first)]
            {
                let rest = path.split(separator: ".").dropFirst().joined(separator: ".")
                if function == "COUNT", rest.isEmpty { return (SQLFragment("COUNT(*)"), .number, true) }
                guard !rest.isEmpty, case .scalar(let sql, let category) = try operand(NSExpression(forKeyPath: rest), in: scope) else {
                    throw Self.unsupported("\(path) must name an attribute after \(first)")
                }
                return (aggregate(function, sql, category), function == "COUNT" || function == "AVG" ? .number : category, true)
            }
        default:
            break
        }
        switch try operand(expression, in: scope) {
        case .scalar(let sql, let category):
            return (sql, category, false)
        case .object(let sql, _):
            return (sql, .number, false)
        case .constant(let value):
            guard let value else { return (SQLFragment("NULL"), nil, false) }
            guard let (category, encoded) = SQLiteValueCategory.encode(value) else {
                throw Self.unsupported("the constant in \(expression) has no SQL form")
            }
            return (.bound(encoded), category, false)
        case .collection:
            throw Self.unsupported("\(expression) is a collection; fetch an aggregate of it (@count, @sum…)")
        }
    }

    /// The per-row expression whose group aggregate is `function` over a to-many key path:
    /// `employees` → `employees.@count`; `employees.salary` → `employees.@sum.salary` (and `@min`,
    /// `@max`). Averages have none (an average of averages is not the average).
    static func perRowAggregate(_ function: String, _ argument: NSExpression) -> NSExpression? {
        guard case .keyPath(let path, let base) = argument.storage, case .evaluatedObject = base.storage else { return nil }
        let components = path.split(separator: ".").map(String.init)
        guard let first = components.first else { return nil }
        let rest = components.dropFirst().joined(separator: ".")
        switch function {
        case "COUNT": return NSExpression(forKeyPath: path + ".@count")
        case "SUM", "MIN", "MAX":
            guard !rest.isEmpty else { return nil }
            let name = ["SUM": "@sum", "MIN": "@min", "MAX": "@max"][function] ?? "@sum"
            return NSExpression(forKeyPath: first + "." + name + "." + rest)
        default: return nil
        }
    }

    /// `FUNCTION(sql)`; a sum of no rows is 0, as in Core Data.
    private func aggregate(_ function: String, _ sql: SQLFragment, _ category: SQLiteValueCategory?) -> SQLFragment {
        if function == "SUM" { return "COALESCE(SUM(" + sql + "), 0)" }
        return "\(function)(" + sql + ")"
    }
}
