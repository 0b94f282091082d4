import GRDB

/// Compiles fetch requests into SQL against the layout of one store: the entity (and subentities),
/// the predicate, the sort descriptors, the limit and the offset become one parameterized statement.
struct SQLiteFetchCompiler: Sendable {
    /// What a compiled statement selects.
    enum Selection: Sendable {
        /// Every stored column of the matching rows (see ``SQLiteCompiledQuery/columns``).
        case rows
        /// `Z_PK` and `Z_ENT` of the matching rows.
        case objectIDs
        /// The number of matching rows (limit and offset applied).
        case count
    }

    /// The store's layout.
    let schema: SQLiteSchema
    /// The model the layout was computed from.
    let model: NSManagedObjectModel

    /// Creates a compiler for a store laid out as `schema` for `model`.
    init(schema: SQLiteSchema, model: NSManagedObjectModel) {
        self.schema = schema
        self.model = model
    }
}

extension SQLiteFetchCompiler {
    /// Compiles a fetch request into one statement selecting `selection`.
    ///
    /// - Throws: an `NSError` in `NSCocoaErrorDomain` with code ``NSPersistentStoreUnsupportedRequestTypeError``
    ///   naming the request's entity, predicate or sort descriptor when the store cannot run it in SQL
    ///   (a block predicate, a custom selector, a function without an SQL form, a key path that names no
    ///   stored property…). The store never answers such a request with results evaluated differently.
    func compile<Result>(_ request: NSFetchRequest<Result>, selection: Selection) throws -> SQLiteCompiledQuery {
        throw SQLiteFetchCompiler.unsupported("fetch requests are not compiled yet")
    }

    /// The error thrown for a request the store cannot run.
    static func unsupported(_ message: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError, userInfo: [
            NSLocalizedDescriptionKey: "The SQLite store cannot run this fetch request: \(message)",
            NSLocalizedFailureReasonErrorKey: message,
        ])
    }
}
