/// To-many relationships: through the inverse's foreign key, or through a join table.
extension SQLiteSchemaBuilder {
    /// Records the storage of the to-many relationships an entity declares itself, creating join
    /// tables for many-to-many relationships and for to-many relationships without an inverse.
    mutating func addToManyStorage(of entity: NSEntityDescription) throws {
        let entityNumber = number(of: entity)
        let entityName = Self.name(entity)
        for property in entity.properties where !property.isTransient {
            guard let relationship = property as? NSRelationshipDescription, relationship.isToMany else { continue }
            guard let destination = relationship.destinationEntity,
                members.contains(ObjectIdentifier(destination))
            else {
                throw _sqliteSchemaError(
                    "the destination of relationship \"\(relationship.name)\" of entity \"\(entityName)\" is not in the configuration")
            }
            let storage: SQLiteRelationshipStorage
            if let inverse = relationship.inverseRelationship, !inverse.isTransient {
                if inverse.isToMany {
                    storage = manyToMany(relationship, inverse: inverse)
                } else {
                    storage = try inverseForeignKey(relationship, inverse: inverse)
                }
            } else {
                storage = withoutInverse(relationship, destination: destination)
            }
            ownRelationships[entityNumber, default: [:]][relationship.name] = storage
        }
    }

    /// One-to-many: the destinations point back through the inverse to-one relationship's column; an
    /// ordered relationship keeps the order in the inverse's `Z_FOK_` column on the destination table
    /// (verified: Bookmarks `children` ↔ `parent`, `ZPARENT` + `Z_FOK_PARENT`).
    func inverseForeignKey(
        _ relationship: NSRelationshipDescription,
        inverse: NSRelationshipDescription
    ) throws -> SQLiteRelationshipStorage {
        let owner = inverse.entity
        guard members.contains(ObjectIdentifier(owner)),
            case let .foreignKey(column, _, orderColumn)? = ownRelationships[number(of: owner)]?[inverse.name]
        else {
            throw _sqliteSchemaError(
                "the inverse \"\(inverse.name)\" of relationship \"\(relationship.name)\" is not stored in the configuration")
        }
        return .inverseForeignKey(
            table: tableName(of: owner), column: column,
            orderColumn: relationship.isOrdered ? orderColumn : nil)
    }

    /// Many-to-many: one join table per relationship pair (STORE-FORMAT.md §7).
    ///
    /// The pair's *naming side* A is the relationship whose entity name sorts first (verified: Bear
    /// `SFNote.tags` ↔ `SFNoteTag.notes` → `Z_5TAGS`). When both sides belong to the same entity (a
    /// self-referential pair) the relationship whose name sorts LAST names the table: the one Apple-written
    /// example (Bookmarks `favorites` ↔ `favoriteFolders` → `Z_1FAVORITES`) fits this, the rule is inferred.
    /// With I the inverse:
    /// - table `Z_<n(A)><A>`; first column `Z_<n(A)><I>` holds A's rows, second `Z_<n(I)><A>` holds
    ///   A's destinations (a relationship that is its own inverse gets the suffix 1 on the second);
    /// - `Z_FOK_` + the second column's name without `Z_` when A is ordered, `Z_FOK_` + the first's when
    ///   I is ordered (verified: Bookmarks `Z_FOK_1FAVORITES`);
    /// - primary key (first, second); index `<TABLE>_<second>_INDEX ON <TABLE> (<second>, <first>)`
    ///   (verified: Bookmarks).
    mutating func manyToMany(
        _ relationship: NSRelationshipDescription,
        inverse: NSRelationshipDescription
    ) -> SQLiteRelationshipStorage {
        let a: NSRelationshipDescription
        let i: NSRelationshipDescription
        if Self.namesTable(relationship, over: inverse) {
            (a, i) = (relationship, inverse)
        } else {
            (a, i) = (inverse, relationship)
        }
        let aNumber = number(of: a.entity)
        let iNumber = number(of: i.entity)
        let table = "Z_\(aNumber)" + a.name.uppercased()
        let first = "Z_\(aNumber)" + i.name.uppercased()
        var second = "Z_\(iNumber)" + a.name.uppercased()
        if second == first { second += "1" }
        let aOrder = a.isOrdered ? "Z_FOK_" + second.dropFirst(2) : nil
        let iOrder = i.isOrdered ? "Z_FOK_" + first.dropFirst(2) : nil
        if joinTables[table] == nil {
            var columns = [
                SQLiteColumn(name: first, type: .integer, role: .joinKey(entity: Self.name(i.entity), relationship: i.name)),
                SQLiteColumn(name: second, type: .integer, role: .joinKey(entity: Self.name(a.entity), relationship: a.name)),
            ]
            if let iOrder {
                columns.append(
                    SQLiteColumn(
                        name: iOrder, type: .integer,
                        role: .joinOrderKey(entity: Self.name(i.entity), relationship: i.name)))
            }
            if let aOrder {
                columns.append(
                    SQLiteColumn(
                        name: aOrder, type: .integer,
                        role: .joinOrderKey(entity: Self.name(a.entity), relationship: a.name)))
            }
            joinTables[table] = SQLiteTable(name: table, columns: columns, compositePrimaryKey: [first, second])
            indexes.append(
                SQLiteIndex(
                    name: "\(table)_\(second)_INDEX", table: table,
                    elements: [.plain(second), .plain(first)], isUnique: false))
        }
        if relationship === a {
            return .joinTable(table: table, sourceColumn: first, destinationColumn: second, orderColumn: aOrder)
        }
        return .joinTable(table: table, sourceColumn: second, destinationColumn: first, orderColumn: iOrder)
    }

