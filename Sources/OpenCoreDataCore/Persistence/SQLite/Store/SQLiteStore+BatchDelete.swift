import GRDB

/// Batch deletes: the requested rows, the rows their cascading relationships reach, the cleared
/// references of nullifying relationships, the join-table rows and the external data files of the
/// deleted rows — all in one transaction (the files are removed once it commits).
extension SQLiteStore {
    /// The most keys bound in one `IN (…)` list.
    static let batchChunkSize = 500

    func batchDelete(_ operation: BatchDeleteOperation) throws -> BatchDeleteOutcome {
        let requestQuery: SQLiteCompiledQuery?
        if let fetch = operation.fetchRequest {
            let copy = fetch._retyped(as: NSManagedObjectID.self)
            copy.entity = operation.entity
            requestQuery = try objectIDQuery(copy)
        } else {
            requestQuery = nil
        }
        var externalFiles: [URL] = []
        let author = HistoryAuthor.current
        let outcome = try writeTransaction { db -> BatchDeleteOutcome in
            let requested: [NSManagedObjectID]
            if let requestQuery {
                requested = try self.objectIDs(requestQuery, in: db)
            } else {
                requested = try self.existingRows(operation.objectIDs ?? [], in: db)
            }
            var plan = BatchDeletePlan(store: self, db: db)
            try plan.close(over: requested)
            try plan.checkDenyRules()
            externalFiles = try plan.externalDataFiles()
            let history = self._history.map { SQLiteHistoryRecorder(store: self, tracking: $0, db: db) }
            let tombstones = try history?.tombstones(of: plan.deleted) ?? [:]
            let nullified = try plan.nullifyReferences()
            try plan.deleteRows()
            try history?.recordBatchDelete(deleted: plan.deleted, nullified: nullified, tombstones: tombstones, author: author)
            return BatchDeleteOutcome(deleted: plan.deleted, requested: requested, nullified: nullified)
        }
        for file in externalFiles {
            try? FileManager.default.removeItem(at: file)
        }
        return outcome
    }

    /// The IDs of this store among `ids` whose rows exist.
    private func existingRows(_ ids: [NSManagedObjectID], in db: Database) throws -> [NSManagedObjectID] {
        var result: [NSManagedObjectID] = []
        for id in ids where id.storeIdentifier == identifier {
            guard let key = id.primaryKey else { continue }
            let table = try layout(of: id.entity).table
            if let number = try Int64.fetchOne(db.cachedStatement(sql: "SELECT Z_ENT FROM \(table) WHERE Z_PK = ?"), arguments: [key]) {
                result.append(NSManagedObjectID(entity: try entity(number: number), store: self, primaryKey: key))
            }
        }
        return result
    }

    /// The folder of externally stored binary values: `.<store name>_SUPPORT/_EXTERNAL_DATA` beside the store.
    var externalDataFolder: URL {
        let name = fileURL.deletingPathExtension().lastPathComponent
        return fileURL.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT").appendingPathComponent("_EXTERNAL_DATA")
    }
}

/// The rows one batch delete removes, found by following cascading relationships from the requested rows.
private struct BatchDeletePlan {
    let store: SQLiteStore
    let db: Database
    /// Every row to delete, in the order found.
    private(set) var deleted: [NSManagedObjectID] = []
    /// The keys to delete per table.
    private var keysByTable: [String: Set<Int64>] = [:]
    /// The keys to delete per entity number (rows of one entity are handled together).
    private var keysByEntity: [Int64: [Int64]] = [:]

    init(store: SQLiteStore, db: Database) {
        self.store = store
        self.db = db
    }

    /// Adds the requested rows and, transitively, the destinations of their cascading relationships.
    mutating func close(over requested: [NSManagedObjectID]) throws {
        var pending = requested
        while !pending.isEmpty {
            var added: [NSManagedObjectID] = []
            for id in pending where try add(id) { added.append(id) }
            pending = []
            for (entity, keys) in try group(added) {
                for relationship in store.relationships(of: entity).values.sorted(by: { $0.name < $1.name })
                where relationship.deleteRule == .cascadeDeleteRule {
                    pending += try destinations(of: relationship, from: entity, keys: keys)
                }
            }
        }
    }

    /// Records a row; `false` when it was already recorded.
    private mutating func add(_ id: NSManagedObjectID) throws -> Bool {
        guard let key = id.primaryKey else { return false }
        let layout = try store.layout(of: id.entity)
        guard keysByTable[layout.table, default: []].insert(key).inserted else { return false }
        keysByEntity[Int64(layout.number), default: []].append(key)
        deleted.append(id)
        return true
    }

