import GRDB

/// Uniqueness constraints in a SQLite store: the save's objects are checked with queries inside the
/// save's `BEGIN IMMEDIATE` transaction, before any row is written, so that a duplicate is reported as
/// ``StoreConstraintConflicts`` (and resolved by the context's merge policy) instead of failing on the
/// table's `Z_<Entity>_UNIQUE_…` index, which stays as the last guard.
extension SQLiteStore {
    func checkUniquenessConstraints(_ changes: StoreSaveChanges, in db: Database) throws {
        guard _model?._frozenHasUniquenessConstraints != false else { return }
        try UniquenessConstraintCheck.check(
            changes,
            currentRow: { id in
                guard let pk = id.primaryKey else { return nil }
                let layout = try self.layout(of: id.entity)
                let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM \(layout.table) WHERE Z_PK = ?"), arguments: [pk])
                return try row.map(self.decodeTableRow)
            },
            matching: { entity, names, values in
                try self.rows(of: entity, matching: names, values, in: db)
            })
    }

    /// Clears the unique columns an update is about to change, so that updates exchanging unique values
    /// within one save (a → b, b → a) never meet on the unique index half-way. Called inside the save's
    /// transaction after the checks; each update then writes its new values.
    func vacateUniqueColumns(_ changes: StoreSaveChanges, in db: Database) throws {
        for update in changes.updated {
            guard let pk = update.objectID.primaryKey else { continue }
            let layout = try layout(of: update.objectID.entity)
            var columns: Set<String> = []
            for constraint in UniquenessConstraintCheck.constraints(of: update.objectID.entity)
            where constraint.names.contains(where: { update.changedValues.keys.contains($0) }) {
                for name in constraint.names where update.changedValues.keys.contains(name) {
                    if let column = layout.attributeColumns[name] {
                        columns.insert(column)
                    } else if case let .foreignKey(column, _, _)? = layout.relationships[name] {
                        columns.insert(column)
                    }
                }
            }
            guard !columns.isEmpty else { continue }
            let sets = columns.sorted().map { "\($0) = NULL" }.joined(separator: ", ")
            try db.cachedStatement(sql: "UPDATE \(layout.table) SET \(sets) WHERE Z_PK = ?").execute(arguments: [pk])
        }
    }

    /// The rows of an entity (subentities included) whose named properties hold the given values.
    private func rows(
        of entity: NSEntityDescription, matching names: [String], _ values: [Any],
        in db: Database
    ) throws -> [StoreRow] {
        let layout = try layout(of: entity)
        let attributes = attributes(of: entity)
        var conditions: [String] = []
        var arguments: [DatabaseValue] = []
        for (name, value) in zip(names, values) {
            if let attribute = attributes[name], let column = layout.attributeColumns[name] {
                conditions.append("\(column) = ?")
                do {
                    arguments.append(try SQLiteStoreValues.databaseValue(for: value, attribute: attribute))
                } catch {
                    return []
                }
            } else if case let .foreignKey(column, _, _)? = layout.relationships[name] {
                // A destination not saved yet cannot be referred to by a stored row.
                guard let key = (value as? ObjectIDRepresentable)?.objectIDForStore.primaryKey else { return [] }
                conditions.append("\(column) = ?")
                arguments.append(key.databaseValue)
            } else {
                return []
            }
        }
        let numbers = layout.numbersIncludingSubentities.map(String.init).joined(separator: ", ")
        conditions.append("Z_ENT IN (\(numbers))")
        let sql = "SELECT * FROM \(layout.table) WHERE \(conditions.joined(separator: " AND "))"
        return try Row.fetchAll(db.cachedStatement(sql: sql), arguments: StatementArguments(databaseValues: arguments)).map(decodeTableRow)
    }
}
