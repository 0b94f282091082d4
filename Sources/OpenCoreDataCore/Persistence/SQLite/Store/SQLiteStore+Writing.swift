import GRDB

/// Writing a save to a SQLite store: one `BEGIN IMMEDIATE` transaction holding the optimistic-locking
/// checks, the primary-key allocation, every insert, update and delete, the relationship rows and the
/// metadata; any failure rolls all of it back.
///
/// Rules (see `Docs/StoreFormat.md`): a new row gets `Z_OPT` 1 and each update adds 1; keys come from the
/// root entity's `Z_PRIMARYKEY.Z_MAX`; a to-many relationship whose inverse is to-one is written as the
/// destinations' foreign key (their `Z_OPT` is not changed by that); many-to-many and inverse-less
/// to-many relationships as join-table rows; ordered relationships keep each destination's position in
/// the `Z_FOK_` column as (index + 1) × 1024, leaving room between neighbours; deleting a row also
/// deletes the join-table rows that mention it.
extension SQLiteStore {
    /// The spacing of `Z_FOK_` order values.
    static let orderSpacing: Int64 = 1024

    /// Allocates `count` keys on the `Z_PRIMARYKEY` row of a root entity, inside the caller's transaction.
    static func allocatePrimaryKeys(in db: Database, rootNumber: Int, count: Int) throws -> [Int64] {
        guard count > 0 else { return [] }
        let stored =
            try DatabaseValue.fetchOne(
                db.cachedStatement(sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?"),
                arguments: [rootNumber]) ?? .null
        let max = try SQLiteDamagedValue.integer(stored, column: "Z_PRIMARYKEY.Z_MAX") ?? 0
        try db.cachedStatement(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
            .execute(arguments: [max + Int64(count), rootNumber])
        return (1...count).map { max + Int64($0) }
    }

    func saveChanges(_ changes: StoreSaveChanges) throws -> StoreSaveResult {
        let database = try database()
        let dirty = _lock.withLock { _metadataIsDirty }
        let metadataToWrite = dirty ? SQLiteStoreMetadata(dictionary: metadata ?? [:]) : nil
        let journal = ExternalDataJournal()
        defer { journal.rollback() }
        // Read on the caller's thread: the writer's queue may run the transaction on another.
        let author = HistoryAuthor.current
        let result = try loggedSave(changes) {
            try SQLiteStoreFileAccess.run(fileURL) {
                try database.writeWithoutTransaction { db -> StoreSaveResult in
                    var result = StoreSaveResult.empty
                    try db.inTransaction(.immediate) {
                        // History is written in the same transaction; tombstones are read before the rows go.
                        let history = self._history.map { SQLiteHistoryRecorder(store: self, tracking: $0, db: db) }
                        let tombstones = try history?.tombstones(of: changes.deleted.lazy.map(\.objectID)) ?? [:]
                        result = try self.writeKeepingDerivedValueReports(changes, in: db, externalData: journal)
                        try history?.recordSave(changes, result: result, tombstones: tombstones, author: author)
                        if let metadataToWrite { try metadataToWrite.write(to: db) }
                        try self._files?.check()
                        return .commit
                    }
                    return result
                }
            }
        }
        journal.commit()
        if dirty { _lock.withLock { _metadataIsDirty = false } }
        return result
    }

    /// Writes a save; in a file with derived-attribute triggers, the values they report come back as the
    /// result's ``StoreSaveResult/derivedValues``.
    private func writeKeepingDerivedValueReports(
        _ changes: StoreSaveChanges, in db: Database, externalData: ExternalDataJournal
    ) throws -> StoreSaveResult {
        guard !_triggerMaintainedColumns.isEmpty else { return try write(changes, in: db, externalData: externalData) }
        _derivedValueReports.begin()
        var result: StoreSaveResult
        do {
            result = try write(changes, in: db, externalData: externalData)
        } catch {
            _ = _derivedValueReports.end()
            throw error
        }
        result.derivedValues = derivedValues(of: _derivedValueReports.end())
        return result
    }

    /// The values reported by the triggers, one per object and attribute (the last report of each), in
    /// canonical form; reports naming no entity or attribute of the model are left out.
    private func derivedValues(of reports: [SQLiteDerivedValueReports.Report]) -> [StoreDerivedValue] {
        var positions: [String: Int] = [:]
        var values: [StoreDerivedValue] = []
        for report in reports {
            guard let entity = try? entity(number: report.entityNumber), let attribute = attributes(of: entity)[report.attribute] else {
                continue
            }
            let value = (try? SQLiteStoreValues.value(from: report.value, attribute: attribute, coordinator: nil)) ?? nil
            let derived = StoreDerivedValue(
                objectID: NSManagedObjectID(entity: entity, store: self, primaryKey: report.primaryKey), name: attribute.name, value: value)
            let key = "\(report.entityNumber) \(report.primaryKey) \(attribute.name)"
            if let position = positions[key] {
                values[position] = derived
            } else {
                positions[key] = values.count
                values.append(derived)
            }
        }
        return values
    }

    private func write(_ changes: StoreSaveChanges, in db: Database, externalData: ExternalDataJournal) throws -> StoreSaveResult {
        try checkVersions(changes, in: db)
        try checkUniquenessConstraints(changes, in: db)
        let insertedIDs = try allocateKeys(for: changes.inserted, in: db)
        let permanentIDs = PermanentIDTable(inserts: changes.inserted, ids: insertedIDs)
        let writer = RowWriter(
            store: self, db: db, permanentIDs: permanentIDs,
            explicitToOne: Self.explicitToOne(changes, permanentIDs: permanentIDs), externalData: externalData)
        var versions = ObjectIDMap<Int64>()
        // Deleted rows leave first, so that an insert or update may take a deleted row's unique values.
        try writer.deleteRows(changes.deleted.lazy.map(\.objectID))
        try vacateUniqueColumns(changes, in: db)
        // One plan per entity, whose prepared INSERTs are reused for each run of its new rows.
        // Inserts of one entity usually come together: the plan of the last entity is kept.
        var plans: [ObjectIdentifier: SQLiteInsertPlan] = [:]
        var lastPlan = EntityRunMemo<SQLiteInsertPlan>()
        var run = SQLiteInsertRun()
        versions.reserveCapacity(changes.updated.count)
        // New rows all have version 1 (`insertedVersion`).
        // Each insert's ID and plan are used unretained: `insertedIDs` and `plans` keep them.
        for index in changes.inserted.indices {
            try Unmanaged.passUnretained(insertedIDs[index]).withBorrowedReference { id in
                guard let pk = id.primaryKey else { return }
                let plan = try Unmanaged.passUnretained(
                    lastPlan.value(for: id.entity) { entity in
                        if let known = plans[ObjectIdentifier(entity)] { return known }
                        let plan = try SQLiteInsertPlan(entity: entity, writer: writer)
                        plans[ObjectIdentifier(entity)] = plan
                        return plan
                    })
                try plan.withBorrowedReference { plan in
                    try run.append(position: index, key: pk, plan: plan, of: changes.inserted, writer: writer)
                }
            }
        }
        try run.flush(changes.inserted, writer: writer)
        for update in changes.updated {
            try writer.update(update.objectID, changedValues: update.changedValues)
            versions[update.objectID] = update.expectedVersion + 1
        }
        try changes.inserted.forEachInPlace { index, insert in
            guard !insert.pointee.toMany.isEmpty else { return }
            for (name, destinations) in insert.pointee.toMany.sorted(by: { $0.key < $1.key }) {
                try writer.writeToMany(insertedIDs[index], name, destinations)
            }
        }
        for update in changes.updated {
            for (name, destinations) in update.toMany.sorted(by: { $0.key < $1.key }) {
                try writer.writeToMany(update.objectID, name, destinations)
            }
        }
        try writer.deleteJoinRows(changes.deleted.lazy.map(\.objectID))
        return StoreSaveResult(insertedIDs: insertedIDs, permanentIDs: permanentIDs, insertedVersion: 1, versions: versions)
    }

    /// The objects whose to-one relationships this save sets itself, by relationship name: a to-many
    /// change of the inverse does not clear them (their own value is written as given). Empty for a save
    /// that writes no to-many changes, the only writes that ask.
    static func explicitToOne(
        _ changes: StoreSaveChanges,
        permanentIDs: PermanentIDTable
    ) -> [String: Set<NSManagedObjectID>] {
        guard changes.writesToMany else { return [:] }
        var result: [String: Set<NSManagedObjectID>] = [:]
        // The to-one relationships of each entity, looked up once per entity (and once per run of it).
        var toOneNames: [ObjectIdentifier: [String]] = [:]
        var memo = EntityRunMemo<[String]>()
        func names(of entity: NSEntityDescription) -> [String] {
            memo.value(for: entity) { entity in
                let names = toOneNames[ObjectIdentifier(entity)] ?? entity.relationshipsByName.values.filter { !$0.isToMany }.map(\.name)
                toOneNames[ObjectIdentifier(entity)] = names
                return names
            }
        }
        for insert in changes.inserted {
            for key in names(of: insert.objectID.entity) where insert.values[key] != nil {
                result[key, default: []].insert(permanentIDs[insert.objectID] ?? insert.objectID)
            }
        }
        for update in changes.updated {
            for key in names(of: update.objectID.entity) where update.changedValues.index(forKey: key) != nil {
                result[key, default: []].insert(update.objectID)
            }
        }
        return result
    }

    /// Optimistic locking: every updated or deleted row must still have the version the context read.
    ///
    /// The versions are read a table at a time, `SQLiteKeyLists.chunkSize` keys per statement; only a row whose
    /// version differs is read whole, for the conflict.
    private func checkVersions(_ changes: StoreSaveChanges, in db: Database) throws {
        let expected =
            changes.updated.map { ($0.objectID, $0.expectedVersion) } + changes.deleted.map { ($0.objectID, $0.expectedVersion) }
            + changes.versionChecks.map { ($0.objectID, $0.expectedVersion) }
        guard !expected.isEmpty else { return }
        // The keys to check, by table, in the order they come.
        var keysByTable: [String: [Int64]] = [:]
        var tables: [String] = []
        var memo = EntityRunMemo<String>()
        var checks: [(id: NSManagedObjectID, version: Int64, table: String, key: Int64)] = []
        checks.reserveCapacity(expected.count)
        for (id, version) in expected {
            guard let pk = id.primaryKey else { continue }
            let table = try memo.value(for: id.entity) { try layout(of: $0).table }
            if keysByTable[table] == nil { tables.append(table) }
            keysByTable[table, default: []].append(pk)
            checks.append((id, version, table, pk))
        }
        var versions: [String: [Int64: Int64]] = [:]
        for table in tables {
            let keys = keysByTable[table] ?? []
            var current: [Int64: Int64] = [:]
            current.reserveCapacity(keys.count)
            try SQLiteKeyLists.forEachChunk(of: keys, in: db, head: "SELECT Z_PK, Z_OPT FROM \(table) WHERE Z_PK") { statement, chunk in
                let rows = try Row.fetchCursor(statement, arguments: StatementArguments(databaseValues: chunk.map(\.databaseValue)))
                while let row = try rows.next() {
                    guard let key = try row.storedInteger(atIndex: 0) else { continue }
                    current[key] = try row.storedInteger(atIndex: 1) ?? 0
                }
            }
            versions[table] = current
        }
        var conflicts: [StoreSaveConflicts.Conflict] = []
        for check in checks where versions[check.table]?[check.key] != check.version {
            let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM \(check.table) WHERE Z_PK = ?"), arguments: [check.key])
            conflicts.append(.init(objectID: check.id, expectedVersion: check.version, storeRow: try row.map(decodeTableRow)))
        }
        if !conflicts.isEmpty { throw StoreSaveConflicts(conflicts: conflicts) }
    }

    /// The ID each insert has once saved, position by position: a permanent ID allocated per root entity
    /// for each temporary ID, the insert's own ID otherwise.
    private func allocateKeys(for inserts: [StoreSaveChanges.Insert], in db: Database) throws -> [NSManagedObjectID] {
        var ids = inserts.map(\.objectID)
        // The positions of the temporary IDs, by root entity number.
        var byRoot: [Int: [Int]] = [:]
        // Inserts of one entity usually come together: its root and ID hash base are looked up once per
        // run of them. Each pass keeps its own memo, used in place: a local function sharing one captured
        // it in a box whose every access the runtime checked for exclusivity (about 250 instructions an ID).
        var memo = EntityRunMemo<Int>()
        // The current run of one root's positions, added to `byRoot` when another root's insert comes.
        var run: (root: Int, positions: [Int])?
        // The IDs are read in place: `ids` keeps them, and their entities, for the whole pass.
        try ids.forEachInPlace { position, id in
            guard id.pointee.isTemporaryID else { return }
            let root = try memo.value(for: id.pointee.entity) { try layout(of: $0).rootNumber }
            if run?.root != root {
                if let run { byRoot[run.root, default: []] += run.positions }
                run = (root, [])
            }
            run?.positions.append(position)
        }
        if let run { byRoot[run.root, default: []] += run.positions }
        let storeReference = _objectIDReference
        var hashBases = EntityRunMemo<Int>()
        for (root, positions) in byRoot.sorted(by: { $0.key < $1.key }) {
            let keys = try Self.allocatePrimaryKeys(in: db, rootNumber: root, count: positions.count)
            for (position, key) in zip(positions, keys) {
                let entity = ids[position].entity
                let hashBase = hashBases.value(for: entity) {
                    NSManagedObjectID.hashBase(storeIdentifier: storeReference.identifier, entity: $0)
                }
                ids[position] = NSManagedObjectID(entity: entity, store: storeReference, primaryKey: key, hashBase: hashBase)
            }
        }
        return ids
    }
}

/// Writes the rows of one save inside its transaction.
struct RowWriter {
    let store: SQLiteStore
    let db: Database
    let permanentIDs: PermanentIDTable
    /// Objects whose to-one relationships the save sets itself (see `SQLiteStore.explicitToOne`).
    let explicitToOne: [String: Set<NSManagedObjectID>]
    /// External data files this save creates and replaces (see `ExternalBinaryStorage`).
    let externalData: ExternalDataJournal

    /// The primary key of an object named in the save.
    func key(_ value: Any, context: String) throws -> NSManagedObjectID {
        guard let id = (value as? ObjectIDRepresentable)?.objectIDForStore else {
            throw saveError("\(context) holds \(type(of: value)), not an object.")
        }
        let permanent = permanentIDs[id] ?? id
        guard permanent.primaryKey != nil else {
            throw saveError("\(context) refers to the unsaved object \(id.uriRepresentation().absoluteString), which is not part of this save.")
        }
        guard permanent.storeIdentifier == store.identifier else {
            throw saveError("\(context) refers to \(id.uriRepresentation().absoluteString) in another store; relationships cannot cross stores.")
        }
        return permanent
    }

    func saveError(_ message: String) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreSaveError,
            userInfo: [
                NSLocalizedDescriptionKey: "Cannot save to the store at \(store.fileURL.path): \(message)",
                NSAffectedStoresErrorKey: [store],
            ])
    }

