import GRDB

extension SQLiteStore {
    /// The destination rows of a one-to-many relationship of one object, read whole in one query, in the
    /// order `storeRelatedObjectIDs(for:of:)` gives their IDs; `nil` for relationships stored otherwise
    /// (a foreign key of the object itself, or a join table), whose destinations are read as keys only.
    ///
    /// A to-many fault that reads its destinations' keys alone leaves each destination a fault that runs
    /// a query of its own when first read: walking an object's posts ran one statement per post. Read
    /// whole, the rows go to the coordinator's row cache with the IDs, and each destination's fault fires
    /// from there.
    func storeRelatedRows(for relationship: NSRelationshipDescription, of objectID: NSManagedObjectID) throws -> [StoreRow]? {
        guard let pk = objectID.primaryKey, let query = try relatedRowQuery(for: relationship, of: objectID.entity) else { return nil }
        let (sql, selection, entityIndex, numbers) = (query.sql, query.selection, query.entityIndex, query.numbers)
        let rows = try read(isolated: false) { db -> [StoreRow]? in
            let statement = try db.cachedStatement(sql: sql)
            let decoder = SQLiteFetchRowDecoder(
                store: self, statement: statement, columns: selection.resultColumns, sharedPlans: selection.decodingPlans)
            var rows: [StoreRow] = []
            let cursor = try Row.fetchCursor(statement, arguments: [pk])
            while let row = try cursor.next() {
                guard let number = try row.storedInteger(atIndex: entityIndex), numbers.contains(number) else { return nil }
                rows.append(try decoder.decode(row))
            }
            return rows
        }
        guard let rows else { return nil }
        logRelationshipFault(relationship, of: objectID, rows: rows.count)
        return rows
    }

    /// The read of `relationship`'s rows for owners of `entity`, made the first time it is asked for;
    /// `nil` when the relationship is not stored as the destination's foreign key.
    func relatedRowQuery(for relationship: NSRelationshipDescription, of entity: NSEntityDescription) throws -> SQLiteRelatedRowQuery? {
        let key = SQLiteRelatedRowQuery.Key(relationship: ObjectIdentifier(relationship), owner: ObjectIdentifier(entity))
        if let query = _relatedRowQueries.withLock({ $0[key] }) { return query }
        guard let destination = relationship.destinationEntity,
            case let .inverseForeignKey(table, column, orderColumn) = try layout(of: entity).relationships[relationship.name]
        else { return nil }
        let (selection, entityIndex, numbers, order) = try relatedRowColumns(of: destination, orderColumn: orderColumn)
        let query = SQLiteRelatedRowQuery(
            sql: "SELECT \(selection.selectList(alias: "t0")), t0.Z_ENT FROM \(table) t0 WHERE t0.\(column) = ? ORDER BY \(order)",
            selection: selection, entityIndex: entityIndex, numbers: numbers)
        _relatedRowQueries.withLock { $0[key] = query }
        return query
    }

    /// What a read of a one-to-many relationship's rows selects and checks: the columns a fetch of the
    /// destination entity and its subentities selects (decoded with the plans such fetches share), the
    /// position of each row's `Z_ENT` selected after them, the entity numbers of the destination's
    /// hierarchy, and the order of each owner's rows. `Z_ENT` is checked: a damaged one fails the read as
    /// a key-only read of it does, and a row of an entity outside the hierarchy sends the caller to
    /// that read.
    func relatedRowColumns(
        of destination: NSEntityDescription, orderColumn: String?
    ) throws -> (selection: SQLiteRowSelection, entityIndex: Int, numbers: Set<Int64>, order: String) {
        let layout = try self.layout(of: destination)
        let selection = try compiler().rowSelection(of: destination, layout: layout, includesSubentities: true, alias: "t0")
        return (
            selection, selection.resultColumns.count, Set(layout.numbersIncludingSubentities.map(Int64.init)),
            orderColumn.map { "t0.\($0), t0.Z_PK" } ?? "t0.Z_PK"
        )
    }
}

/// The statement and column set-up of the read of a one-to-many relationship's rows for one owner: made
/// once per relationship and owner entity, as the relationship's faults fire one owner at a time.
///
/// Keyed by the identities of the relationship and the owner entity, which belong to the store's model
/// and live as long as the store.
struct SQLiteRelatedRowQuery: Sendable {
    struct Key: Hashable, Sendable {
        let relationship: ObjectIdentifier
        let owner: ObjectIdentifier
    }

    /// `SELECT <the destination's fetch columns>, t0.Z_ENT FROM <table> t0 WHERE t0.<key> = ? ORDER BY …`.
    let sql: String
    /// The destination's fetch columns and their decoding plans.
    let selection: SQLiteRowSelection
    /// The position of `Z_ENT` in the result.
    let entityIndex: Int
    /// The entity numbers of the destination's hierarchy.
    let numbers: Set<Int64>
}
