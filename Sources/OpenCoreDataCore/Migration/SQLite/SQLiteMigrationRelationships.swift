import GRDB

/// Carries relationships over during a lightweight SQLite migration, whatever storage they had and
/// have now (a foreign key, the inverse's foreign key, a join table): the pairs of related rows are
/// read from the old tables into a temporary table, ordered again when the new relationship is ordered,
/// and written into the new storage. To-one foreign keys whose storage did not change were copied with
/// the rows already and are skipped here.
struct SQLiteMigrationRelationships {
    let plan: SQLiteMigrationPlan
    /// Primary-key offsets by old entity table.
    let offsets: [String: Int64]
    /// `Entity.relationship#number` of foreign keys already copied with the rows.
    let direct: Set<String>
    let oldPrefix: String

    private static let pairs = "temp._ocd_pairs"

    /// Carries every relationship of the destination model over.
    func carryOver(_ db: Database) throws {
        try db.execute(sql: "CREATE TEMP TABLE _ocd_pairs (src INTEGER, dst INTEGER, ord INTEGER, iord INTEGER)")
        defer { try? db.execute(sql: "DROP TABLE IF EXISTS \(Self.pairs)") }
        var done: Set<String> = []
        var joinTablesWritten: Set<String> = []
        for layout in plan.destinationSchema.entities {
            guard let entity = plan.destinationModel.entitiesByName[layout.name] else { continue }
            let own = entity.relationshipsByName.values
                .filter { !$0.isTransient && $0.entity.name == layout.name }
                .sorted { $0.name < $1.name }
            for relationship in own {
                let key = "\(layout.name).\(relationship.name)"
                guard done.insert(key).inserted else { continue }
                let inverse = relationship.inverseRelationship.flatMap { $0.isTransient ? nil : $0 }
                if let inverse { done.insert("\(inverse.entity.name ?? "").\(inverse.name)") }
                try carry(db, relationship, inverse: inverse, joinTablesWritten: &joinTablesWritten)
            }
        }
        try fixForeignKeys(db)
    }

    /// The destination layout of an entity.
    private func layout(_ entity: NSEntityDescription?) -> SQLiteEntityLayout? {
        entity?.name.flatMap { plan.destinationSchema.entity(named: $0) }
    }

    /// `(1, 2, 3)`.
    private func list(_ numbers: [Int]) -> String {
        "(" + numbers.map(String.init).joined(separator: ", ") + ")"
    }

    /// The entity numbers of a layout (with its subentities) whose foreign key for `relationship` was
    /// not copied with the rows.
    private func pendingNumbers(_ layout: SQLiteEntityLayout, _ relationship: NSRelationshipDescription) -> [Int] {
        layout.numbersIncludingSubentities.filter { !direct.contains("\(layout.name).\(relationship.name)#\($0)") }
    }

