/// The SQLite layout a managed object model implies: Core Data's entity numbers, tables, columns,
/// join tables and indexes (STORE-FORMAT.md; `Docs/StoreFormat.md` describes the rules as built).
///
/// The layout is computed from the model alone, so a store written by Apple's Core Data for a model
/// and a store OpenCoreData creates for it have the same tables, columns and indexes.
struct SQLiteSchema: Sendable {
    /// A row of `Z_PRIMARYKEY` in a new store.
    struct PrimaryKeyRow: Hashable, Sendable {
        /// The entity number (`Z_ENT`).
        let number: Int
        /// The entity name (`Z_NAME`).
        let name: String
        /// The superentity's number, 0 for a root entity (`Z_SUPER`).
        let superNumber: Int
    }

    /// The layout of each entity, in entity-number order.
    let entities: [SQLiteEntityLayout]
    /// The entity tables (in the order of their root entities' numbers), then the join tables
    /// (by name).
    let tables: [SQLiteTable]
    /// The indexes of the entity and join tables.
    let indexes: [SQLiteIndex]

    /// Computes the layout of the entities of the named configuration of a model (every entity for
    /// `nil` or the default configuration).
    ///
    /// - Throws: an `NSError` (``NSCoreDataError``) naming the entity or property when the model cannot
    ///   be laid out: an entity without a name, an unknown configuration, a relationship whose
    ///   destination is outside the configuration, or an index feature the store does not build.
    init(model: NSManagedObjectModel, configurationName: String? = nil) throws {
        var builder = try SQLiteSchemaBuilder(model: model, configurationName: configurationName)
        try builder.build()
        entities = builder.layouts()
        tables = builder.tables()
        indexes = builder.indexes
    }

    /// The layout of the named entity.
    func entity(named name: String) -> SQLiteEntityLayout? {
        entities.first { $0.name == name }
    }

    /// The table with the given name.
    func table(named name: String) -> SQLiteTable? {
        tables.first { $0.name == name }
    }

    /// The `Z_PRIMARYKEY` rows of a new store, one per entity (each with `Z_MAX` 0).
    var primaryKeyRows: [PrimaryKeyRow] {
        entities.map { PrimaryKeyRow(number: $0.number, name: $0.name, superNumber: $0.superNumber) }
    }
}

/// The error thrown when a model cannot be laid out in a SQLite store.
func _sqliteSchemaError(_ message: String) -> NSError {
    NSError(
        domain: NSCocoaErrorDomain, code: NSCoreDataError,
        userInfo: [
            NSLocalizedDescriptionKey: "The model cannot be stored in a SQLite store: \(message)",
            NSLocalizedFailureReasonErrorKey: message,
        ])
}
