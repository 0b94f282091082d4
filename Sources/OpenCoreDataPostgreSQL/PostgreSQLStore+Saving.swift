import Foundation
import OpenCoreData
import PostgresNIO

extension PostgreSQLStore {
    /// Writes a save as one transaction: inserted rows with version 1, updated and deleted rows only where
    /// `Z_OPT` is still the version Core Data checked (a row changed by another process since then fails
    /// the save with 133020), join-table rows rewritten, and checks of locked objects under `FOR SHARE`.
    /// Any failure rolls the whole transaction back.
    func save(_ request: NSSaveChangesRequest, _ open: Open) throws {
        let schema = open.schema
        let inserted = Array(request.insertedObjects ?? []).sorted {
            $0.objectID.uriRepresentation().absoluteString < $1.objectID.uriRepresentation().absoluteString
        }
        let updated = Array(request.updatedObjects ?? [])
        let deleted = Array(request.deletedObjects ?? [])
        let locked = Array(request.lockedObjects ?? [])
        let expected = lock.withLock { state.readVersions }
        try open.connection.transaction {
            for object in locked {
                var binds = PostgresBindings()
                binds.append(try key(of: object.objectID))
                let result = try open.connection.run(
                    "SELECT \"Z_OPT\" FROM \(schema.table(of: entity(object, open))) WHERE \"Z_PK\" = $1 FOR SHARE", binds)
                let version = try result.rows.first?.first?.decode(Int32.self)
                if let want = expected[object.objectID], version.map(Int64.init) != want {
                    throw PostgreSQLErrors.conflict(open.location, object.objectID)
                }
            }
            for object in inserted { try write(object, insert: true, expected: nil, open) }
            for object in updated { try write(object, insert: false, expected: expected[object.objectID], open) }
            for object in inserted + updated { try writeJoins(object, replacing: !(request.insertedObjects?.contains(object) ?? false), open) }
            for object in deleted { try remove(object, expected: expected[object.objectID], open) }
        }
        lock.withLock {
            for object in inserted { state.readVersions[object.objectID] = 1 }
            for object in updated {
                if let version = expected[object.objectID] { state.readVersions[object.objectID] = version + 1 }
                state.fetchedRows[object.objectID] = nil
            }
            for object in deleted {
                state.readVersions[object.objectID] = nil
                state.fetchedRows[object.objectID] = nil
            }
        }
    }

    /// The model's entity of an object.
    private func entity(_ object: NSManagedObject, _ open: Open) -> NSEntityDescription {
        open.model.entitiesByName[object.entity.name ?? ""] ?? object.entity
    }

    /// Inserts an object's row, or updates it where its version is `expected`.
    private func write(_ object: NSManagedObject, insert: Bool, expected: Int64?, _ open: Open) throws {
        let schema = open.schema
        let entity = entity(object, open)
        let name = entity.name ?? ""
        var names: [String] = []
        var placeholders: [String] = []
        var binds = PostgresBindings()
        binds.append(try key(of: object.objectID))
        binds.append(Int32(schema.entityNumbers[name] ?? 0))
        let columns = schema.columns[name] ?? [:]
        for (property, column) in columns.sorted(by: { $0.value.name < $1.value.name }) where !property.contains("#") {
            if let attribute = entity.attributesByName[property] {
                try PostgreSQLValues.bind(object.value(forKey: property), as: attribute.attributeType, to: &binds)
                names.append(column.name)
                placeholders.append(PostgreSQLValues.placeholder(binds.count, as: attribute.attributeType))
            } else if entity.relationshipsByName[property] != nil {
                let destination = object.value(forKey: property) as? NSManagedObject
                if let destination {
                    binds.append(try key(of: destination.objectID))
                } else {
                    binds.appendNull()
                }
                names.append(column.name)
                placeholders.append("$\(binds.count)")
                if let entityColumn = columns[property + "#entity"] {
                    if let destination, let number = schema.entityNumbers[destination.entity.name ?? ""] {
                        binds.append(Int32(number))
                    } else {
                        binds.appendNull()
                    }
                    names.append(entityColumn.name)
                    placeholders.append("$\(binds.count)")
                }
            }
        }
        let table = schema.table(of: entity)
        if insert {
            let columnList = (["Z_PK", "Z_ENT", "Z_OPT"] + names).map(PostgreSQLSchema.quote).joined(separator: ", ")
            let values = (["$1", "$2", "1"] + placeholders).joined(separator: ", ")
            try open.connection.run("INSERT INTO \(table) (\(columnList)) VALUES (\(values))", binds)
            return
        }
        var assignments = zip(names, placeholders).map { "\(PostgreSQLSchema.quote($0)) = \($1)" }
        assignments.append("\"Z_OPT\" = \"Z_OPT\" + 1")
        var sql = "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE \"Z_PK\" = $1 AND \"Z_ENT\" = $2"
        if let expected {
            binds.append(Int32(clamping: expected))
            sql += " AND \"Z_OPT\" = $\(binds.count)"
        }
        let result = try open.connection.run(sql, binds)
        guard result.metadata.rows == 1 else { throw PostgreSQLErrors.conflict(open.location, object.objectID) }
    }

