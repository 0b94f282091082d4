import GRDB

/// Batch operations run directly on the SQLite file, each in one `BEGIN IMMEDIATE` transaction.
extension SQLiteStore: BatchOperationStore {
    /// Runs `body` in one immediate write transaction; any error rolls all of it back.
    func writeTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        let database = try database()
        return try SQLiteStoreFileAccess.run(fileURL) {
            try database.writeWithoutTransaction { db -> T in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    try self._files?.check()
                    return .commit
                }
                guard let result else { throw self._unsupported("a batch operation that did not finish") }
                return result
            }
        }
    }

    /// The statement selecting `Z_PK, Z_ENT` of the rows a fetch request matches.
    func objectIDQuery<Result>(_ request: NSFetchRequest<Result>) throws -> SQLiteCompiledQuery {
        guard let compiler = _compiler else { throw _unsupported("a batch request before opening") }
        return try compiler.compile(request, selection: .objectIDs)
    }

    /// Reads `Z_PK, Z_ENT` rows as object IDs.
    func objectIDs(_ query: SQLiteCompiledQuery, in db: Database) throws -> [NSManagedObjectID] {
        let rows = try Row.fetchAll(db.makeStatement(sql: query.sql), arguments: query.arguments)
        return try rows.map { row in
            let key: Int64 = try row.requiredStoredInteger(atIndex: 0)
            let number: Int64 = try row.requiredStoredInteger(atIndex: 1)
            return NSManagedObjectID(entity: try entity(number: number), store: self, primaryKey: key)
        }
    }

    /// The error of a batch request the store cannot run, naming the reason.
    func batchUnsupported(_ message: String) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError,
            userInfo: [
                NSLocalizedDescriptionKey: "The SQLite store at \(fileURL.path) cannot run this batch request: \(message)",
                NSLocalizedFailureReasonErrorKey: message,
            ])
    }

    /// The column value of a constant for an attribute, refusing values of another kind.
    func batchColumnValue(_ value: Any?, for attribute: NSAttributeDescription, entityName: String) throws -> DatabaseValue {
        guard let value, !(value is NSNull) else {
            if !attribute.isOptional {
                throw NSError(
                    domain: NSCocoaErrorDomain, code: NSValidationMissingMandatoryPropertyError,
                    userInfo: [
                        NSLocalizedDescriptionKey: "The batch request sets the mandatory attribute \(attribute.name) of \(entityName) to nil.",
                        NSValidationKeyErrorKey: attribute.name,
                    ])
            }
            return .null
        }
        if let expected = SQLiteValueCategory(attributeType: attribute.attributeType),
            attribute.attributeType != .transformableAttributeType, attribute.attributeType != .objectIDAttributeType,
            let (category, _) = SQLiteValueCategory.encode(value), category != expected
        {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSManagedObjectValidationError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "The batch request gives the attribute \(attribute.name) of \(entityName) a value of type \(Swift.type(of: value)), which does not fit its type.",
                    NSValidationKeyErrorKey: attribute.name,
                    NSValidationValueErrorKey: value,
                ])
        }
        do {
            return try SQLiteStoreValues.databaseValue(for: value, attribute: attribute)
        } catch let failure as TransformableStorage.Failure {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSManagedObjectValidationError,
                userInfo: [
                    NSLocalizedDescriptionKey: failure.message,
                    NSValidationKeyErrorKey: attribute.name,
                ])
        }
    }

    func batchUpdate(_ operation: BatchUpdateOperation) throws -> (count: Int, objectIDs: [NSManagedObjectID]?) {
        let entity = operation.entity
        let entityName = entity.name ?? ""
        let layout = try layout(of: entity)
        let request = NSFetchRequest<NSManagedObjectID>()
        request.entity = entity
        request.predicate = operation.predicate
        request.includesSubentities = operation.includesSubentities
        let idQuery = try objectIDQuery(request)
        guard let compiler = _compiler else { throw _unsupported("a batch request before opening") }

        // `UPDATE <table> AS t0 SET …`: value expressions read the row through the alias `t0`.
        let scope = SQLiteQueryScope(
            entity: entity, layout: layout, parent: nil, binding: nil,
            counter: SQLiteQueryScope.AliasCounter())
        var assignments: [SQLFragment] = []
        for (attribute, value) in operation.values {
            guard let column = layout.attributeColumns[attribute.name] else {
                throw batchUnsupported(
                    "the attribute \(attribute.name) of \(entityName) has no column (composite, transient or derived attributes cannot be batch updated)."
                )
            }
            var constant: Any?? = nil
            switch value {
            case .constant(let given):
                constant = .some(given)
            case .expression(let expression) where expression.expressionType == .constantValue:
                constant = .some(expression.constantValue)
            case .expression(let expression):
                let operand: SQLiteOperand
                do {
                    operand = try compiler.operand(expression, in: scope)
                } catch let error as NSError {
                    throw batchUnsupported("the value expression \(expression) for \(attribute.name): \(error.localizedDescription)")
                }
                switch operand {
                case .scalar(let fragment, _):
                    assignments.append("\(column) = " + fragment)
                case .constant(let given):
                    constant = .some(given)
                case .object, .collection:
                    throw batchUnsupported("the value expression \(expression) for \(attribute.name) does not give a single value.")
                }
            }
            if let constant {
                assignments.append(SQLFragment("\(column) = ?", [try batchColumnValue(constant, for: attribute, entityName: entityName)]))
            }
        }
        guard scope.joins.isEmpty else {
            throw batchUnsupported("value expressions may read only the attributes of \(entityName) itself, not key paths through relationships.")
        }
        guard !assignments.isEmpty else {
            throw batchUnsupported("propertiesToUpdate names no attribute to update.")
        }
        let sets = SQLFragment.joined(assignments + [SQLFragment("Z_OPT = Z_OPT + 1")], separator: ", ")
        let sql = "UPDATE \(layout.table) AS \(scope.alias) SET \(sets.sql) WHERE \(scope.alias).Z_PK IN (SELECT Z_PK FROM (\(idQuery.sql)))"
        let arguments = StatementArguments(databaseValues: sets.arguments) + idQuery.arguments
        let reportsIDs = operation.reportsObjectIDs
        let author = HistoryAuthor.current
        let names = operation.values.map(\.attribute.name)
        return try writeTransaction { db in
            let history = self._history.map { SQLiteHistoryRecorder(store: self, tracking: $0, db: db) }
            let ids = reportsIDs || history != nil ? try self.objectIDs(idQuery, in: db) : nil
            try db.execute(sql: sql, arguments: arguments)
            let count = db.changesCount
            try history?.recordBatchUpdate(ids ?? [], names: names, author: author)
            return (count, reportsIDs ? ids : nil)
        }
    }
}
