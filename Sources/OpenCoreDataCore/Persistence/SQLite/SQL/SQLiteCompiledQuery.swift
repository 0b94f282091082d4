import GRDB

/// A fetch request compiled into one parameterized SQL statement against a store's layout.
struct SQLiteCompiledQuery: @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable after creation; `StatementArguments`
    // holds only `DatabaseValue`s (Sendable values) but is not declared Sendable by GRDB.

    /// The statement's text. Values never appear in it: they are bound from `arguments`.
    let sql: String
    /// The values bound to the statement's `?` parameters, in order.
    let arguments: StatementArguments
    /// The result columns: for `.rows`, `Z_PK`, `Z_ENT`, `Z_OPT` then the stored attributes and
    /// to-one key (and entity) columns of the fetched entity and, when subentities are included,
    /// of its subentities; for `.objectIDs`, `Z_PK` and `Z_ENT`; for `.count`, the count.
    let columns: [SQLiteResultColumn]
    /// For `.rows`, the plans rows of these columns are decoded with, shared by every fetch of them.
    var decodingPlans: SQLiteDecodingPlans? = nil
}
