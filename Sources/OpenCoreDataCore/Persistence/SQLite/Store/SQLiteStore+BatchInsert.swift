import GRDB

/// Batch inserts: keys from `Z_PRIMARYKEY`, one prepared `INSERT` reused for every row, all in one
/// transaction. Rows that match a stored row on one of the entity's uniqueness constraints update it.
extension SQLiteStore {
    func batchInsert(_ operation: BatchInsertOperation) throws -> [NSManagedObjectID] {
        let entity = operation.entity
        let entityName = entity.name ?? ""
        let layout = try layout(of: entity)
        let attributes = attributes(of: entity)

        // Every stored column of the entity's attributes, with the attribute (or composite element) it holds.
        var columns: [(column: String, attribute: NSAttributeDescription, name: String, path: String)] = []
        for (name, attribute) in attributes.sorted(by: { $0.key < $1.key }) {
            if let composite = attribute as? NSCompositeAttributeDescription {
                for (path, element) in SQLiteCompositeValues.leaves(of: composite, path: name) {
                    if let column = layout.attributeColumns[path] { columns.append((column, element, name, path)) }
                }
            } else if let column = layout.attributeColumns[name] {
                columns.append((column, attribute, name, name))
            }
        }
        // Encode every row before writing: a bad value fails the request before the transaction starts.
        let encoded: [[DatabaseValue]] = try operation.rows.enumerated().map { index, row in
            var compositeValues: [String: [String: Any?]] = [:]
            for (name, attribute) in attributes {
                guard let composite = attribute as? NSCompositeAttributeDescription, let value = row[name] else { continue }
                do {
                    compositeValues[name] = try SQLiteCompositeValues.elementValues(of: value, composite: composite, path: name)
                } catch let failure as TransformableStorage.Failure {
                    throw batchInsertError(index, failure.message)
                }
            }
            return try columns.map { column in
                let value: Any? = column.name == column.path ? row[column.name] : (compositeValues[column.name]?[column.path] ?? nil)
                do {
                    return try batchColumnValue(value, for: column.attribute, entityName: entityName)
                } catch let error as NSError {
                    throw batchInsertError(index, error.localizedDescription, code: error.code)
                }
            }
        }
        let constraints = try uniquenessColumns(of: entity, layout: layout, columns: columns.map(\.column))
        let names = ["Z_PK", "Z_ENT", "Z_OPT"] + columns.map(\.column)
        let insertSQL =
            "INSERT INTO \(layout.table) (\(names.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))"
        let updateSQL =
            "UPDATE \(layout.table) SET \((columns.map { "\($0.column) = ?" } + ["Z_OPT = Z_OPT + 1"]).joined(separator: ", ")) WHERE Z_PK = ?"

        let author = HistoryAuthor.current
        return try writeTransaction { db -> [NSManagedObjectID] in
            let keys = try Self.allocatePrimaryKeys(in: db, rootNumber: layout.rootNumber, count: encoded.count)
            let insert = try db.makeStatement(sql: insertSQL)
            let update = try db.makeStatement(sql: updateSQL)
            var ids: [NSManagedObjectID] = []
            ids.reserveCapacity(encoded.count)
            // For the history: the new rows, and the rows stored before that a uniqueness constraint matched.
            var inserted: [NSManagedObjectID] = [], overwritten: [NSManagedObjectID] = []
            var seen = Set<Int64>()
            for (values, key) in zip(encoded, keys) {
                if let existing = try self.matchingRow(values, constraints: constraints, table: layout.table, in: db) {
                    try update.execute(arguments: StatementArguments(databaseValues: values + [existing.databaseValue]))
                    ids.append(NSManagedObjectID(entity: entity, store: self, primaryKey: existing))
                    if seen.insert(existing).inserted { overwritten.append(ids[ids.count - 1]) }
                } else {
                    try insert.execute(
                        arguments: StatementArguments(databaseValues: [key.databaseValue, layout.number.databaseValue, 1.databaseValue] + values))
                    ids.append(NSManagedObjectID(entity: entity, store: self, primaryKey: key))
                    seen.insert(key)
                    inserted.append(ids[ids.count - 1])
                }
            }
            if let tracking = self._history {
                try SQLiteHistoryRecorder(store: self, tracking: tracking, db: db).recordBatchInsert(
                    inserted: inserted, updated: overwritten, names: Array(Set(columns.map(\.name))), author: author)
            }
            return ids
        }
    }

    /// For each uniqueness constraint of the entity (and its parents), the positions of its columns
    /// among `columns` and the entity numbers the constraint spans (the declaring entity and its
    /// subentities); constraints naming something without a column are left out.
    private func uniquenessColumns(
        of entity: NSEntityDescription, layout: SQLiteEntityLayout,
        columns: [String]
    ) throws -> [(columns: [(String, Int)], family: [Int])] {
        var result: [(columns: [(String, Int)], family: [Int])] = []
        var current: NSEntityDescription? = entity
        while let level = current {
            for constraint in level.uniquenessConstraints {
                let names = constraint.compactMap { element -> String? in
                    if let name = element as? String { return name }
                    return (element as? NSPropertyDescription)?.name
                }
                let positions = names.compactMap { name -> (String, Int)? in
                    guard let column = layout.attributeColumns[name], let index = columns.firstIndex(of: column) else { return nil }
                    return (column, index)
                }
                if !positions.isEmpty, positions.count == names.count {
                    result.append((positions, try self.layout(of: level).numbersIncludingSubentities))
                }
            }
            current = level.superentity
        }
        return result
    }

    /// The key of a stored row of the entity's family with the same values on one of the constraints
    /// (values that are all present: a constraint with a nil value matches no row).
    private func matchingRow(
        _ values: [DatabaseValue], constraints: [(columns: [(String, Int)], family: [Int])], table: String,
        in db: Database
    ) throws -> Int64? {
        for (constraint, family) in constraints {
            // As with SQL UNIQUE, a missing value matches nothing.
            if constraint.contains(where: { values[$0.1].isNull }) { continue }
            let conditions = constraint.map { "\($0.0) = ?" }.joined(separator: " AND ")
            let entities = family.map(String.init).joined(separator: ", ")
            let sql = "SELECT Z_PK FROM \(table) WHERE Z_ENT IN (\(entities)) AND \(conditions) LIMIT 1"
            if let key = try Int64.fetchOne(
                db.cachedStatement(sql: sql), arguments: StatementArguments(databaseValues: constraint.map { values[$0.1] }))
            {
                return key
            }
        }
        return nil
    }

    private func batchInsertError(_ index: Int, _ message: String, code: Int = NSManagedObjectValidationError) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: code,
            userInfo: [
                NSLocalizedDescriptionKey: "Object \(index) of the batch insert: \(message)"
            ])
    }
}
