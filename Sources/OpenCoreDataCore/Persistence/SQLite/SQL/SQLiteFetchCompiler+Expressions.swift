import GRDB

/// Expressions: constants, `SELF`, variables, key paths, collection operators, `SUBQUERY`, functions and
/// `TERNARY`.
extension SQLiteFetchCompiler {
    /// The functions evaluated in SQL by `SQLiteFunctions.expressionFunction`, with the Query layer's
    /// own arithmetic (so results match in-memory evaluation exactly).
    static let sqlFunctions: Set<String> = [
        "add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:", "sqrt:", "log:", "ln:",
        "raise:toPower:", "exp:", "ceiling:", "abs:", "trunc:", "floor:", "uppercase:", "lowercase:",
        "canonical:", "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:",
        "rightshift:by:", "onesComplement:",
    ]

    /// Compiles an expression evaluated for the rows of `scope`.
    func operand(_ expression: NSExpression, in scope: SQLiteQueryScope) throws -> SQLiteOperand {
        switch expression.storage {
        case .constant(let value):
            return .constant(EvaluationValues.flatten(value))
        case .evaluatedObject:
            return .object(SQLFragment("\(scope.alias).Z_PK"), entity: scope.entity)
        case .variable(let name):
            if scope.parent == nil, let named = resultExpressions[name] { return .scalar(named.sql, category: named.category) }
            let bound = try variableScope(name, in: scope, expression: expression)
            return .object(SQLFragment("\(bound.alias).Z_PK"), entity: bound.entity)
        case .keyPath(let path, let base):
            if scope.parent == nil, case .evaluatedObject = base.storage, let named = resultExpressions[path] {
                return .scalar(named.sql, category: named.category)
            }
            return try keyPathOperand(path, base: base, in: scope, expression: expression)
        case .subquery(let collection, let variable, let predicate):
            guard case .collection(var rows) = try operand(collection, in: scope, binding: variable),
                rows.rest.isEmpty
            else {
                throw Self.unsupported("the collection of \(expression) is not a to-many relationship")
            }
            rows.filter = try predicateSQL(predicate, in: rows.scope)
            return .collection(rows)
        case .function(let name, let arguments):
            return try functionOperand(name, arguments, in: scope, expression: expression)
        case .aggregate(let elements):
            var values: [Any] = []
            for element in elements {
                guard case .constant(let value) = try operand(element, in: scope) else {
                    throw Self.unsupported("the aggregate \(expression) holds a value that is not a constant")
                }
                values.append(value ?? NSNull())
            }
            return .constant(values)
        case .conditional(let test, let whenTrue, let whenFalse):
            return try conditionalOperand(test, whenTrue, whenFalse, in: scope, expression: expression)
        case .method, .unionSet, .intersectSet, .minusSet, .anyKey, .block:
            throw Self.unsupported("the expression \(expression) has no SQL form")
        }
    }

    /// The scope a `$variable` names, or an error for a variable not substituted before the fetch.
    func variableScope(_ name: String, in scope: SQLiteQueryScope, expression: NSExpression) throws -> SQLiteQueryScope {
        guard let bound = scope.scope(ofVariable: name) else {
            throw Self.unsupported("the variable $\(name) in \(expression) has no value; substitute variables before fetching")
        }
        return bound
    }