    /// Whether `relationship` rather than its inverse names the join table of a many-to-many pair.
    static func namesTable(_ relationship: NSRelationshipDescription, over inverse: NSRelationshipDescription) -> Bool {
        let own = Array(name(relationship.entity).utf8)
        let other = Array(name(inverse.entity).utf8)
        if own != other { return own.lexicographicallyPrecedes(other) }
        return Array(inverse.name.utf8).lexicographicallyPrecedes(Array(relationship.name.utf8))
    }

    /// A to-many relationship without an inverse: a join table as if the relationship had an unnamed
    /// to-many inverse. OpenCoreData's choice — no Apple-written store with such a relationship was
    /// available (STORE-FORMAT.md §7 reports an unexplained `Z_4TAGS_` variant once): table
    /// `Z_<n><REL>`, source column `Z_<n><ENTITY>` (the source entity's name, upper-cased), destination
    /// column `Z_<m><REL>` (m the destination's number, suffix 1 on a clash), `Z_FOK_<m><REL>` when ordered.
    mutating func withoutInverse(
        _ relationship: NSRelationshipDescription,
        destination: NSEntityDescription
    ) -> SQLiteRelationshipStorage {
        let sourceNumber = number(of: relationship.entity)
        let upper = relationship.name.uppercased()
        let table = "Z_\(sourceNumber)" + upper
        let source = "Z_\(sourceNumber)" + Self.name(relationship.entity).uppercased()
        var target = "Z_\(number(of: destination))" + upper
        if target == source { target += "1" }
        let order = relationship.isOrdered ? "Z_FOK_" + target.dropFirst(2) : nil
        var columns = [
            SQLiteColumn(
                name: source, type: .integer,
                role: .joinKey(entity: Self.name(destination), relationship: "")),
            SQLiteColumn(
                name: target, type: .integer,
                role: .joinKey(entity: Self.name(relationship.entity), relationship: relationship.name)),
        ]
        if let order {
            columns.append(
                SQLiteColumn(
                    name: order, type: .integer,
                    role: .joinOrderKey(
                        entity: Self.name(relationship.entity),
                        relationship: relationship.name)))
        }
        joinTables[table] = SQLiteTable(name: table, columns: columns, compositePrimaryKey: [source, target])
        indexes.append(
            SQLiteIndex(
                name: "\(table)_\(target)_INDEX", table: table,
                elements: [.plain(target), .plain(source)], isUnique: false))
        return .joinTable(table: table, sourceColumn: source, destinationColumn: target, orderColumn: order)
    }
}
