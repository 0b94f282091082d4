import Foundation
import OpenCoreData
import PostgresNIO

/// One fetch request against the server: compiled to one statement where the compiler knows the
/// predicate and sort descriptors, finished in memory where it does not.
struct PostgreSQLFetch {
    let store: PostgreSQLStore
    let open: PostgreSQLStore.Open
    let request: NSFetchRequest<NSFetchRequestResult>
    let context: NSManagedObjectContext?

    func run() throws -> Any {
        let schema = open.schema
        guard let name = request.entityName ?? request.entity?.name, let entity = open.model.entitiesByName[name] else {
            throw PostgreSQLErrors.unsupported(open.location, "a fetch request names no entity of the model")
        }
        let entities = request.includesSubentities ? PostgreSQLSchema.hierarchy(of: entity) : [entity]
        var compiler = PostgreSQLPredicateCompiler(schema: schema, store: store)
        var conditions: [String] = []
        if entity.superentity != nil || !request.includesSubentities {
            let numbers = entities.compactMap { schema.entityNumbers[$0.name ?? ""] }.map(String.init)
            conditions.append("t0.\"Z_ENT\" IN (\(numbers.joined(separator: ", ")))")
        }
        var inMemoryPredicate: NSPredicate?
        if let predicate = request.predicate {
            if let condition = compiler.condition(predicate, entity: entity) {
                conditions.append(condition)
            } else {
                inMemoryPredicate = predicate
                if let narrowing = compiler.compilableConjuncts(predicate, entity: entity) { conditions.append(narrowing) }
            }
        }
        let descriptors = request.sortDescriptors ?? []
        let ordering = descriptors.isEmpty ? "" : compiler.ordering(descriptors, entity: entity)
        let inMemory = inMemoryPredicate != nil || ordering == nil
        let table = schema.table(of: entity)
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        var sql: String
        if request.resultType == .countResultType, !inMemory {
            sql = "SELECT count(*) FROM \(table) t0\(whereClause)"
            if request.fetchOffset > 0 || request.fetchLimit > 0 {
                sql = "SELECT count(*) FROM (SELECT 1 FROM \(table) t0\(whereClause)\(Self.window(request))) counted"
            }
            let start = Date()
            let result = try open.connection.run(sql, compiler.binds)
            let count = try result.rows.first?.first?.decode(Int64.self) ?? 0
            open.connection.debugLog?.post(
                .annotation,
                "CoreData: annotation: total count request execution time: \(SQLDebugLog.postgreSQLSeconds(Date().timeIntervalSince(start))) for count of \(count)."
            )
            return [NSNumber(value: count)]
        }
        if request.resultType == .dictionaryResultType {
            if inMemoryPredicate == nil, PostgreSQLDictionaryFetch.computes(request) || ordering != nil {
                return try PostgreSQLDictionaryFetch(store: store, open: open, request: request, entity: entity).run(
                    compiler: &compiler, conditions: conditions)
            }
            if PostgreSQLDictionaryFetch.computes(request) {
                throw PostgreSQLDictionaryFetch.unsupported(
                    "aggregates and groups need a predicate PostgreSQL can evaluate, and \(request.predicate?.predicateFormat ?? "") is finished in memory"
                )
            }
        }
        var orderTerms = [String]()
        if let ordering, !ordering.isEmpty { orderTerms.append(ordering) }
        orderTerms.append("t0.\"Z_PK\"")
        let orderClause = " ORDER BY " + orderTerms.joined(separator: ", ")
        if request.fetchBatchSize > 0, !inMemory, request.resultType == .managedObjectResultType, let context {
            // Keys only; the rows are read a batch at a time (PostgreSQLFetchBatches.swift).
            let ids = try keys(
                "SELECT t0.\"Z_PK\", t0.\"Z_ENT\" FROM \(table) t0\(whereClause)\(orderClause)\(Self.window(request))", compiler.binds,
                entity: entity)
            try store.registerBatches(of: ids, size: request.fetchBatchSize, open: open)
            return ids.map { context.object(with: $0) }
        }
        sql = "SELECT \(Self.selectList(schema, entity: entity)) FROM \(table) t0\(whereClause)\(orderClause)"
        if !inMemory { sql += Self.window(request) }
        let start = Date()
        let result = try open.connection.run(sql, compiler.binds)
        open.connection.debugLog?.post(
            .annotation,
            "CoreData: annotation: total fetch execution time: \(SQLDebugLog.postgreSQLSeconds(Date().timeIntervalSince(start))) for \(result.rows.count) rows."
        )
        var ids: [NSManagedObjectID] = []
        var rows: [NSManagedObjectID: PostgreSQLStore.FetchedRow] = [:]
        ids.reserveCapacity(result.rows.count)
        for row in result.rows {
            let (id, fetched) = try Self.decode(row, store: store, open: open)
            ids.append(id)
            rows[id] = fetched
        }
        store.keep(rows)

        if inMemory {
            guard let context else {
                throw PostgreSQLErrors.unsupported(open.location, "a fetch whose predicate or sort is evaluated in memory needs a context")
            }
            var objects = ids.map { context.object(with: $0) }
            if let inMemoryPredicate { objects = objects.filter { inMemoryPredicate.evaluate(with: $0) } }
            if !descriptors.isEmpty { objects = objects.sortedArray(using: descriptors) }
            objects = Array(objects.dropFirst(request.fetchOffset))
            if request.fetchLimit > 0 { objects = Array(objects.prefix(request.fetchLimit)) }
            ids = objects.map(\.objectID)
        }
        switch request.resultType {
        case .countResultType:
            return [NSNumber(value: ids.count)]
        case .managedObjectIDResultType:
            return ids
        case .dictionaryResultType:
            return try dictionaries(ids, rows: rows, entity: entity)
        default:
            guard let context else { return ids }
            return ids.map { context.object(with: $0) }
        }
    }

