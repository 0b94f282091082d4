import GRDB

/// The in-place path of a lightweight migration: `ALTER TABLE` statements instead of copying rows.
extension SQLiteLightweightMigration {
    /// The SQLite version from which `ALTER TABLE … RENAME COLUMN` works.
    static let renameColumnVersion = 3_025_000
    /// The SQLite version from which `ALTER TABLE … DROP COLUMN` works.
    static let dropColumnVersion = 3_035_000
    /// The prefix of tables and columns while they are renamed in two steps (names may be swapped).
    static let renamingPrefix = "_OCDTMP_"

    /// The in-place plan of this migration for a SQLite library of the given version
    /// (`3.45.1` → 3045001), or why the tables must be copied.
    func inPlacePlan(sqliteVersion: Int) -> Result<SQLiteAlterTablePlan, SQLiteAlterTablePlan.Refusal> {
        switch SQLiteAlterTablePlan.make(plan) {
        case let .failure(refusal):
            return .failure(refusal)
        case let .success(alterations):
            if alterations.renamesColumns && sqliteVersion < Self.renameColumnVersion {
                return .failure(.init(description: "the linked SQLite (\(Self.versionString(sqliteVersion))) cannot rename columns"))
            }
            if alterations.dropsColumns && sqliteVersion < Self.dropColumnVersion {
                return .failure(.init(description: "the linked SQLite (\(Self.versionString(sqliteVersion))) cannot drop columns"))
            }
            return .success(alterations)
        }
    }

    /// The version number of the SQLite library a connection uses (`3.45.1` → 3045001).
    static func sqliteVersion(_ db: Database) throws -> Int {
        let text = try String.fetchOne(db, sql: "SELECT sqlite_version()") ?? ""
        let parts = text.split(separator: ".").map { Int($0) ?? 0 }
        guard parts.count >= 2 else { return 0 }
        return parts[0] * 1_000_000 + parts[1] * 1_000 + (parts.count > 2 ? parts[2] : 0)
    }

    /// `3045001` → `3.45.1`.
    static func versionString(_ version: Int) -> String {
        "\(version / 1_000_000).\(version / 1_000 % 1_000).\(version % 1_000)"
    }

    /// Changes the tables in place, inside the caller's transaction: tables dropped (or renamed aside
    /// when cleanup is deferred) and renamed, columns dropped, renamed and added, new columns filled
    /// with their default values, entity numbers rewritten, new tables created, and indexes brought in
    /// line with the destination layout.
    func alter(_ db: Database, _ alterations: SQLiteAlterTablePlan) throws {
        let destination = plan.destinationSchema
        progress?(0.05, "Altering tables in place")
        let altered = Set(alterations.columns.filter { !$0.value.dropped.isEmpty }.map(\.key))
        let alteredSources = Set(alterations.keptTables.filter { altered.contains($0.destination) }.map(\.source))
        let wanted = Dictionary(destination.indexes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let sourceTables = Set(plan.sourceSchema.tables.map(\.name))
        for row in try Row.fetchAll(db, sql: "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") {
            let name: String = row["name"] ?? ""
            let table: String = row["tbl_name"] ?? ""
            guard sourceTables.contains(table) else { continue }
            if wanted[name] == nil || alteredSources.contains(table) || alterations.droppedTables.contains(table) {
                try db.execute(sql: "DROP INDEX \(quoted(name))")
            }
        }
        for table in alterations.droppedTables {
            if defersCleanup {
                try db.execute(sql: "ALTER TABLE \(table) RENAME TO \(Self.oldPrefix)\(table)")
            } else {
                try db.execute(sql: "DROP TABLE \(table)")
            }
        }
        let renamedTables = alterations.keptTables.filter { $0.source != $0.destination }
        for (source, destination) in renamedTables {
            try db.execute(sql: "ALTER TABLE \(source) RENAME TO \(Self.renamingPrefix)\(destination)")
        }
        for (_, destination) in renamedTables {
            try db.execute(sql: "ALTER TABLE \(Self.renamingPrefix)\(destination) RENAME TO \(destination)")
        }
        for (table, changes) in alterations.columns.sorted(by: { $0.key < $1.key }) {
            if !defersCleanup {
                for column in changes.dropped { try db.execute(sql: "ALTER TABLE \(table) DROP COLUMN \(column)") }
            }
            for (from, to) in changes.renamed {
                try db.execute(sql: "ALTER TABLE \(table) RENAME COLUMN \(from) TO \(Self.renamingPrefix)\(to)")
            }
            for (_, to) in changes.renamed {
                try db.execute(sql: "ALTER TABLE \(table) RENAME COLUMN \(Self.renamingPrefix)\(to) TO \(to)")
            }
            for column in changes.added { try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(column.definition)") }
        }
        progress?(0.4, "Renumbering entities")
        try renumber(db, alterations)
        progress?(0.6, "Writing default values")
        for fill in alterations.defaults {
            let numbers = fill.entityNumbers.map(String.init).joined(separator: ", ")
            try db.execute(sql: "UPDATE \(fill.table) SET \(fill.column) = ? WHERE Z_ENT IN (\(numbers))", arguments: [fill.value])
        }
        for table in alterations.createdTables { try db.execute(sql: table.createStatement) }
        progress?(0.8, "Building indexes")
        try buildIndexes(db)
    }

    /// Rewrites the entity numbers of rows (`Z_ENT`) and of foreign-key entity columns.
    private func renumber(_ db: Database, _ alterations: SQLiteAlterTablePlan) throws {
        guard !alterations.renumbered.isEmpty else { return }
        let sources = alterations.renumbered.keys.sorted()
        let cases = sources.map { "WHEN \($0) THEN \(alterations.renumbered[$0] ?? $0)" }.joined(separator: " ")
        let list = sources.map(String.init).joined(separator: ", ")
        for table in alterations.renumberedTables {
            try db.execute(sql: "UPDATE \(table) SET Z_ENT = CASE Z_ENT \(cases) ELSE Z_ENT END WHERE Z_ENT IN (\(list))")
        }
        for (table, column) in alterations.entityColumns {
            try db.execute(sql: "UPDATE \(table) SET \(column) = CASE \(column) \(cases) ELSE \(column) END WHERE \(column) IN (\(list))")
        }
    }

    /// Creates the destination indexes the file lacks (non-unique ones wait when cleanup is deferred)
    /// and replaces those defined otherwise.
    private func buildIndexes(_ db: Database) throws {
        let destination = plan.destinationSchema
        let byName = Dictionary(destination.indexes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for difference in try destination.differences(in: db) {
            switch difference {
            case let .missingIndex(name, isUnique):
                guard let index = byName[name], isUnique || !defersCleanup else { continue }
                try db.execute(sql: index.createStatement)
            case let .indexDefinition(name, _, _, _):
                guard let index = byName[name] else { continue }
                try db.execute(sql: "DROP INDEX \(quoted(name))")
                if index.isUnique || !defersCleanup { try db.execute(sql: index.createStatement) }
            case let .extraIndex(name, _):
                try db.execute(sql: "DROP INDEX \(quoted(name))")
            default:
                continue
            }
        }
    }
}
