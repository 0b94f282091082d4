/// An index of a Core Data SQLite store.
struct SQLiteIndex: Hashable, Sendable {
    /// A column of an index, with the collation and order Core Data spells out for fetch indexes and
    /// uniqueness constraints (`ZUUID COLLATE BINARY ASC`) and leaves out for relationship indexes.
    struct Element: Hashable, Sendable {
        /// The indexed column.
        let column: String
        /// The collation named in the statement, or `nil` for none.
        let collation: String?
        /// `true` for `ASC`, `false` for `DESC`, `nil` when the statement names no order.
        let ascending: Bool?

        /// A plain column, as relationship and `Z_ENT` indexes list them.
        static func plain(_ column: String) -> Element {
            Element(column: column, collation: nil, ascending: nil)
        }

        /// The element's text in `CREATE INDEX`.
        var definition: String {
            var text = column
            if let collation { text += " COLLATE \(collation)" }
            if let ascending { text += ascending ? " ASC" : " DESC" }
            return text
        }
    }

    /// The index's name, for example `ZSECTION_ZPOST_INDEX` or `Z_BookmarkEntity_byUUID`.
    let name: String
    /// The indexed table.
    let table: String
    /// The indexed columns, in order.
    let elements: [Element]
    /// Whether the index enforces uniqueness (uniqueness constraints).
    let isUnique: Bool

    /// The statement that creates the index: `CREATE INDEX name ON TABLE (COLUMN, …)`.
    var createStatement: String {
        let columns = elements.map(\.definition).joined(separator: ", ")
        return "CREATE \(isUnique ? "UNIQUE INDEX" : "INDEX") \(name) ON \(table) (\(columns))"
    }
}
