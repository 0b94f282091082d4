import GRDB

/// The structure of a store file as SQLite reports it, or as a model implies it: tables with their
/// columns' declared types and primary keys, indexes, and the `Z_PRIMARYKEY` entity rows.
///
/// Column order is not part of a snapshot: Core Data addresses columns by name.
struct SQLiteSchemaSnapshot: Equatable, Sendable {
    /// A table's structure.
    struct Table: Equatable, Sendable {
        /// Declared type (upper-cased) by column name.
        var columns: [String: String]
        /// The primary-key columns, in key order.
        var primaryKey: [String]
    }

    /// An index's structure.
    struct Index: Equatable, Sendable, CustomStringConvertible {
        /// The indexed table.
        var table: String
        /// The indexed columns, in order, each with ` DESC` appended when descending.
        var columns: [String]
        /// Whether the index is unique.
        var isUnique: Bool

        /// `UNIQUE ON ZCAR (ZNUMBERPLATE)`-style text for difference reports.
        var description: String {
            "\(isUnique ? "UNIQUE " : "")ON \(table) (\(columns.joined(separator: ", ")))"
        }
    }

    /// An entity row of `Z_PRIMARYKEY`.
    struct Entity: Equatable, Sendable {
        /// `Z_ENT`.
        var number: Int
        /// `Z_SUPER`.
        var superNumber: Int
    }

    /// Tables by name.
    var tables: [String: Table] = [:]
    /// Indexes by name.
    var indexes: [String: Index] = [:]
    /// `Z_PRIMARYKEY` entity rows by entity name.
    var entities: [String: Entity] = [:]

    /// Whether a table belongs to Core Data's model layout or bookkeeping. Tables of persistent history
    /// and CloudKit mirroring (`A…`) and SQLite's own (`sqlite_…`) are not compared.
    static func isCompared(table name: String) -> Bool {
        !name.hasPrefix("sqlite_") && !name.hasPrefix("A")
    }

    /// The snapshot a model's layout implies, bookkeeping tables included.
    init(expected schema: SQLiteSchema) {
        for table in schema.tables {
            var columns: [String: String] = [:]
            for column in table.columns { columns[column.name] = column.type.rawValue }
            let key = table.compositePrimaryKey.isEmpty ? ["Z_PK"] : table.compositePrimaryKey
            tables[table.name] = Table(columns: columns, primaryKey: key)
        }
        for (name, columns) in SQLiteBookkeepingTables.columns {
            tables[name] = Table(columns: columns, primaryKey: SQLiteBookkeepingTables.primaryKeys[name] ?? [])
        }
        for index in schema.indexes {
            indexes[index.name] = Index(
                table: index.table,
                columns: index.elements.map { $0.column + ($0.ascending == false ? " DESC" : "") },
                isUnique: index.isUnique)
        }
        for entity in schema.entities {
            entities[entity.name] = Entity(number: entity.number, superNumber: entity.superNumber)
        }
    }

    /// Reads the structure of an open database. `Z_PRIMARYKEY` rows numbered 16000 and above
    /// (persistent history, CloudKit) are left out, as are the tables `isCompared(table:)` excludes.
    init(reading db: Database) throws {
        let objects = try Row.fetchAll(db, sql: "SELECT type, name, tbl_name FROM sqlite_master WHERE type IN ('table', 'index')")
        for object in objects {
            let type: String = object["type"]
            let name: String = object["name"]
            let table: String = object["tbl_name"]
            guard Self.isCompared(table: table), !name.hasPrefix("sqlite_") else { continue }
            if type == "table" {
                var columns: [String: String] = [:]
                var keyed: [(Int, String)] = []
                for info in try Row.fetchAll(db, sql: "SELECT name, type, pk FROM pragma_table_info(?)", arguments: [name]) {
                    let column: String = info["name"]
                    columns[column] = (info["type"] as String? ?? "").uppercased()
                    let position: Int = info["pk"]
                    if position > 0 { keyed.append((position, column)) }
                }
                tables[name] = Table(columns: columns, primaryKey: keyed.sorted { $0.0 < $1.0 }.map(\.1))
            } else {
                var columns: [String] = []
                for info in try Row.fetchAll(
                    db, sql: "SELECT name, desc, key FROM pragma_index_xinfo(?) ORDER BY seqno",
                    arguments: [name]) where (info["key"] as Int? ?? 0) != 0
                {
                    let column: String = info["name"] as String? ?? "<expression>"
                    columns.append(column + ((info["desc"] as Int? ?? 0) != 0 ? " DESC" : ""))
                }
                let unique =
                    try Bool.fetchOne(
                        db, sql: "SELECT \"unique\" FROM pragma_index_list(?) WHERE name = ?",
                        arguments: [table, name]) ?? false
                indexes[name] = Index(table: table, columns: columns, isUnique: unique)
            }
        }
        if tables[SQLiteBookkeepingTables.primaryKeyTable] != nil {
            for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000") {
                let name = String.fromDatabaseValue(row[1] as DatabaseValue) ?? ""
                entities[name] = Entity(
                    number: Int(try row.storedInteger(atIndex: 0) ?? 0),
                    superNumber: Int(try row.storedInteger(atIndex: 2) ?? 0))
            }
        }
    }
}