    /// Rows grouped by entity.
    private func group(_ ids: [NSManagedObjectID]) throws -> [(NSEntityDescription, [Int64])] {
        var byName: [String: (NSEntityDescription, [Int64])] = [:]
        for id in ids {
            guard let key = id.primaryKey else { continue }
            byName[id.entity.name ?? "", default: (id.entity, [])].1.append(key)
        }
        return byName.keys.sorted().compactMap { byName[$0] }
    }

    /// The destinations of a relationship from some rows of an entity.
    private func destinations(
        of relationship: NSRelationshipDescription, from entity: NSEntityDescription,
        keys: [Int64]
    ) throws -> [NSManagedObjectID] {
        guard let destination = relationship.destinationEntity,
            let storage = try store.layout(of: entity).relationships[relationship.name]
        else { return [] }
        let layout = try store.layout(of: entity)
        let destinationLayout = try store.layout(of: destination)
        var result: [NSManagedObjectID] = []
        for chunk in keys.chunked(SQLiteStore.batchChunkSize) {
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let sql: String
            switch storage {
            case let .foreignKey(column, _, _):
                sql =
                    "SELECT D.Z_PK, D.Z_ENT FROM \(layout.table) S JOIN \(destinationLayout.table) D ON D.Z_PK = S.\(column) WHERE S.Z_PK IN (\(marks))"
            case let .inverseForeignKey(table, column, _):
                sql = "SELECT Z_PK, Z_ENT FROM \(table) WHERE \(column) IN (\(marks))"
            case let .joinTable(table, sourceColumn, destinationColumn, _):
                sql =
                    "SELECT D.Z_PK, D.Z_ENT FROM \(table) J JOIN \(destinationLayout.table) D ON D.Z_PK = J.\(destinationColumn) WHERE J.\(sourceColumn) IN (\(marks))"
            }
            for row in try Row.fetchAll(db.makeStatement(sql: sql), arguments: StatementArguments(databaseValues: chunk)) {
                let key: Int64 = try row.requiredStoredInteger(atIndex: 0)
                let number: Int64 = try row.requiredStoredInteger(atIndex: 1)
                result.append(NSManagedObjectID(entity: try store.entity(number: number), store: store, primaryKey: key))
            }
        }
        return result
    }

    /// Fails when a deleted row still has destinations, outside the delete, in a relationship with the deny rule.
    func checkDenyRules() throws {
        for (number, keys) in keysByEntity.sorted(by: { $0.key < $1.key }) {
            let entity = try store.entity(number: number)
            for relationship in store.relationships(of: entity).values.sorted(by: { $0.name < $1.name })
            where relationship.deleteRule == .denyDeleteRule {
                let remaining = try destinations(of: relationship, from: entity, keys: keys).filter { id in
                    guard let key = id.primaryKey, let table = try? store.layout(of: id.entity).table else { return false }
                    return !(keysByTable[table]?.contains(key) ?? false)
                }
                if let first = remaining.first {
                    throw NSError(
                        domain: NSCocoaErrorDomain, code: NSValidationRelationshipDeniedDeleteError,
                        userInfo: [
                            NSLocalizedDescriptionKey:
                                "The batch delete would delete objects of \(entity.name ?? "") whose relationship \(relationship.name) still holds objects (\(first.uriRepresentation().absoluteString)), and its delete rule is deny. Nothing was deleted.",
                            NSValidationKeyErrorKey: relationship.name,
                        ])
                }
            }
        }
    }

