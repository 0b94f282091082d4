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
        guard let pk = objectID.primaryKey, relationship.destinationEntity != nil else { return nil }
        let layout = try layout(of: objectID.entity)
        guard case let .inverseForeignKey(table, column, orderColumn) = layout.relationships[relationship.name] else { return nil }
        let order = orderColumn.map { "\($0), Z_PK" } ?? "Z_PK"
        let sql = "SELECT * FROM \(table) WHERE \(column) = ? ORDER BY \(order)"
        let rows = try read(isolated: false) { db in
            try Row.fetchAll(db.cachedStatement(sql: sql), arguments: [pk]).map(decodeTableRow)
        }
        logRelationshipFault(relationship, of: objectID, rows: rows.count)
        return rows
    }
}