    /// A key path operand, read from the evaluated object, a subquery variable or a subquery.
    private func keyPathOperand(
        _ path: String, base: NSExpression, in scope: SQLiteQueryScope,
        expression: NSExpression
    ) throws -> SQLiteOperand {
        switch base.storage {
        case .evaluatedObject:
            return try pathOperand(resolve(path, in: scope, alias: scope.alias, entity: scope.entity))
        case .variable(let name):
            let bound = try variableScope(name, in: scope, expression: expression)
            return try pathOperand(resolve(path, in: bound, alias: bound.alias, entity: bound.entity))
        case .function(let name, let arguments) where name == PredicateFormatSubscripts.indexFunction && arguments.count == 2:
            // A key path read from one row of an ordered relationship: `chapters[0].title`.
            let (rows, position) = try subscripted(arguments[0], arguments[1], in: scope, expression: base)
            switch try resolve(path, in: rows.scope, alias: rows.scope.alias, entity: rows.scope.entity) {
            case .attribute(let column, let type):
                return .scalar(try Self.row(rows, at: position, select: column), category: SQLiteValueCategory(attributeType: type))
            case .object(let column, let entity):
                return .object(try Self.row(rows, at: position, select: column), entity: entity)
            case .toMany:
                throw Self.unsupported("\(expression): a to-many relationship of a subscripted object has no SQL form")
            }
        case .subquery:
            guard case .collection(let rows) = try operand(base, in: scope) else {
                throw Self.unsupported("\(expression) is not a collection")
            }
            let components = path.split(separator: ".").map(String.init)
            return try collectionOperand(
                SQLiteCollection(
                    scope: rows.scope, source: rows.source, correlation: rows.correlation, filter: rows.filter,
                    optionalOwner: rows.optionalOwner, rest: components, description: "\(expression)"))
        default:
            throw Self.unsupported("the key path \(expression) is read from a value the store cannot compute")
        }
    }

    /// The ordered to-many relationship and the position a subscript (`objectFrom:withIndex:`, `[0]`,
    /// `[FIRST]`, `[LAST]`) reads: an SQL form exists for a constant integer index into an ordered
    /// to-many relationship, the only collections a store keeps in order.
    private func subscripted(
        _ collection: NSExpression, _ index: NSExpression, in scope: SQLiteQueryScope,
        expression: NSExpression
    ) throws -> (SQLiteCollection, Int64) {
        guard case .collection(let rows) = try operand(collection, in: scope), rows.rest.isEmpty, rows.filter == nil else {
            throw Self.unsupported(
                "the subscript \(expression) has an SQL form only on an ordered to-many relationship (\(collection) is none)")
        }
        guard rows.order != nil else {
            throw Self.unsupported("the subscript \(expression) reads the to-many relationship \(collection), which has no order")
        }
        // Read as in-memory evaluation reads it: an integral number (`1.0` too).
        guard case .constant(let value) = try operand(index, in: scope), let position = NumericValue(value)?.int64Value else {
            throw Self.unsupported("the subscript \(expression) has an SQL form only with a constant integer index")
        }
        return (rows, position)
    }

    /// The `select` of the row at `position` of an ordered collection.
    private static func row(_ rows: SQLiteCollection, at position: Int64, select: String) throws -> SQLFragment {
        guard let sql = rows.select(select, at: position) else {
            throw unsupported("\(rows.description) has no order")
        }
        guard let owner = rows.optionalOwner else { return sql }
        return "(CASE WHEN \(owner) IS NULL THEN NULL ELSE " + sql + " END)"
    }

    /// The operand for `operand(_:in:)` of a `SUBQUERY`'s collection, binding its variable.
    private func operand(_ source: NSExpression, in scope: SQLiteQueryScope, binding variable: String) throws -> SQLiteOperand {
        let resolved: SQLiteResolvedPath
        switch source.storage {
        case .keyPath(let path, let base):
            switch base.storage {
            case .evaluatedObject:
                resolved = try resolve(path, in: scope, alias: scope.alias, entity: scope.entity)
            case .variable(let name):
                let bound = try variableScope(name, in: scope, expression: source)
                resolved = try resolve(path, in: bound, alias: bound.alias, entity: bound.entity)
            default:
                throw Self.unsupported("the collection \(source) of a SUBQUERY is not a relationship")
            }
        default:
            throw Self.unsupported("the collection \(source) of a SUBQUERY is not a relationship")
        }
        guard case .toMany(let path) = resolved, path.rest.isEmpty else {
            throw Self.unsupported("the collection \(source) of a SUBQUERY is not a to-many relationship")
        }
        return .collection(try collection(of: path, binding: variable))
    }

    /// The operand a resolved key path gives.
    func pathOperand(_ resolved: SQLiteResolvedPath) throws -> SQLiteOperand {
        switch resolved {
        case .attribute(let column, let type):
            return .scalar(SQLFragment(column), category: SQLiteValueCategory(attributeType: type))
        case .object(let column, let entity):
            return .object(SQLFragment(column), entity: entity)
        case .toMany(let path):
            return try collectionOperand(collection(of: path, binding: nil))
        }
    }