    /// The IDs of the rows a statement selecting `Z_PK` and `Z_ENT` returns, in order.
    private func keys(_ sql: String, _ binds: PostgresBindings, entity: NSEntityDescription) throws -> [NSManagedObjectID] {
        let start = Date()
        let result = try open.connection.run(sql, binds)
        open.connection.debugLog?.post(
            .annotation,
            "CoreData: annotation: total fetch execution time: \(SQLDebugLog.postgreSQLSeconds(Date().timeIntervalSince(start))) for \(result.rows.count) rows."
        )
        return try result.rows.map { row in
            let cells = Array(row)
            let key = try cells[0].decode(Int64.self)
            let number = Int(try cells[1].decode(Int32.self))
            let found = open.schema.entityNames[number].flatMap { open.model.entitiesByName[$0] } ?? entity
            return store.newObjectID(for: found, referenceObject: NSNumber(value: key))
        }
    }

    /// `LIMIT` and `OFFSET` of the request.
    private static func window(_ request: NSFetchRequest<NSFetchRequestResult>) -> String {
        var text = ""
        if request.fetchLimit > 0 { text += " LIMIT \(request.fetchLimit)" }
        if request.fetchOffset > 0 { text += " OFFSET \(request.fetchOffset)" }
        return text
    }

    /// Dictionaries of the properties to fetch (every attribute when none are named).
    private func dictionaries(
        _ ids: [NSManagedObjectID], rows: [NSManagedObjectID: PostgreSQLStore.FetchedRow], entity: NSEntityDescription
    ) throws -> [[String: Any]] {
        var names: [String] = []
        for property in request.propertiesToFetch ?? [] {
            if let property = property as? NSPropertyDescription, !(property is NSExpressionDescription) {
                names.append(property.name)
            } else if let name = property as? String {
                names.append(name)
            } else {
                throw PostgreSQLErrors.unsupported(open.location, "dictionary results of expressions are not built yet")
            }
        }
        if names.isEmpty { names = entity.attributesByName.keys.sorted() }
        var result: [[String: Any]] = []
        var seen = Set<[String: AnyHashable]>()
        for id in ids {
            guard let row = rows[id] else { continue }
            var dictionary: [String: Any] = [:]
            for name in names {
                if let value = row.values[name], !(value is NSNull) { dictionary[name] = value }
            }
            if request.returnsDistinctResults {
                let key = dictionary.compactMapValues { $0 as? AnyHashable }
                guard seen.insert(key).inserted else { continue }
            }
            result.append(dictionary)
        }
        return result
    }

    // MARK: Rows

    /// The columns a fetch of the entity's table selects: `Z_PK`, `Z_ENT`, `Z_OPT`, then the table's own.
    static func selectList(_ schema: PostgreSQLSchema, entity: NSEntityDescription) -> String {
        let table = schema.tables[schema.roots[entity.name ?? ""] ?? ""] ?? ""
        var list = ["t0.\"Z_PK\"", "t0.\"Z_ENT\"", "t0.\"Z_OPT\""]
        for column in schema.tableColumns[table] ?? [] {
            let quoted = "t0.\(PostgreSQLSchema.quote(column.name))"
            list.append(column.type == "numeric" ? "\(quoted)::text" : quoted)
        }
        return list.joined(separator: ", ")
    }