    /// Column assignments for attribute and to-one values of an entity.
    func assignments(
        for entity: NSEntityDescription, layout: SQLiteEntityLayout,
        values: [String: Any?]
    ) throws -> [(String, DatabaseValue)] {
        var result: [(String, DatabaseValue)] = []
        let attributes = store.attributes(of: entity)
        let relationships = store.relationships(of: entity)
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            if let composite = attributes[name] as? NSCompositeAttributeDescription {
                do {
                    let elements = try SQLiteCompositeValues.elementValues(of: value ?? nil, composite: composite, path: name)
                    for (path, element) in SQLiteCompositeValues.leaves(of: composite, path: name) {
                        guard let column = layout.attributeColumns[path] else { continue }
                        let elementValue = elements[path] ?? nil
                        try rejectUnstorable(elementValue, attribute: element, path: path)
                        result.append((column, try SQLiteStoreValues.databaseValue(for: elementValue, attribute: element)))
                    }
                } catch let error as TransformableStorage.Failure {
                    throw saveError(error.message)
                }
            } else if let attribute = attributes[name] {
                guard let column = layout.attributeColumns[name] else { continue }
                try rejectUnstorable(value ?? nil, attribute: attribute, path: name)
                do {
                    if ExternalBinaryStorage.applies(to: attribute) {
                        result.append((column, try externallyStorableValue(value ?? nil, attribute: attribute)))
                        continue
                    }
                    result.append((column, try SQLiteStoreValues.databaseValue(for: value ?? nil, attribute: attribute)))
                } catch let error as TransformableStorage.Failure {
                    throw saveError(error.message)
                }
            } else if let relationship = relationships[name], !relationship.isToMany,
                case let .foreignKey(column, entityColumn, _)? = layout.relationships[name]
            {
                let destination: NSManagedObjectID?
                if let value = value ?? nil, !(value is NSNull) {
                    destination = try key(value, context: "The relationship \(name) of \(entity.name ?? "")")
                } else {
                    destination = nil
                }
                result.append((column, destination?.primaryKey?.databaseValue ?? .null))
                if let entityColumn {
                    let number = try destination.map { try store.layout(of: $0.entity).number }
                    result.append((entityColumn, number?.databaseValue ?? .null))
                }
            }
        }
        return result
    }

    func update(_ id: NSManagedObjectID, changedValues: [String: Any?]) throws {
        guard let pk = id.primaryKey else { return }
        let layout = try store.layout(of: id.entity)
        try noteObsoleteExternalData(of: id, layout: layout, names: Set(changedValues.keys))
        var columns = try assignments(for: id.entity, layout: layout, values: changedValues)
        if !store._triggerMaintainedColumns.isEmpty, let maintained = store._triggerMaintainedColumns[layout.table] {
            // The file's triggers keep these columns: writing the context's value too would count twice.
            columns.removeAll { maintained.contains($0.0) }
        }
        let sets = columns.map { "\($0.0) = ?" } + ["Z_OPT = Z_OPT + 1"]
        let sql = "UPDATE \(layout.table) SET \(sets.joined(separator: ", ")) WHERE Z_PK = ?"
        try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(databaseValues: columns.map(\.1) + [pk.databaseValue]))
    }

    /// Deletes the rows of deleted objects from their entity tables, a chunk of keys a statement (``SQLiteKeyLists``)
    /// per table (their join-table rows stay until ``deleteJoinRows(_:)``). The external data files of
    /// their externally stored values are noted as obsolete first.
    func deleteRows(_ ids: some Sequence<NSManagedObjectID>) throws {
        var keysByTable: [String: [Int64]] = [:]
        var tables: [String] = []
        var memo = EntityRunMemo<(table: String, external: Bool)>()
        for id in ids {
            guard let pk = id.primaryKey else { continue }
            let entity = try memo.value(for: id.entity) { entity in
                (try store.layout(of: entity).table, store.attributes(of: entity).values.contains { ExternalBinaryStorage.applies(to: $0) })
            }
            if entity.external { try noteObsoleteExternalData(of: id, layout: try store.layout(of: id.entity), names: nil) }
            if keysByTable[entity.table] == nil { tables.append(entity.table) }
            keysByTable[entity.table, default: []].append(pk)
        }
        for table in tables { try deleteKeyed(keysByTable[table] ?? [], from: table, column: "Z_PK") }
    }

    /// Deletes the join-table rows of deleted objects: for each many-to-many relationship, the rows of
    /// the objects on either side, a chunk of keys a statement (``SQLiteKeyLists``).
    func deleteJoinRows(_ ids: some Sequence<NSManagedObjectID>) throws {
        let schema = try store.schema()
        let model = try store.model()
        // The join-table columns naming rows of each entity, worked out once per entity.
        var columnsByEntity: [ObjectIdentifier: [(table: String, column: String)]] = [:]
        var keysByColumn: [String: (table: String, column: String, keys: [Int64])] = [:]
        var order: [String] = []
        for id in ids {
            guard let pk = id.primaryKey else { continue }
            let columns =
                try columnsByEntity[ObjectIdentifier(id.entity)]
                ?? {
                    let layout = try store.layout(of: id.entity)
                    var columns: [(table: String, column: String)] = []
                    for other in schema.entities {
                        guard let entity = model.entitiesByName[other.name] else { continue }
                        for (name, storage) in other.relationships {
                            guard case let .joinTable(table, sourceColumn, destinationColumn, _) = storage else { continue }
                            if other.name == layout.name { columns.append((table, sourceColumn)) }
                            if let destination = entity.relationshipsByName[name]?.destinationEntity, id.entity.isKindOf(entity: destination) {
                                columns.append((table, destinationColumn))
                            }
                        }
                    }
                    columnsByEntity[ObjectIdentifier(id.entity)] = columns
                    return columns
                }()
            for (table, column) in columns {
                let key = table + "." + column
                if keysByColumn[key] == nil {
                    order.append(key)
                    keysByColumn[key] = (table, column, [])
                }
                keysByColumn[key]?.keys.append(pk)
            }
        }
        for key in order {
            guard let group = keysByColumn[key] else { continue }
            try deleteKeyed(group.keys, from: group.table, column: group.column)
        }
    }

    /// `DELETE FROM table WHERE column IN (…)` for `keys` (and `owner.column = owner.key` when given), a
    /// chunk of keys a statement (``SQLiteKeyLists``).
    private func deleteKeyed(_ keys: [Int64], from table: String, column: String, where owner: (column: String, key: Int64)? = nil) throws {
        let condition = owner.map { "\($0.column) = ? AND " } ?? ""
        let ownerValues = owner.map { [$0.key.databaseValue] } ?? []
        try SQLiteKeyLists.forEachChunk(of: keys, in: db, head: "DELETE FROM \(table) WHERE \(condition)\(column)") { statement, chunk in
            try statement.execute(arguments: StatementArguments(databaseValues: ownerValues + chunk.map(\.databaseValue)))
        }
    }

    /// Writes the full contents of a to-many relationship of one object.
    func writeToMany(_ owner: NSManagedObjectID, _ name: String, _ destinations: [NSManagedObjectID]) throws {
        guard let ownerKey = owner.primaryKey else { return }
        let entity = owner.entity
        let layout = try store.layout(of: entity)
        guard let relationship = entity.relationshipsByName[name], relationship.isToMany,
            let storage = layout.relationships[name]
        else {
            throw saveError("\(entity.name ?? "") has no to-many relationship \(name).")
        }
        let keys = try destinations.map { try key($0, context: "The relationship \(name) of \(entity.name ?? "")").primaryKey ?? 0 }
        switch storage {
        case .foreignKey:
            return
        case let .inverseForeignKey(table, column, orderColumn):
            var entityColumn: String?
            if let inverse = relationship.inverseRelationship, let destination = relationship.destinationEntity,
                case let .foreignKey(_, inverseEntityColumn, _)? = try store.layout(of: destination).relationships[inverse.name]
            {
                entityColumn = inverseEntityColumn
            }
            // Rows that pointed to the owner and are no longer listed lose the key, unless the save sets
            // their to-one relationship itself.
            let inverseName = relationship.inverseRelationship?.name ?? ""
            let explicit = Set((explicitToOne[inverseName] ?? []).compactMap(\.primaryKey))
            let wanted = Set(keys)
            var clear = ["\(column) = NULL"]
            if let entityColumn { clear.append("\(entityColumn) = NULL") }
            if let orderColumn { clear.append("\(orderColumn) = NULL") }
            let current = try Int64.fetchAll(db.cachedStatement(sql: "SELECT Z_PK FROM \(table) WHERE \(column) = ?"), arguments: [ownerKey])
            let clearStatement = try db.cachedStatement(sql: "UPDATE \(table) SET \(clear.joined(separator: ", ")) WHERE Z_PK = ?")
            for key in current where !wanted.contains(key) && !explicit.contains(key) {
                try clearStatement.execute(arguments: [key])
            }
            var sets = ["\(column) = ?"]
            if entityColumn != nil { sets.append("\(entityColumn ?? "") = ?") }
            if let orderColumn { sets.append("\(orderColumn) = ?") }
            let statement = try db.cachedStatement(sql: "UPDATE \(table) SET \(sets.joined(separator: ", ")) WHERE Z_PK = ?")
            for (index, key) in keys.enumerated() {
                var arguments: [DatabaseValue] = [ownerKey.databaseValue]
                if entityColumn != nil { arguments.append(layout.number.databaseValue) }
                if orderColumn != nil { arguments.append((Int64(index + 1) * SQLiteStore.orderSpacing).databaseValue) }
                arguments.append(key.databaseValue)
                try statement.execute(arguments: StatementArguments(databaseValues: arguments))
            }
        case let .joinTable(table, sourceColumn, destinationColumn, orderColumn):
            let existing = try Int64.fetchAll(
                db.cachedStatement(sql: "SELECT \(destinationColumn) FROM \(table) WHERE \(sourceColumn) = ?"), arguments: [ownerKey])
            let wanted = Set(keys)
            // Only the links that change are written: removed links a chunk a statement; a new one.
            try deleteKeyed(existing.filter { !wanted.contains($0) }, from: table, column: destinationColumn, where: (sourceColumn, ownerKey))
            var present = Set(existing)
            let add = try db.cachedStatement(sql: "INSERT OR IGNORE INTO \(table) (\(sourceColumn), \(destinationColumn)) VALUES (?, ?)")
            for key in keys where present.insert(key).inserted {
                try add.execute(arguments: [ownerKey, key])
            }
            if let orderColumn {
                let order = try db.cachedStatement(
                    sql: "UPDATE \(table) SET \(orderColumn) = ? WHERE \(sourceColumn) = ? AND \(destinationColumn) = ?")
                for (index, key) in keys.enumerated() {
                    try order.execute(arguments: [Int64(index + 1) * SQLiteStore.orderSpacing, ownerKey, key])
                }
            }
        }
    }
}