    /// The destination rows of a to-many relationship as a correlated subquery.
    func collection(of path: SQLiteToManyPath, binding variable: String?) throws -> SQLiteCollection {
        guard let destination = path.relationship.destinationEntity else {
            throw Self.unsupported("the relationship \"\(path.relationship.name)\" has no destination entity")
        }
        let layout = try self.layout(of: destination)
        let rows = path.scope.subscope(entity: destination, layout: layout, binding: variable)
        let optionalOwner = path.ownerAlias == path.scope.alias ? nil : "\(path.ownerAlias).Z_PK"
        switch path.storage {
        case .inverseForeignKey(let table, let column, let orderColumn):
            return SQLiteCollection(
                scope: rows, source: "\(table) \(rows.alias)",
                correlation: "\(rows.alias).\(column) = \(path.ownerAlias).Z_PK",
                filter: nil, optionalOwner: optionalOwner, rest: path.rest,
                description: path.description, order: orderColumn.map { "\(rows.alias).\($0)" })
        case .joinTable(let table, let sourceColumn, let destinationColumn, let orderColumn):
            let link = rows.makeAlias()
            return SQLiteCollection(
                scope: rows,
                source: "\(table) \(link) JOIN \(layout.table) \(rows.alias) ON \(rows.alias).Z_PK = \(link).\(destinationColumn)",
                correlation: "\(link).\(sourceColumn) = \(path.ownerAlias).Z_PK",
                filter: nil, optionalOwner: optionalOwner, rest: path.rest, description: path.description,
                order: orderColumn.map { "\(link).\($0)" })
        case .foreignKey:
            throw Self.unsupported("the relationship \"\(path.relationship.name)\" is not to-many")
        }
    }

    /// A collection operand, reduced to a scalar when its key path applies a collection operator
    /// (`@count`, `@sum.x`, `@avg.x`, `@min.x`, `@max.x`).
    func collectionOperand(_ rows: SQLiteCollection) throws -> SQLiteOperand {
        if let rewritten = Self.operatorOnSelf(rows) { return try collectionOperand(rewritten) }
        guard let first = rows.rest.first, first.hasPrefix("@") else { return .collection(rows) }
        guard case .scalar(let sql, let category) = try aggregateOperand(rows, first) else { return .collection(rows) }
        guard let owner = rows.optionalOwner else { return .scalar(sql, category: category) }
        return .scalar("(CASE WHEN \(owner) IS NULL THEN NULL ELSE " + sql + " END)", category: category)
    }

    /// A statistic of the values a key path reads from each row, written with the operator on `self`
    /// (`trips.nights.@max.self`, what `max()` of a typed predicate gives), as the same statistic written
    /// on the key path (`trips.@max.nights`); `nil` for any other form.
    private static func operatorOnSelf(_ rows: SQLiteCollection) -> SQLiteCollection? {
        let rest = rows.rest
        guard rest.count >= 3, rest.last == "self" || rest.last == "SELF",
            let op = rest.dropLast().last, ["@max", "@min", "@sum", "@avg"].contains(op),
            !rest.dropLast(2).contains(where: { $0.hasPrefix("@") })
        else { return nil }
        var rewritten = SQLiteCollection(
            scope: rows.scope, source: rows.source, correlation: rows.correlation, filter: rows.filter,
            optionalOwner: rows.optionalOwner, rest: [op] + rest.dropLast(2), description: rows.description)
        rewritten.order = rows.order
        return rewritten
    }

