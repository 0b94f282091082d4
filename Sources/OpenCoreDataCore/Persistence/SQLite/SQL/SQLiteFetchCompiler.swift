import GRDB

/// Compiles fetch requests into SQL against the layout of one store: the entity (and subentities),
/// the predicate, the sort descriptors, the limit and the offset become one parameterized statement.
struct SQLiteFetchCompiler: Sendable {
    /// What a compiled statement selects.
    enum Selection: Sendable {
        /// Every stored column of the matching rows (see ``SQLiteCompiledQuery/columns``).
        case rows
        /// `Z_PK` and `Z_ENT` of the matching rows.
        case objectIDs
        /// The number of matching rows (limit and offset applied).
        case count
    }

    /// The store's layout.
    let schema: SQLiteSchema
    /// The model the layout was computed from.
    let model: NSManagedObjectModel
    /// The identifier (UUID) of the store the statements run against, when known: an object constant
    /// whose ID belongs to another store then matches no row, whatever its primary key.
    let storeIdentifier: String?
    /// The result columns of a dictionary fetch by name (expression description names and fetched key
    /// paths): in its `HAVING` clause and sort descriptors, a key path or `$variable` with one of these
    /// names stands for the column's expression.
    var resultExpressions: [String: (sql: SQLFragment, category: SQLiteValueCategory?)] = [:]
    /// The columns of `.rows` fetches, by fetched entity, worked out once for this layout.
    let rowSelections = SQLiteRowSelections()

    /// Creates a compiler for a store laid out as `schema` for `model`; pass the store's identifier so
    /// that objects of other stores never match.
    init(schema: SQLiteSchema, model: NSManagedObjectModel, storeIdentifier: String? = nil) {
        self.schema = schema
        self.model = model
        self.storeIdentifier = storeIdentifier
    }
}

extension SQLiteFetchCompiler {
    /// Compiles a fetch request into one statement selecting `selection`. `entity`, when given, is the
    /// model's entity the request fetches, in place of the request's own.
    ///
    /// - Throws: an `NSError` in `NSCocoaErrorDomain` with code ``NSPersistentStoreUnsupportedRequestTypeError``
    ///   naming the request's entity, predicate or sort descriptor when the store cannot run it in SQL
    ///   (a block predicate, a custom selector, a function without an SQL form, a key path that names no
    ///   stored property…). The store never answers such a request with results evaluated differently.
    func compile<Result>(
        _ request: NSFetchRequest<Result>, entity: NSEntityDescription? = nil,
        selection: Selection
    ) throws -> SQLiteCompiledQuery {
        let entity = try entity ?? fetchedEntity(of: request)
        let layout = try self.layout(of: entity)
        let scope = SQLiteQueryScope(
            entity: entity, layout: layout, parent: nil, binding: nil,
            counter: SQLiteQueryScope.AliasCounter())
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
        var order: [SQLFragment] = []
        if selection != .count, let descriptors = request.sortDescriptors, !descriptors.isEmpty {
            for descriptor in descriptors {
                order.append(try orderTerm(descriptor, in: scope))
            }
            order.append(SQLFragment("\(scope.alias).Z_PK"))
        }
        let rows =
            selection == .rows
            ? try rowSelection(of: entity, layout: layout, includesSubentities: request.includesSubentities, alias: scope.alias)
            : nil
        let selected: String
        switch selection {
        case .rows: selected = rows!.selectList(alias: scope.alias)
        case .objectIDs: selected = "\(scope.alias).Z_PK, \(scope.alias).Z_ENT"
        case .count: selected = "\(scope.alias).Z_PK"
        }
        var statement = SQLFragment("SELECT \(selected) FROM \(scope.fromClause(table: layout.table))")
        if !conditions.isEmpty {
            statement = statement + " WHERE " + SQLFragment.joined(conditions, separator: " AND ")
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
        switch selection {
        case .rows:
            let rows = rows!
            return SQLiteCompiledQuery(
                sql: statement.sql, arguments: StatementArguments(databaseValues: statement.arguments),
                columns: rows.resultColumns, decodingPlans: rows.decodingPlans)
        case .objectIDs:
            return SQLiteCompiledQuery(
                sql: statement.sql, arguments: StatementArguments(databaseValues: statement.arguments),
                columns: [
                    SQLiteResultColumn(index: 0, role: .primaryKey, entities: []),
                    SQLiteResultColumn(index: 1, role: .entityNumber, entities: []),
                ])
        case .count:
            let counted =
                limit > 0 || offset > 0
                ? "SELECT COUNT(*) FROM (" + statement + ")"
                : SQLFragment(
                    statement.sql.replacingOccurrences(
                        of: "SELECT \(selected) FROM", with: "SELECT COUNT(*) FROM",
                        options: .anchored),
                    statement.arguments)
            return SQLiteCompiledQuery(
                sql: counted.sql, arguments: StatementArguments(databaseValues: counted.arguments),
                columns: [SQLiteResultColumn(index: 0, role: .count, entities: [])])
        }
    }

    /// The entity a request fetches: its `entity`, or the model's entity named `entityName`.
    func fetchedEntity<Result>(of request: NSFetchRequest<Result>) throws -> NSEntityDescription {
        if let entity = request.entity { return entity }
        guard let name = request.entityName else {
            throw Self.unsupported("the fetch request has no entity")
        }
        guard let entity = model.entitiesByName[name] else {
            throw Self.unsupported("the model has no entity named \"\(name)\"")
        }
        return entity
    }

    /// `t0.Z_ENT IN (…)` when the table holds rows of entities the request does not fetch.
    func entityRestriction(_ layout: SQLiteEntityLayout, includesSubentities: Bool, alias: String) -> SQLFragment? {
        let fetched = includesSubentities ? layout.numbersIncludingSubentities : [layout.number]
        let inTable = schema.entities.filter { $0.table == layout.table }.map(\.number)
        if Set(inTable).isSubset(of: Set(fetched)) { return nil }
        if fetched.count == 1 { return SQLFragment("\(alias).Z_ENT = ?", [Int64(fetched[0]).databaseValue]) }
        let marks = Array(repeating: "?", count: fetched.count).joined(separator: ", ")
        return SQLFragment("\(alias).Z_ENT IN (\(marks))", fetched.map { Int64($0).databaseValue })
    }

    /// The error for a predicate the store cannot run, naming the predicate.
    static func unsupported(in predicate: NSPredicate, _ error: NSError) -> NSError {
        let reason = error.userInfo[NSLocalizedFailureReasonErrorKey] as? String ?? error.localizedDescription
        return NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError,
            userInfo: [
                NSLocalizedDescriptionKey: "The SQLite store cannot run the predicate \(predicate.predicateFormat): \(reason)",
                NSLocalizedFailureReasonErrorKey: reason,
                "NSUnsupportedPredicate": predicate.predicateFormat,
            ])
    }

    /// The error thrown for a request the store cannot run.
    static func unsupported(_ message: String) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError,
            userInfo: [
                NSLocalizedDescriptionKey: "The SQLite store cannot run this fetch request: \(message)",
                NSLocalizedFailureReasonErrorKey: message,
            ])
    }
}
