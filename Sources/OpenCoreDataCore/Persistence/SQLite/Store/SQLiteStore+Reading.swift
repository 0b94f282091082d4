import GRDB

/// Reading a SQLite store: fetches through the compiled SQL of the fetch compiler, single rows and
/// to-many relationships through the layout.
extension SQLiteStore {
    /// Runs a read, turning SQLite errors into errors naming the file.
    ///
    /// A read of several statements sees the file as it was when the read began, whatever other
    /// connections write meanwhile: they run in one transaction. A read of one statement (`isolated:
    /// false`) needs none, since SQLite reads a statement's rows from one state of the file; it runs
    /// without the transaction's `BEGIN` and `COMMIT`, a large part of a small fetch.
    func read<T>(isolated: Bool = true, _ body: (Database) throws -> T) throws -> T {
        if let snapshot = QueryGenerationScope.snapshot(for: self) {
            return try SQLiteStoreFileAccess.run(fileURL) { try snapshot.read(body) }
        }
        let database = try database()
        return try SQLiteStoreFileAccess.run(fileURL) { try SQLiteUnlinkedStoreReads.read(database, isolated: isolated, body) }
    }

    /// The compiler for this store's layout.
    func compiler() throws -> SQLiteFetchCompiler {
        guard let compiler = _compiler else { throw _unsupported("fetching before opening") }
        return compiler
    }

    func fetchStoreRows<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> [StoreRow] {
        let query = try compiler().compile(request, entity: entity, selection: .rows)
        return try read(isolated: false) { db in
            try loggedFetch(query.sql, arguments: query.arguments, in: db, rowCount: { $0.count }) {
                let statement = try db.cachedStatement(sql: query.sql)
                let decoder = SQLiteFetchRowDecoder(
                    store: self, statement: statement, columns: query.columns,
                    sharedPlans: query.decodingPlans)
                let cursor = try Row.fetchCursor(statement, arguments: query.arguments)
                var rows: [StoreRow] = []
                try cursor.forEach { row in rows.append(try decoder.decode(row)) }
                return rows
            }
        }
    }

    func fetchStoreObjectIDs<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> [NSManagedObjectID] {
        let storeReference = _objectIDReference
        return try fetchStoreKeys(request, entity: entity) { entity, _, pk in
            NSManagedObjectID(entity: entity, store: storeReference, primaryKey: pk)
        }
    }

    /// The identities of the rows a request selects, as scope and primary key: no ID is made for them.
    func fetchStoreObjectIdentities<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> [ObjectIdentity] {
        try fetchStoreKeys(request, entity: entity) { _, scope, pk in .row(scope, primaryKey: pk) }
    }

    /// The rows a request selects, each named by `make` from its entity, the scope of that entity's IDs
    /// in this store (one per entity a fetch meets) and its primary key.
    private func fetchStoreKeys<Result, Key>(
        _ request: NSFetchRequest<Result>, entity: NSEntityDescription,
        _ make: (NSEntityDescription, ObjectIDScope, Int64) -> Key
    ) throws -> [Key] {
        let query = try compiler().compile(request, entity: entity, selection: .objectIDs)
        return try read(isolated: false) { db in
            try loggedFetch(query.sql, arguments: query.arguments, in: db, rowCount: { $0.count }) {
                let statement = try db.cachedStatement(sql: query.sql)
                let primaryKeyIndex = query.columns.first { $0.role == .primaryKey }?.index
                let entityNumberIndex = query.columns.first { $0.role == .entityNumber }?.index
                let storeReference = _objectIDReference
                var lastEntity: (number: Int64, entity: NSEntityDescription, scope: ObjectIDScope)?
                var scopes: [Int64: (number: Int64, entity: NSEntityDescription, scope: ObjectIDScope)] = [:]
                var keys: [Key] = []
                let cursor = try Row.fetchCursor(statement, arguments: query.arguments)
                while let row = try cursor.next() {
                    let pk: Int64 = try primaryKeyIndex.map { try row.requiredStoredInteger(atIndex: $0) } ?? 0
                    let number: Int64 = try entityNumberIndex.flatMap { try row.storedInteger(atIndex: $0) } ?? 0
                    let current: (number: Int64, entity: NSEntityDescription, scope: ObjectIDScope)
                    if let lastEntity, lastEntity.number == number {
                        current = lastEntity
                    } else if let known = scopes[number] {
                        current = known
                        lastEntity = current
                    } else {
                        // One scope per entity, also when rows of several entities alternate.
                        let entity = try self.entity(number: number)
                        current = (number, entity, ObjectIDScope(entity: entity, store: storeReference))
                        scopes[number] = current
                        lastEntity = current
                    }
                    keys.append(make(current.entity, current.scope, pk))
                }
                return keys
            }
        }
    }

    func countStoreRows<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> Int {
        let query = try compiler().compile(request, entity: entity, selection: .count)
        return try read(isolated: false) { db in
            try loggedCount(query.sql, arguments: query.arguments, in: db) {
                let statement = try db.cachedStatement(sql: query.sql)
                return try Int.fetchOne(statement, arguments: query.arguments) ?? 0
            }
        }
    }

