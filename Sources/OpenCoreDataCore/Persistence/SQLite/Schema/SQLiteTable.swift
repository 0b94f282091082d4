/// A table of a Core Data SQLite store: an entity table (one per root entity) or a many-to-many join
/// table.
struct SQLiteTable: Hashable, Sendable {
    /// The table's name, for example `ZPOST` or `Z_5TAGS`.
    let name: String
    /// The columns, in the order of `CREATE TABLE`.
    let columns: [SQLiteColumn]
    /// The columns of a table-level `PRIMARY KEY (…)` clause (join tables); empty for entity tables,
    /// whose `Z_PK` column is the primary key.
    let compositePrimaryKey: [String]

    /// The column with the given name.
    func column(named name: String) -> SQLiteColumn? {
        columns.first { $0.name == name }
    }

    /// The statement that creates the table, spelled as Core Data spells it:
    /// `CREATE TABLE ZPOST ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, … )`.
    var createStatement: String {
        var parts = columns.map(\.definition)
        if !compositePrimaryKey.isEmpty {
            parts.append("PRIMARY KEY (\(compositePrimaryKey.joined(separator: ", ")))")
        }
        return "CREATE TABLE \(name) ( \(parts.joined(separator: ", ")) )"
    }
}