    /// Rewrites the join-table rows of an object's many-to-many relationships (those whose table it owns).
    private func writeJoins(_ object: NSManagedObject, replacing: Bool, _ open: Open) throws {
        let schema = open.schema
        let entity = entity(object, open)
        for relationship in entity.relationshipsByName.values where relationship.isToMany {
            guard let join = schema.joinTable(relationship.name, of: entity), join.forward else { continue }
            let key = try key(of: object.objectID)
            if replacing {
                var binds = PostgresBindings()
                binds.append(key)
                try open.connection.run("DELETE FROM \(schema.qualified(join.name)) WHERE \(PostgreSQLSchema.quote(join.sourceColumn)) = $1", binds)
            }
            let value = object.value(forKey: relationship.name)
            let destinations: [NSManagedObject] =
                (value as? Set<NSManagedObject>).map { Array($0) } ?? (value as? NSOrderedSet)?.array.compactMap { $0 as? NSManagedObject }
                ?? (value as? NSSet)?.allObjects.compactMap { $0 as? NSManagedObject } ?? []
            for destination in destinations {
                var binds = PostgresBindings()
                binds.append(key)
                binds.append(try self.key(of: destination.objectID))
                try open.connection.run(
                    "INSERT INTO \(schema.qualified(join.name)) (\(PostgreSQLSchema.quote(join.sourceColumn)), \(PostgreSQLSchema.quote(join.destinationColumn))) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                    binds)
            }
        }
    }

    /// Deletes an object's row where its version is `expected`, and its join-table rows.
    private func remove(_ object: NSManagedObject, expected: Int64?, _ open: Open) throws {
        let schema = open.schema
        let entity = entity(object, open)
        let key = try key(of: object.objectID)
        var binds = PostgresBindings()
        binds.append(key)
        var sql = "DELETE FROM \(schema.table(of: entity)) WHERE \"Z_PK\" = $1"
        if let expected {
            binds.append(Int32(clamping: expected))
            sql += " AND \"Z_OPT\" = $2"
        }
        let result = try open.connection.run(sql, binds)
        guard result.metadata.rows == 1 else { throw PostgreSQLErrors.conflict(open.location, object.objectID) }
        var lineage: Set<String> = []
        var current: NSEntityDescription? = entity
        while let next = current {
            lineage.insert(next.name ?? "")
            current = next.superentity
        }
        for join in schema.allJoinTables {
            for (column, owner) in [(join.sourceColumn, join.sourceEntity), (join.destinationColumn, join.destinationEntity)]
            where lineage.contains(owner) {
                var binds = PostgresBindings()
                binds.append(key)
                try open.connection.run("DELETE FROM \(schema.qualified(join.name)) WHERE \(PostgreSQLSchema.quote(column)) = $1", binds)
            }
        }
    }
}