    /// A selected row as an object ID and the values of its node.
    static func decode(_ row: PostgresRow, store: PostgreSQLStore, open: PostgreSQLStore.Open) throws -> (
        NSManagedObjectID, PostgreSQLStore.FetchedRow
    ) {
        let cells = Array(row)
        let key = try cells[0].decode(Int64.self)
        let number = Int(try cells[1].decode(Int32.self))
        let version = Int64(try cells[2].decode(Int32.self))
        guard let name = open.schema.entityNames[number], let entity = open.model.entitiesByName[name] else {
            throw PostgreSQLErrors.unsupported(open.location, "a row has the unknown entity number \(number)")
        }
        var index: [String: Int] = [:]
        for (offset, cell) in cells.enumerated() { index[cell.columnName] = offset }
        var values: [String: Any] = [:]
        let columns = open.schema.columns[name] ?? [:]
        for (property, column) in columns where !property.contains("#") {
            guard let position = index[column.name] else { continue }
            if let attribute = entity.attributesByName[property] {
                values[property] = try PostgreSQLValues.value(of: cells[position], as: attribute.attributeType) ?? NSNull()
            } else if let relationship = entity.relationshipsByName[property], let destination = relationship.destinationEntity {
                values[property] = try destinationID(
                    key: cells[position], entity: columns[property + "#entity"].flatMap { index[$0.name] }.map { cells[$0] },
                    destination: destination, store: store, open: open)
            }
        }
        let id = store.newObjectID(for: entity, referenceObject: NSNumber(value: key))
        return (id, PostgreSQLStore.FetchedRow(values: values, version: version))
    }

    /// The ID a to-one key column names, or `NSNull`.
    private static func destinationID(
        key: PostgresCell, entity: PostgresCell?, destination: NSEntityDescription, store: PostgreSQLStore, open: PostgreSQLStore.Open
    ) throws -> Any {
        guard let key = try key.decode(Int64?.self) else { return NSNull() }
        var target = destination
        if let number = try entity?.decode(Int32?.self), let name = open.schema.entityNames[Int(number)],
            let named = open.model.entitiesByName[name]
        {
            target = named
        }
        return store.newObjectID(for: target, referenceObject: NSNumber(value: key))
    }

    /// One object's row, read from the server; nil when it is gone.
    static func row(of objectID: NSManagedObjectID, store: PostgreSQLStore, open: PostgreSQLStore.Open) throws -> PostgreSQLStore.FetchedRow? {
        let entity = open.model.entitiesByName[objectID.entity.name ?? ""] ?? objectID.entity
        var binds = PostgresBindings()
        binds.append(try store.key(of: objectID))
        let result = try open.connection.run(
            "SELECT \(selectList(open.schema, entity: entity)) FROM \(open.schema.table(of: entity)) t0 WHERE t0.\"Z_PK\" = $1", binds)
        guard let row = result.rows.first else { return nil }
        return try decode(row, store: store, open: open).1
    }

    /// A relationship's destinations: IDs for a to-many relationship (by key), an ID or `NSNull` for a to-one.
    static func destinations(
        of relationship: NSRelationshipDescription, from objectID: NSManagedObjectID, store: PostgreSQLStore, open: PostgreSQLStore.Open
    ) throws -> Any {
        let schema = open.schema
        let source = open.model.entitiesByName[objectID.entity.name ?? ""] ?? objectID.entity
        guard let destination = relationship.destinationEntity.flatMap({ open.model.entitiesByName[$0.name ?? ""] }) else { return NSNull() }
        var binds = PostgresBindings()
        binds.append(try store.key(of: objectID))
        if !relationship.isToMany {
            guard let row = try self.row(of: objectID, store: store, open: open) else { return NSNull() }
            return row.values[relationship.name] ?? NSNull()
        }
        let sql: String
        let owner = source.name ?? ""
        if let join = schema.joinTable(relationship.name, of: source) {
            sql =
                "SELECT d.\"Z_PK\", d.\"Z_ENT\" FROM \(schema.qualified(join.name)) j JOIN \(schema.table(of: destination)) d ON d.\"Z_PK\" = j.\(PostgreSQLSchema.quote(join.destinationColumn)) WHERE j.\(PostgreSQLSchema.quote(join.sourceColumn)) = $1 ORDER BY d.\"Z_PK\""
        } else if let inverse = relationship.inverseRelationship, let column = schema.columns[inverse.entity.name ?? ""]?[inverse.name] {
            sql =
                "SELECT d.\"Z_PK\", d.\"Z_ENT\" FROM \(schema.table(of: destination)) d WHERE d.\(PostgreSQLSchema.quote(column.name)) = $1 ORDER BY d.\"Z_PK\""
        } else {
            throw PostgreSQLErrors.unsupported(open.location, "the relationship \(owner).\(relationship.name) has no table")
        }
        let result = try open.connection.run(sql, binds)
        return try result.rows.map { row -> NSManagedObjectID in
            let cells = Array(row)
            let key = try cells[0].decode(Int64.self)
            let number = Int(try cells[1].decode(Int32.self))
            let entity = schema.entityNames[number].flatMap { open.model.entitiesByName[$0] } ?? destination
            return store.newObjectID(for: entity, referenceObject: NSNumber(value: key))
        }
    }
}