    /// The external data files of the attributes of the deleted rows stored outside the store.
    func externalDataFiles() throws -> [URL] {
        var files: [URL] = []
        for (number, keys) in keysByEntity.sorted(by: { $0.key < $1.key }) {
            let entity = try store.entity(number: number)
            let layout = try store.layout(of: entity)
            let columns = store.attributes(of: entity).values
                .filter { $0.allowsExternalBinaryDataStorage }
                .compactMap { layout.attributeColumns[$0.name] }
                .sorted()
            for column in columns {
                for chunk in keys.chunked(SQLiteStore.batchChunkSize) {
                    let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                    let sql = "SELECT \(column) FROM \(layout.table) WHERE Z_PK IN (\(marks)) AND \(column) IS NOT NULL"
                    for data in try Data.fetchAll(db.makeStatement(sql: sql), arguments: StatementArguments(databaseValues: chunk)) {
                        // Tag byte 0x02, then the ASCII UUID naming the file.
                        guard data.first == 0x02 else { continue }
                        let name = String(decoding: data.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
                        guard UUID(uuidString: name) != nil else { continue }
                        files.append(store.externalDataFolder.appendingPathComponent(name))
                    }
                }
            }
        }
        return files
    }

    /// Clears references to deleted rows held by the inverses of their nullifying relationships; returns
    /// the rows changed (their version goes up by one).
    func nullifyReferences() throws -> [NSManagedObjectID] {
        var changed: [NSManagedObjectID] = []
        for (number, keys) in keysByEntity.sorted(by: { $0.key < $1.key }) {
            let entity = try store.entity(number: number)
            for relationship in store.relationships(of: entity).values.sorted(by: { $0.name < $1.name })
            where relationship.deleteRule == .nullifyDeleteRule {
                guard let inverse = relationship.inverseRelationship, !inverse.isToMany,
                    let destination = relationship.destinationEntity,
                    case let .foreignKey(column, entityColumn, orderColumn)? = try store.layout(of: destination).relationships[inverse.name]
                else { continue }
                let table = try store.layout(of: destination).table
                let deletedThere = keysByTable[table] ?? []
                var clears = ["\(column) = NULL"]
                if let entityColumn { clears.append("\(entityColumn) = NULL") }
                if let orderColumn { clears.append("\(orderColumn) = NULL") }
                clears.append("Z_OPT = Z_OPT + 1")
                for chunk in keys.chunked(SQLiteStore.batchChunkSize) {
                    let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                    let rows = try Row.fetchAll(
                        db.makeStatement(sql: "SELECT Z_PK, Z_ENT FROM \(table) WHERE \(column) IN (\(marks))"),
                        arguments: StatementArguments(databaseValues: chunk))
                    let survivors = try rows.compactMap { row -> NSManagedObjectID? in
                        let key: Int64 = try row.requiredStoredInteger(atIndex: 0)
                        guard !deletedThere.contains(key) else { return nil }
                        let number: Int64 = try row.requiredStoredInteger(atIndex: 1)
                        return NSManagedObjectID(entity: try store.entity(number: number), store: store, primaryKey: key)
                    }
                    guard !survivors.isEmpty else { continue }
                    let survivorKeys = survivors.compactMap(\.primaryKey)
                    let survivorMarks = Array(repeating: "?", count: survivorKeys.count).joined(separator: ", ")
                    try db.execute(
                        sql: "UPDATE \(table) SET \(clears.joined(separator: ", ")) WHERE Z_PK IN (\(survivorMarks))",
                        arguments: StatementArguments(databaseValues: survivorKeys))
                    changed += survivors
                }
            }
        }
        return changed
    }

    /// Deletes the rows and the join-table rows that mention them.
    func deleteRows() throws {
        let schema = try store.schema()
        let model = try store.model()
        for (table, keys) in keysByTable.sorted(by: { $0.key < $1.key }) {
            for chunk in keys.sorted().chunked(SQLiteStore.batchChunkSize) {
                let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                try db.execute(sql: "DELETE FROM \(table) WHERE Z_PK IN (\(marks))", arguments: StatementArguments(databaseValues: chunk))
            }
        }
        // Join tables: rows whose source or destination was deleted.
        var done = Set<String>()
        for layout in schema.entities {
            guard let entity = model.entitiesByName[layout.name] else { continue }
            for (name, storage) in layout.relationships.sorted(by: { $0.key < $1.key }) {
                guard case let .joinTable(table, sourceColumn, destinationColumn, _) = storage,
                    let destination = entity.relationshipsByName[name]?.destinationEntity
                else { continue }
                let sides = [(sourceColumn, layout.table), (destinationColumn, try store.layout(of: destination).table)]
                for (column, ownerTable) in sides where done.insert("\(table).\(column)").inserted {
                    guard let keys = keysByTable[ownerTable], !keys.isEmpty else { continue }
                    for chunk in keys.sorted().chunked(SQLiteStore.batchChunkSize) {
                        let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
                        try db.execute(
                            sql: "DELETE FROM \(table) WHERE \(column) IN (\(marks))", arguments: StatementArguments(databaseValues: chunk))
                    }
                }
            }
        }
    }
}

extension Array {
    /// The array cut into consecutive pieces of at most `size` elements.
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
