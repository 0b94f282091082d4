/// The indexes of the entity tables.
extension SQLiteSchemaBuilder {
    /// Adds, per entity table: an index on each to-one foreign-key column (`<TABLE>_<COLUMN>_INDEX`),
    /// an index on `Z_ENT` when the table holds subentities (`<TABLE>_Z_ENT_INDEX`), the fetch indexes
    /// (`Z_<Entity>_<index>`) and the uniqueness constraints (`Z_<Entity>_UNIQUE_<a>_<b>`) of every
    /// entity of the tree. All four forms are verified against Apple-written stores (Bookmarks,
    /// CoreDataPlus, CoreDataMigration, Recipes).
    mutating func addIndexes() throws {
        for entity in ordered where root(of: entity) === entity {
            let table = tableName(of: entity)
            for column in tableColumns[number(of: entity)] ?? [] {
                if case .foreignKey = column.role {
                    indexes.append(
                        SQLiteIndex(
                            name: "\(table)_\(column.name)_INDEX", table: table,
                            elements: [.plain(column.name)], isUnique: false))
                }
            }
            if hasSubentities(entity) {
                indexes.append(
                    SQLiteIndex(
                        name: "\(table)_Z_ENT_INDEX", table: table,
                        elements: [.plain("Z_ENT")], isUnique: false))
            }
        }
        for entity in ordered {
            try addFetchIndexes(of: entity)
            try addUniquenessConstraints(of: entity)
        }
    }

    /// The column that stores a property of an entity (an attribute's column or a to-one
    /// relationship's foreign key), or `nil` when the property has no single column.
    func column(for propertyName: String, of entity: NSEntityDescription) -> String? {
        var current: NSEntityDescription? = entity
        while let next = current, members.contains(ObjectIdentifier(next)) {
            let entityNumber = number(of: next)
            if let column = ownAttributeColumns[entityNumber]?[propertyName] { return column }
            if case let .foreignKey(column, _, _)? = ownRelationships[entityNumber]?[propertyName] { return column }
            current = next.superentity
        }
        return nil
    }

    /// `CREATE INDEX Z_<Entity>_<name> ON <TABLE> (<COLUMN> COLLATE BINARY ASC|DESC, …)`.
    mutating func addFetchIndexes(of entity: NSEntityDescription) throws {
        let entityName = Self.name(entity)
        for index in entity.indexes {
            if index.partialIndexPredicate != nil {
                throw _sqliteSchemaError(
                    "fetch index \"\(index.name)\" of entity \"\(entityName)\" has a partial index predicate, which the SQLite store does not build")
            }
            var elements: [SQLiteIndex.Element] = []
            for element in index.elements {
                let propertyName = element.propertyName ?? ""
                if element.collationType == .rTree {
                    throw _sqliteSchemaError(
                        "fetch index \"\(index.name)\" of entity \"\(entityName)\" is an R-tree index, which the SQLite store does not build")
                }
                guard let column = column(for: propertyName, of: entity) else {
                    throw _sqliteSchemaError(
                        "fetch index \"\(index.name)\" of entity \"\(entityName)\" names \"\(propertyName)\", which has no column")
                }
                elements.append(SQLiteIndex.Element(column: column, collation: "BINARY", ascending: element.isAscending))
            }
            guard !elements.isEmpty else { continue }
            indexes.append(
                SQLiteIndex(
                    name: "Z_\(entityName)_\(index.name)", table: tableName(of: entity),
                    elements: elements, isUnique: false))
        }
    }

    /// `CREATE UNIQUE INDEX Z_<Entity>_UNIQUE_<a>_<b> ON <TABLE> (<A> COLLATE BINARY ASC, …)` for each
    /// constraint the entity declares itself (verified: CoreDataPlus `Z_Car_UNIQUE_numberPlate`,
    /// `Z_Person_UNIQUE_firstName_lastName`; subentities do not repeat their parent's constraints).
    mutating func addUniquenessConstraints(of entity: NSEntityDescription) throws {
        let entityName = Self.name(entity)
        for names in entity._uniquenessConstraintNames where !names.isEmpty {
            var elements: [SQLiteIndex.Element] = []
            for propertyName in names {
                guard let column = column(for: propertyName, of: entity) else {
                    throw _sqliteSchemaError(
                        "a uniqueness constraint of entity \"\(entityName)\" names \"\(propertyName)\", which has no column")
                }
                elements.append(SQLiteIndex.Element(column: column, collation: "BINARY", ascending: true))
            }
            indexes.append(
                SQLiteIndex(
                    name: "Z_\(entityName)_UNIQUE_" + names.joined(separator: "_"),
                    table: tableName(of: entity), elements: elements, isUnique: true))
        }
    }
}