    /// The scalar a collection operator computes over a collection.
    private func aggregateOperand(_ rows: SQLiteCollection, _ first: String) throws -> SQLiteOperand {
        let tail = Array(rows.rest.dropFirst())
        if first == "@count" {
            guard tail.isEmpty else { throw Self.unsupported("\(rows.description): nothing may follow @count") }
            return .scalar(rows.select("COUNT(*)"), category: .number)
        }
        let function: String
        switch first {
        case "@sum": function = "SUM"
        case "@avg": function = "AVG"
        case "@min": function = "MIN"
        case "@max": function = "MAX"
        default: throw Self.unsupported("the collection operator \(first) in \(rows.description) has no SQL form")
        }
        guard !tail.isEmpty,
            case .attribute(let column, let type) = try resolve(
                tail.joined(separator: "."), in: rows.scope,
                alias: rows.scope.alias, entity: rows.scope.entity)
        else {
            throw Self.unsupported("\(first) in \(rows.description) must be followed by an attribute of the destination")
        }
        let category = SQLiteValueCategory(attributeType: type)
        switch function {
        case "SUM":
            guard category == .number else { throw Self.unsupported("@sum of a non-numeric attribute in \(rows.description)") }
            return .scalar("COALESCE(" + rows.select("SUM(\(column))") + ", 0)", category: .number)
        case "AVG":
            guard category == .number else { throw Self.unsupported("@avg of a non-numeric attribute in \(rows.description)") }
            return .scalar(rows.select("AVG(\(column))"), category: .number)
        default:
            return .scalar(rows.select("\(function)(\(column))"), category: category)
        }
    }

    /// A function call: arithmetic and string functions run in SQL through the registered
    /// `ocd_function`; `now()` is bound as the current date; statistics of one to-many key path become
    /// aggregate subqueries.
    private func functionOperand(
        _ name: String, _ arguments: [NSExpression], in scope: SQLiteQueryScope,
        expression: NSExpression
    ) throws -> SQLiteOperand {
        if name == "now", arguments.isEmpty { return .constant(Date()) }
        if name == "noindex:", arguments.count == 1 { return try operand(arguments[0], in: scope) }
        if name == PredicateFormatSubscripts.indexFunction, arguments.count == 2 {
            let (rows, position) = try subscripted(arguments[0], arguments[1], in: scope, expression: expression)
            return .object(try Self.row(rows, at: position, select: "\(rows.scope.alias).Z_PK"), entity: rows.scope.entity)
        }
        let statistics = ["sum:": "@sum", "count:": "@count", "min:": "@min", "max:": "@max", "average:": "@avg"]
        if let op = statistics[name], arguments.count == 1,
            case .collection(let rows) = try operand(arguments[0], in: scope)
        {
            let rest = op == "@count" ? [op] : [op] + rows.rest
            guard op == "@count" || !rows.rest.isEmpty else {
                throw Self.unsupported("\(expression) needs the attribute to aggregate")
            }
            let counted = op == "@count" && !rows.rest.isEmpty
            if counted { throw Self.unsupported("\(expression): count: applies to a to-many relationship itself") }
            return try collectionOperand(
                SQLiteCollection(
                    scope: rows.scope, source: rows.source,
                    correlation: rows.correlation, filter: rows.filter,
                    optionalOwner: rows.optionalOwner, rest: rest,
                    description: "\(expression)"))
        }
        guard Self.sqlFunctions.contains(name), ExpressionFunctions.arity(of: name) == arguments.count else {
            throw Self.unsupported("the function \(expression) has no SQL form")
        }
        var parts = [SQLFragment.bound(name.databaseValue)]
        var categories: [SQLiteValueCategory?] = []
        for argument in arguments {
            switch try operand(argument, in: scope) {
            case .scalar(let sql, let category):
                parts.append(sql)
                categories.append(category)
            case .constant(let value):
                guard let value else {
                    parts.append(SQLFragment("NULL"))
                    categories.append(nil)
                    continue
                }
                guard let (category, encoded) = SQLiteValueCategory.encode(value) else {
                    throw Self.unsupported("the argument \(argument) of \(expression) has no SQL form")
                }
                parts.append(.bound(encoded))
                categories.append(category)
            case .object, .collection:
                throw Self.unsupported("the argument \(argument) of \(expression) is not a single value")
            }
        }
        let call = "\(SQLiteFunctions.expressionFunction)(" + SQLFragment.joined(parts, separator: ", ") + ")"
        return .scalar(call, category: Self.resultCategory(of: name, categories))
    }

    /// The kind of value a function gives.
    private static func resultCategory(of name: String, _ arguments: [SQLiteValueCategory?]) -> SQLiteValueCategory? {
        switch name {
        case "uppercase:", "lowercase:", "canonical:": return .string
        case "add:to:":
            return arguments.contains(.date) && arguments.contains(.number) ? .date : .number
        case "from:subtract:":
            if arguments.first == .date { return arguments.last == .date ? .number : .date }
            return .number
        default: return .number
        }
    }
}
