import GRDB

extension SQLiteStore {
    /// The destinations of a to-many relationship of many objects in one query per 10,000 owners, by
    /// owner, ordered as `storeRelatedObjectIDs(for:of:)` orders them. Owners with no destinations map to
    /// an empty array.
    func storeRelatedObjectIDs(
        for relationship: NSRelationshipDescription,
        ofAll owners: [NSManagedObjectID]
    ) throws -> [NSManagedObjectID: [NSManagedObjectID]] {
        var result: [NSManagedObjectID: [NSManagedObjectID]] = [:]
        guard let destination = relationship.destinationEntity, let first = owners.first else { return result }
        for owner in owners { result[owner] = [] }
        let layout = try layout(of: first.entity)
        guard let storage = layout.relationships[relationship.name] else { return result }
        let destinationLayout = try self.layout(of: destination)
        var ownersByKey: [Int64: NSManagedObjectID] = [:]
        for owner in owners { if let pk = owner.primaryKey { ownersByKey[pk] = owner } }
        let keys = Array(ownersByKey.keys).sorted()
        for start in stride(from: 0, to: keys.count, by: 10_000) {
            let chunk = Array(keys[start..<min(start + 10_000, keys.count)])
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let sql: String
            switch storage {
            case .foreignKey:
                return result
            case let .inverseForeignKey(table, column, orderColumn):
                let order = orderColumn.map { "\($0), Z_PK" } ?? "Z_PK"
                sql = "SELECT \(column), Z_PK, Z_ENT FROM \(table) WHERE \(column) IN (\(marks)) ORDER BY \(column), \(order)"
            case let .joinTable(table, sourceColumn, destinationColumn, orderColumn):
                let order = orderColumn.map { "J.\($0), J.\(destinationColumn)" } ?? "J.\(destinationColumn)"
                sql =
                    "SELECT J.\(sourceColumn), D.Z_PK, D.Z_ENT FROM \(table) J JOIN \(destinationLayout.table) D "
                    + "ON D.Z_PK = J.\(destinationColumn) WHERE J.\(sourceColumn) IN (\(marks)) ORDER BY J.\(sourceColumn), \(order)"
            }
            let rows = try read { db in
                try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(databaseValues: chunk.map(\.databaseValue)))
            }
            try SQLiteStoreFileAccess.run(fileURL) {
                for row in rows {
                    guard let ownerKey = try row.storedInteger(atIndex: 0), let owner = ownersByKey[ownerKey],
                        let key = try row.storedInteger(atIndex: 1)
                    else { continue }
                    let number: Int64? = try row.storedInteger(atIndex: 2)
                    let entity = try number.map { try self.entity(number: $0) } ?? destination
                    result[owner, default: []].append(NSManagedObjectID(entity: entity, store: self, primaryKey: key))
                }
            }
        }
        return result
    }
}

extension SQLiteStore {
    /// The destination rows of a one-to-many relationship of many objects, read whole in one query per
    /// 10,000 owners, by owner, each owner's in the order `storeRelatedObjectIDs(for:of:)` gives; `nil`
    /// for relationships stored otherwise, and when a row's entity number is outside the destination's
    /// hierarchy (the key-only read then handles it). Owners with no destinations map to an empty array.
    func storeRelatedRows(
        for relationship: NSRelationshipDescription,
        ofAll owners: [NSManagedObjectID]
    ) throws -> [NSManagedObjectID: [StoreRow]]? {
        guard let destination = relationship.destinationEntity, let first = owners.first else { return nil }
        let layout = try layout(of: first.entity)
        guard case let .inverseForeignKey(table, column, orderColumn) = layout.relationships[relationship.name] else { return nil }
        let (selection, entityIndex, numbers, order) = try relatedRowColumns(of: destination, orderColumn: orderColumn)
        let ownerIndex = entityIndex + 1
        var ownersByKey: [Int64: NSManagedObjectID] = [:]
        for owner in owners { if let pk = owner.primaryKey { ownersByKey[pk] = owner } }
        var result: [NSManagedObjectID: [StoreRow]] = [:]
        for owner in owners { result[owner] = [] }
        let keys = Array(ownersByKey.keys).sorted()
        for start in stride(from: 0, to: keys.count, by: 10_000) {
            let chunk = Array(keys[start..<min(start + 10_000, keys.count)])
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
            let sql =
                "SELECT \(selection.selectList(alias: "t0")), t0.Z_ENT, t0.\(column) FROM \(table) t0 "
                + "WHERE t0.\(column) IN (\(marks)) ORDER BY t0.\(column), \(order)"
            let complete = try read { db -> Bool in
                let statement = try db.makeStatement(sql: sql)
                let decoder = SQLiteFetchRowDecoder(
                    store: self, statement: statement, columns: selection.resultColumns, sharedPlans: selection.decodingPlans)
                let cursor = try Row.fetchCursor(statement, arguments: StatementArguments(databaseValues: chunk.map(\.databaseValue)))
                while let row = try cursor.next() {
                    guard let number = try row.storedInteger(atIndex: entityIndex), numbers.contains(number) else { return false }
                    guard let ownerKey = try row.storedInteger(atIndex: ownerIndex), let owner = ownersByKey[ownerKey] else { continue }
                    result[owner, default: []].append(try decoder.decode(row))
                }
                return true
            }
            guard complete else { return nil }
        }
        return result
    }
}

extension NSPersistentStoreCoordinator {
    /// The destinations of a to-many relationship of many objects, by owner: one query per store (per
    /// 10,000 owners) for SQLite stores, which read a one-to-many relationship's rows with it.
    func relatedObjectIDs(
        for relationship: NSRelationshipDescription,
        ofAll owners: [NSManagedObjectID]
    ) throws -> [NSManagedObjectID: [NSManagedObjectID]] {
        var byStore: [ObjectIdentifier: (NSPersistentStore, [NSManagedObjectID])] = [:]
        for owner in owners {
            guard let store = _store(of: owner) else { continue }
            byStore[ObjectIdentifier(store), default: (store, [])].1.append(owner)
        }
        var result: [NSManagedObjectID: [NSManagedObjectID]] = [:]
        for (store, ids) in byStore.values {
            if let sqlite = store as? SQLiteStore {
                // A one-to-many relationship's rows are read whole and join the row cache where it has
                // none for them, as `relatedObjectIDs(for:of:)` does for one owner.
                if !QueryGenerationScope.isPinned, let rows = try sqlite.storeRelatedRows(for: relationship, ofAll: ids) {
                    for (owner, ownerRows) in rows {
                        _rowCache.storeUncached(ownerRows)
                        result[owner] = ownerRows.map(\.objectID)
                    }
                    continue
                }
                result.merge(try sqlite.storeRelatedObjectIDs(for: relationship, ofAll: ids)) { $1 }
            } else {
                for id in ids { result[id] = try store._relatedObjectIDs(for: relationship, of: id) }
            }
        }
        return result
    }
}