    /// Carries one relationship (and its inverse) over.
    private func carry(
        _ db: Database, _ relationship: NSRelationshipDescription, inverse: NSRelationshipDescription?,
        joinTablesWritten: inout Set<String>
    ) throws {
        guard let ownerLayout = layout(relationship.entity), let targetLayout = layout(relationship.destinationEntity) else { return }
        var foreignKey: (String, String?, [Int])?
        if case let .foreignKey(column, _, order)? = ownerLayout.relationships[relationship.name] {
            let numbers = pendingNumbers(ownerLayout, relationship)
            if !numbers.isEmpty { foreignKey = (column, order, numbers) }
        }
        var inverseKey: (SQLiteEntityLayout, String, String?, [Int])?
        if let inverse, let inverseLayout = layout(inverse.entity),
            case let .foreignKey(column, _, order)? = inverseLayout.relationships[inverse.name]
        {
            let numbers = pendingNumbers(inverseLayout, inverse)
            if !numbers.isEmpty { inverseKey = (inverseLayout, column, order, numbers) }
        }
        var join: (String, String, String, String?, String?)?
        if case let .joinTable(table, sourceColumn, destinationColumn, order)? = ownerLayout.relationships[relationship.name],
            !joinTablesWritten.contains(table)
        {
            var inverseOrder: String?
            if let inverse, case let .joinTable(_, _, _, other)? = layout(inverse.entity)?.relationships[inverse.name] {
                inverseOrder = other
            }
            join = (table, sourceColumn, destinationColumn, order, inverseOrder)
            joinTablesWritten.insert(table)
        }
        guard foreignKey != nil || inverseKey != nil || join != nil else { return }
        guard let select = sourcePairs(relationship, inverse: inverse) else { return }
        try db.execute(sql: "DELETE FROM \(Self.pairs)")
        try db.execute(sql: "INSERT INTO \(Self.pairs) (src, dst, ord, iord) SELECT src, dst, ord, iord FROM (\(select))")
        if relationship.isOrdered { try renumber(db, "ord", by: "src", then: "dst") }
        if inverse?.isOrdered == true { try renumber(db, "iord", by: "dst", then: "src") }
        if let (column, order, numbers) = foreignKey {
            let setOrder = order.map { ", \($0) = p.iord" } ?? ""
            try db.execute(
                sql: """
                    UPDATE \(ownerLayout.table) SET \(column) = p.dst\(setOrder)
                    FROM (SELECT src, dst, iord FROM (SELECT src, dst, iord, row_number() OVER
                          (PARTITION BY src ORDER BY ord IS NULL, ord, dst) AS k FROM \(Self.pairs)) WHERE k = 1) AS p
                    WHERE \(ownerLayout.table).Z_PK = p.src AND \(ownerLayout.table).Z_ENT IN \(list(numbers))
                    """)
        }
        if let (inverseLayout, column, order, numbers) = inverseKey {
            let setOrder = order.map { ", \($0) = p.ord" } ?? ""
            try db.execute(
                sql: """
                    UPDATE \(inverseLayout.table) SET \(column) = p.src\(setOrder)
                    FROM (SELECT src, dst, ord FROM (SELECT src, dst, ord, row_number() OVER
                          (PARTITION BY dst ORDER BY iord IS NULL, iord, src) AS k FROM \(Self.pairs)) WHERE k = 1) AS p
                    WHERE \(inverseLayout.table).Z_PK = p.dst AND \(inverseLayout.table).Z_ENT IN \(list(numbers))
                    """)
        }
        if let (table, sourceColumn, destinationColumn, order, inverseOrder) = join {
            var columns = [sourceColumn, destinationColumn]
            var values = ["src", "dst"]
            if let order {
                columns.append(order)
                values.append("ord")
            }
            if let inverseOrder {
                columns.append(inverseOrder)
                values.append("iord")
            }
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO \(table) (\(columns.joined(separator: ", ")))
                    SELECT \(values.joined(separator: ", ")) FROM \(Self.pairs)
                    WHERE src IN (SELECT Z_PK FROM \(ownerLayout.table) WHERE Z_ENT IN \(list(ownerLayout.numbersIncludingSubentities)))
                    AND dst IN (SELECT Z_PK FROM \(targetLayout.table) WHERE Z_ENT IN \(list(targetLayout.numbersIncludingSubentities)))
                    """)
        }
    }

    /// Numbers one order column 1, 2, 3… within each group, keeping the old order where there was one.
    private func renumber(_ db: Database, _ column: String, by group: String, then tieBreak: String) throws {
        try db.execute(
            sql: """
                UPDATE \(Self.pairs) SET \(column) = x.r
                FROM (SELECT rowid AS id, row_number() OVER (PARTITION BY \(group)
                      ORDER BY \(column) IS NULL, \(column), \(tieBreak)) AS r FROM \(Self.pairs)) AS x
                WHERE x.id = _ocd_pairs.rowid
                """)
    }

    /// A query of the old tables giving `src, dst, ord, iord` for the source of a relationship: its
    /// own source relationship, or its inverse's, reversed.
    private func sourcePairs(_ relationship: NSRelationshipDescription, inverse: NSRelationshipDescription?) -> String? {
        if let source = sourceRelationship(for: relationship), let query = pairsQuery(source) { return query }
        if let inverse, let source = sourceRelationship(for: inverse), let query = pairsQuery(source) {
            return "SELECT dst AS src, src AS dst, iord AS ord, ord AS iord FROM (\(query))"
        }
        return nil
    }

    /// The source relationship a destination relationship comes from, looking at the declaring
    /// entity's mapping, or at a subentity's when the relationship moved up the hierarchy.
    private func sourceRelationship(for relationship: NSRelationshipDescription) -> NSRelationshipDescription? {
        if let found = plan.sourceRelationship(for: relationship) { return found }
        for entity in plan.entities
        where entity.destination.relationshipsByName[relationship.name] === relationship
            || entity.destination.relationshipsByName[relationship.name]?.entity === relationship.entity
        {
            if let name = entity.relationships[relationship.name], let found = entity.source.relationshipsByName[name] {
                return found
            }
        }
        return nil
    }

    /// The pairs a source relationship holds in the old tables, with primary keys offset.
    private func pairsQuery(_ relationship: NSRelationshipDescription) -> String? {
        let source = plan.sourceSchema
        guard let owner = relationship.entity.name.flatMap({ source.entity(named: $0) }),
            let target = relationship.destinationEntity?.name.flatMap({ source.entity(named: $0) }),
            let storage = owner.relationships[relationship.name]
        else { return nil }
        let ownerOffset = offsets[owner.table] ?? 0
        let targetOffset = offsets[target.table] ?? 0
        switch storage {
        case let .foreignKey(column, _, order):
            return """
                SELECT Z_PK + \(ownerOffset) AS src, \(column) + \(targetOffset) AS dst, NULL AS ord, \(order ?? "NULL") AS iord
                FROM \(oldPrefix)\(owner.table) WHERE Z_ENT IN \(list(owner.numbersIncludingSubentities)) AND \(column) IS NOT NULL
                """
        case let .inverseForeignKey(table, column, order):
            return """
                SELECT \(column) + \(ownerOffset) AS src, Z_PK + \(targetOffset) AS dst, \(order ?? "NULL") AS ord, NULL AS iord
                FROM \(oldPrefix)\(table) WHERE Z_ENT IN \(list(target.numbersIncludingSubentities)) AND \(column) IS NOT NULL
                """
        case let .joinTable(table, sourceColumn, destinationColumn, order):
            var inverseOrder = "NULL"
            if let inverse = relationship.inverseRelationship,
                case let .joinTable(_, _, _, other?)? = inverse.entity.name.flatMap({ source.entity(named: $0) })?.relationships[inverse.name]
            {
                inverseOrder = other
            }
            return """
                SELECT \(sourceColumn) + \(ownerOffset) AS src, \(destinationColumn) + \(targetOffset) AS dst,
                \(order ?? "NULL") AS ord, \(inverseOrder) AS iord FROM \(oldPrefix)\(table)
                """
        }
    }

    /// Clears foreign keys whose destination row did not survive the migration, and sets the
    /// destination entity columns from the rows they point to.
    private func fixForeignKeys(_ db: Database) throws {
        for layout in plan.destinationSchema.entities {
            guard let entity = plan.destinationModel.entitiesByName[layout.name] else { continue }
            for relationship in entity.relationshipsByName.values where !relationship.isTransient && relationship.entity.name == layout.name {
                guard case let .foreignKey(column, entityColumn, order)? = layout.relationships[relationship.name],
                    let target = self.layout(relationship.destinationEntity)
                else { continue }
                let numbers = list(layout.numbersIncludingSubentities)
                let clear = ([column] + [entityColumn, order].compactMap { $0 }).map { "\($0) = NULL" }.joined(separator: ", ")
                try db.execute(
                    sql: """
                        UPDATE \(layout.table) AS u SET \(clear) WHERE u.Z_ENT IN \(numbers) AND u.\(column) IS NOT NULL
                        AND NOT EXISTS (SELECT 1 FROM \(target.table) AS t WHERE t.Z_PK = u.\(column)
                                        AND t.Z_ENT IN \(list(target.numbersIncludingSubentities)))
                        """)
                if let entityColumn {
                    try db.execute(
                        sql: """
                            UPDATE \(layout.table) AS u SET \(entityColumn) = (SELECT t.Z_ENT FROM \(target.table) AS t WHERE t.Z_PK = u.\(column))
                            WHERE u.Z_ENT IN \(numbers) AND u.\(column) IS NOT NULL
                            """)
                }
            }
        }
    }
}
