/// One column of the result of a compiled fetch: its position and what it holds.
struct SQLiteResultColumn: Hashable, Sendable {
    /// What a result column holds.
    enum Role: Hashable, Sendable {
        /// `Z_PK`, the row's primary key.
        case primaryKey
        /// `Z_ENT`, the entity number of the row's entity.
        case entityNumber
        /// A literal in place of `Z_ENT` when every row is of the entity with this number.
        case fixedEntityNumber(Int64)
        /// `Z_OPT`, the row's version for optimistic locking.
        case version
        /// The stored value of an attribute (for a composite attribute's element, its dotted path),
        /// encoded as ``SQLiteValueEncoding`` encodes values of `type`.
        case attribute(name: String, type: NSAttributeType)
        /// The `Z_PK` of the destination of a to-one relationship (NULL when there is none).
        case toOneKey(relationship: String)
        /// The `Z_ENT` of the destination of a to-one relationship, present when the destination
        /// entity has subentities.
        case toOneEntity(relationship: String)
        /// `COUNT(*)` of a `.count` selection.
        case count
    }

    /// The column's position in the result row, from 0.
    let index: Int
    /// What the column holds.
    let role: Role
    /// The names of the entities whose rows have this property: the declaring entity and its
    /// subentities (empty for `Z_PK`, `Z_ENT`, `Z_OPT` and the count, which every row has). A column of
    /// an entity a row does not belong to is NULL in that row and is no value of the row.
    let entities: Set<String>
}
