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
        guard let pk = objectID.primaryKey, let destination = relationship.destinationEntity else { return nil }
        let layout = try layout(of: objectID.entity)
        guard case let .inverseForeignKey(table, column, orderColumn) = layout.relationships[relationship.name] else { return nil }
        let (selection, entityIndex, numbers, order) = try relatedRowColumns(of: destination, orderColumn: orderColumn)
        let sql = "SELECT \(selection.selectList(alias: "t0")), t0.Z_ENT FROM \(table) t0 WHERE t0.\(column) = ? ORDER BY \(order)"
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