    /// The row of one object read through the layout; `nil` when there is no such row.
    func storeRow(for objectID: NSManagedObjectID) throws -> StoreRow? {
        guard let pk = objectID.primaryKey else { return nil }
        let layout = try layout(of: objectID.entity)
        let numbers = layout.numbersIncludingSubentities.map(String.init).joined(separator: ", ")
        let row = try read(isolated: false) { db in
            let statement = try db.cachedStatement(sql: "SELECT * FROM \(layout.table) WHERE Z_PK = ? AND Z_ENT IN (\(numbers))")
            guard let row = try Row.fetchOne(statement, arguments: [pk]) else { return nil as StoreRow? }
            return try decodeTableRow(row)
        }
        logFaultFulfilled(objectID, found: row != nil)
        return row
    }

    /// A whole row of an entity table (`SELECT *`) as a store row, read with the row's own entity layout.
    func decodeTableRow(_ row: Row) throws -> StoreRow {
        let pk: Int64 = try row.storedInteger("Z_PK") ?? 0
        let number: Int64 = try row.storedInteger("Z_ENT") ?? 0
        let version: Int64 = try row.storedInteger("Z_OPT") ?? 0
        let entity = try self.entity(number: number)
        let layout = try layout(of: entity)
        var values: [String: Any] = [:]
        for (name, attribute) in attributes(of: entity) where !attribute.isTransient {
            if let composite = attribute as? NSCompositeAttributeDescription {
                var dictionary: [String: Any] = [:]
                for (path, element) in SQLiteCompositeValues.leaves(of: composite, path: name) {
                    guard let column = layout.attributeColumns[path], let dbValue = row[column] as DatabaseValue?,
                        let value = try readValue(
                            from: dbValue, attribute: element,
                            coordinator: persistentStoreCoordinator)
                    else { continue }
                    SQLiteCompositeValues.insert(value, at: path.split(separator: ".").dropFirst(), into: &dictionary)
                }
                if !dictionary.isEmpty { values[name] = dictionary }
                continue
            }
            guard let column = layout.attributeColumns[name], let dbValue = row[column] as DatabaseValue?,
                let value = try readValue(
                    from: dbValue, attribute: attribute,
                    coordinator: persistentStoreCoordinator)
            else { continue }
            values[name] = value
        }
        for (name, storage) in layout.relationships {
            guard case let .foreignKey(column, entityColumn, _) = storage,
                let key = try row.storedInteger(column),
                let destination = relationships(of: entity)[name]?.destinationEntity
            else { continue }
            let target = try (entityColumn.flatMap { try row.storedInteger($0) }).map { try self.entity(number: $0) } ?? destination
            values[name] = NSManagedObjectID(entity: target, store: self, primaryKey: key)
        }
        return StoreRow(objectID: NSManagedObjectID(entity: entity, store: self, primaryKey: pk), version: version, values: values)
    }

    /// The destinations of a relationship of one object: one query, ordered by the order column for
    /// ordered relationships (then by `Z_PK`).
    func storeRelatedObjectIDs(for relationship: NSRelationshipDescription, of objectID: NSManagedObjectID) throws -> [NSManagedObjectID] {
        guard let pk = objectID.primaryKey, let destination = relationship.destinationEntity else { return [] }
        let layout = try layout(of: objectID.entity)
        guard let storage = layout.relationships[relationship.name] else { return [] }
        let destinationLayout = try self.layout(of: destination)
        let sql: String
        switch storage {
        case let .foreignKey(column, entityColumn, _):
            sql = "SELECT \(column), \(entityColumn ?? "NULL") FROM \(layout.table) WHERE Z_PK = ? AND \(column) IS NOT NULL"
        case let .inverseForeignKey(table, column, orderColumn):
            let order = orderColumn.map { "\($0), Z_PK" } ?? "Z_PK"
            sql = "SELECT Z_PK, Z_ENT FROM \(table) WHERE \(column) = ? ORDER BY \(order)"
        case let .joinTable(table, sourceColumn, destinationColumn, orderColumn):
            let order = orderColumn.map { "J.\($0), J.\(destinationColumn)" } ?? "J.\(destinationColumn)"
            sql =
                "SELECT D.Z_PK, D.Z_ENT FROM \(table) J JOIN \(destinationLayout.table) D ON D.Z_PK = J.\(destinationColumn) "
                + "WHERE J.\(sourceColumn) = ? ORDER BY \(order)"
        }
        let destinations = try read(isolated: false) { db in
            let statement = try db.cachedStatement(sql: sql)
            return try Row.fetchAll(statement, arguments: [pk]).map { row in
                let key: Int64 = try row.requiredStoredInteger(atIndex: 0)
                let number: Int64? = try row.storedInteger(atIndex: 1)
                let entity = try number.map { try self.entity(number: $0) } ?? destination
                return NSManagedObjectID(entity: entity, store: self, primaryKey: key)
            }
        }
        logRelationshipFault(relationship, of: objectID, rows: destinations.count)
        return destinations
    }

    /// An attribute's value read from its column; a transformable value that cannot be restored is an
    /// ``NSPersistentStoreOperationError`` naming the attribute and the store.
    func readValue(
        from databaseValue: DatabaseValue, attribute: NSAttributeDescription,
        coordinator: NSPersistentStoreCoordinator?
    ) throws -> Any? {
        do {
            if ExternalBinaryStorage.applies(to: attribute) { return try readExternallyStorableValue(from: databaseValue, attribute: attribute) }
            return try SQLiteStoreValues.value(from: databaseValue, attribute: attribute, coordinator: coordinator)
        } catch let failure as TransformableStorage.Failure {
            throw SQLiteStoreFileAccess.fileError(
                NSPersistentStoreOperationError, fileURL,
                "Cannot read from the store at \(fileURL.path): \(failure.message)")
        }
    }
}
