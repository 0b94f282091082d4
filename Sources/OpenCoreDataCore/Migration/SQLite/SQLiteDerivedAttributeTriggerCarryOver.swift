import GRDB

/// Apple's derived-attribute triggers (`Z_DA_…`, `Docs/StoreFormat.md`) through a lightweight migration.
///
/// A trigger keeps one derived attribute of one entity, and names that attribute's table and column in
/// its reporting call. Before the tables change, every such trigger is read and dropped: a trigger left
/// in place would block `DROP COLUMN` of any column it names, would follow a table copied aside, and
/// would go on computing an old derivation. After the rows are in their new tables, each trigger whose
/// attribute the destination model keeps unchanged — the same entity and attribute names, an equal
/// derivation, the same table and column — is created again from its original text, and kept only if
/// SQLite can compile it against the new tables (a column it reads may be gone). A derived attribute
/// without its triggers is computed by the saving context, as in the stores OpenCoreData creates.
struct SQLiteDerivedAttributeTriggerCarryOver {
    /// One trigger of the source file.
    struct Trigger {
        let name: String
        /// The table the trigger is on.
        let table: String
        /// The `CREATE TRIGGER` statement as the file holds it.
        let sql: String
    }

    /// The triggers to create again after the migration.
    let kept: [Trigger]
    /// The triggers dropped for good, by name (their attribute is gone or changed).
    let dropped: [String]

    /// Reads the file's derived-attribute triggers and drops them all.
    static func detach(_ db: Database, plan: SQLiteMigrationPlan) throws -> Self {
        var kept: [Trigger] = []
        var dropped: [String] = []
        let rows = try Row.fetchAll(
            db, sql: "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'Z\\_DA\\_%' ESCAPE '\\'")
        for row in rows {
            guard let name = String.fromDatabaseValue(row[0]), let table = String.fromDatabaseValue(row[1]),
                let sql = String.fromDatabaseValue(row[2])
            else { continue }
            let calls = SQLiteDerivedAttributeTriggers.reportingCalls(in: sql)
            if !calls.isEmpty && calls.allSatisfy({ survives($0, plan: plan) }) {
                kept.append(Trigger(name: name, table: table, sql: sql))
            } else {
                dropped.append(name)
            }
            try db.execute(sql: "DROP TRIGGER \(name.quotedDatabaseIdentifier)")
        }
        return Self(kept: kept, dropped: dropped)
    }

    /// Whether the derived attribute a reporting call names is in the destination model unchanged, in
    /// the same table and column.
    private static func survives(_ call: (table: String, attribute: String, column: String), plan: SQLiteMigrationPlan) -> Bool {
        let sources = plan.sourceSchema.entities.filter { $0.table == call.table && $0.attributeColumns[call.attribute] == call.column }
        guard !sources.isEmpty else { return false }
        return sources.allSatisfy { layout in
            guard let source = plan.sourceModel.entitiesByName[layout.name]?.attributesByName[call.attribute] as? NSDerivedAttributeDescription,
                let destination = plan.destinationModel.entitiesByName[layout.name]?.attributesByName[call.attribute]
                    as? NSDerivedAttributeDescription,
                let destinationLayout = plan.destinationSchema.entity(named: layout.name),
                destinationLayout.table == call.table, destinationLayout.attributeColumns[call.attribute] == call.column
            else { return false }
            return source.derivationExpression?.description == destination.derivationExpression?.description
        }
    }

    /// Creates the kept triggers again on the migrated tables; returns the names of those SQLite could
    /// not compile there, which are dropped.
    @discardableResult
    func reattach(_ db: Database) throws -> [String] {
        var refused: [String] = []
        for trigger in kept {
            guard try db.tableExists(trigger.table) else {
                refused.append(trigger.name)
                continue
            }
            try db.execute(sql: trigger.sql)
            do {
                // Preparing a statement that fires the trigger compiles its body against the new tables.
                for sql in Self.firingStatements(trigger) { _ = try db.makeStatement(sql: sql) }
            } catch is DatabaseError {
                try db.execute(sql: "DROP TRIGGER \(trigger.name.quotedDatabaseIdentifier)")
                refused.append(trigger.name)
            }
        }
        return refused
    }

    /// Statements on a trigger's table that fire it, never run: an insert, a delete, and an update of
    /// the column an `UPDATE OF` trigger watches (every column for other triggers).
    private static func firingStatements(_ trigger: Trigger) -> [String] {
        let table = trigger.table.quotedDatabaseIdentifier
        var statements = ["INSERT INTO \(table) DEFAULT VALUES", "DELETE FROM \(table) WHERE 0"]
        let words = trigger.sql.split(whereSeparator: \.isWhitespace)
        if let of = words.firstIndex(where: { $0.uppercased() == "OF" }), of + 1 < words.count,
            words[..<of].contains(where: { $0.uppercased() == "UPDATE" })
        {
            let column = words[of + 1].trimmingCharacters(in: .init(charactersIn: "\"`[],"))
            let quotedColumn = column.quotedDatabaseIdentifier
            statements.append("UPDATE \(table) SET \(quotedColumn) = \(quotedColumn) WHERE 0")
        }
        return statements
    }
}
