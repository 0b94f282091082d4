/// A column of a table in a Core Data SQLite store: its name, declared type and what it holds.
struct SQLiteColumn: Hashable, Sendable {
    /// What a column holds.
    enum Role: Hashable, Sendable {
        /// `Z_PK`, the row's primary key.
        case primaryKey
        /// `Z_ENT`, the entity number of the row's entity.
        case entityNumber
        /// `Z_OPT`, the row's version for optimistic locking.
        case optimisticLock
        /// The value of an attribute declared by `entity`. For an element of a composite attribute the
        /// path is the composite's name followed by the element names, joined by dots.
        case attribute(entity: String, path: String)
        /// The `Z_PK` of the destination row of a to-one relationship declared by `entity`.
        case foreignKey(entity: String, relationship: String)
        /// The `Z_ENT` of the destination row of a to-one relationship declared by `entity`, kept when
        /// the destination entity has subentities.
        case foreignEntity(entity: String, relationship: String)
        /// The position of the row in the ordered to-many inverse of a to-one relationship declared by
        /// `entity` (`Z_FOK_` columns).
        case orderKey(entity: String, relationship: String)
        /// In a join table: the `Z_PK` of the rows of `entity` whose relationship `relationship` holds
        /// the row named by the other key column.
        case joinKey(entity: String, relationship: String)
        /// In a join table: the position of a destination in the ordered relationship `relationship`
        /// of `entity`.
        case joinOrderKey(entity: String, relationship: String)
    }

    /// The column's name, for example `ZTITLE` or `Z_5NOTES`.
    let name: String
    /// The column's declared type.
    let type: SQLiteColumnType
    /// What the column holds.
    let role: Role

    /// The column's definition in `CREATE TABLE`: `Z_PK INTEGER PRIMARY KEY` or `ZTITLE VARCHAR`.
    var definition: String {
        role == .primaryKey ? "\(name) \(type.rawValue) PRIMARY KEY" : "\(name) \(type.rawValue)"
    }
}
