import GRDB

/// A dictionary fetch (`.dictionaryResultType`) compiled into one statement: what each result column
/// holds and under which key it goes into the result dictionaries.
struct SQLiteDictionaryQuery: @unchecked Sendable {
    // @unchecked Sendable: every stored property is immutable after creation; `StatementArguments`
    // holds only `DatabaseValue`s, and the descriptions in `columns` are never mutated once a fetch runs.

    /// What one key of the result dictionaries is read from.
    struct Column {
        /// How the column's SQL value becomes a dictionary value.
        enum Kind {
            /// A stored attribute, read as the store reads that attribute.
            case attribute(NSAttributeDescription)
            /// A to-one relationship: `Z_PK` of the destination at the column, and the destination's
            /// `Z_ENT` at the next column when `hasEntityColumn`; the value is the destination's object ID.
            case objectID(destination: NSEntityDescription, hasEntityColumn: Bool)
            /// A computed value, converted to the description's `expressionResultType`.
            case expression(NSAttributeType)
        }

        /// The dictionary key: the property's name, the key path, or the expression description's name.
        let key: String
        /// Where the value starts in the result row.
        let index: Int
        /// How the value is read.
        let kind: Kind
    }

    /// The statement's text.
    let sql: String
    /// The values bound to its parameters.
    let arguments: StatementArguments
    /// The keys of the result dictionaries, in `propertiesToFetch` order.
    let columns: [Column]
}
