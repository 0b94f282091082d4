/// The columns `.rows` fetches select, worked out once per fetched entity for the layout of one store.
///
/// Which columns a fetch of an entity selects, and what each holds, depends only on the store's layout
/// and on whether subentities are fetched, not on the rest of the request; working them out walks the
/// table's columns and the model's entities, most of the cost of compiling a small fetch. A compiler
/// keeps them here, as long as it serves its store's layout. Each selection also keeps the decoding
/// plans its rows have been read with (``SQLiteDecodingPlans``), so a later fetch of the same columns
/// reads its rows without making them again.
// @unchecked Sendable: `selections` is read and changed only through its lock (`LockedValue`).
final class SQLiteRowSelections: @unchecked Sendable {
    /// A selection is the same for every fetch of one entity (by number) with or without subentities.
    struct Key: Hashable {
        let entityNumber: Int
        let includesSubentities: Bool
    }

    private let selections = LockedValue<[Key: SQLiteRowSelection]>([:])

    /// The selection for `key`, made by `make` the first time.
    func selection(for key: Key, _ make: () throws -> SQLiteRowSelection) rethrows -> SQLiteRowSelection {
        if let selection = selections.withLock({ $0[key] }) { return selection }
        let selection = try make()
        // Two fetches may make the same selection at once: the first one kept is the one every later fetch uses.
        return selections.withLock { selections in
            if let kept = selections[key] { return kept }
            selections[key] = selection
            return selection
        }
    }
}

/// The columns one `.rows` fetch of an entity selects.
final class SQLiteRowSelection: Sendable {
    /// The columns as they are selected, in order.
    let columns: [SQLiteFetchCompiler.SelectedColumn]
    /// The columns as the fetch's rows are read, by position.
    let resultColumns: [SQLiteResultColumn]
    /// The plans rows of these columns are decoded with, by entity.
    let decodingPlans = SQLiteDecodingPlans()
    /// The select list for the alias every fetch of the root table uses (see ``selectList(alias:)``).
    private let rootSelectList: (alias: String, list: String)

    init(columns: [SQLiteFetchCompiler.SelectedColumn], alias: String) {
        self.columns = columns
        resultColumns = columns.enumerated().map { index, column in
            SQLiteResultColumn(index: index, role: column.role, entities: column.entities)
        }
        rootSelectList = (alias, Self.selectList(columns, alias: alias))
    }

    /// The columns as a select list, each taken from the table with the given alias.
    func selectList(alias: String) -> String {
        alias == rootSelectList.alias ? rootSelectList.list : Self.selectList(columns, alias: alias)
    }

    private static func selectList(_ columns: [SQLiteFetchCompiler.SelectedColumn], alias: String) -> String {
        columns.map { $0.selected(from: alias) }.joined(separator: ", ")
    }
}
