/// Where a store keeps the destinations of one relationship of one entity.
enum SQLiteRelationshipStorage: Hashable, Sendable {
    /// A to-one relationship: the destination's `Z_PK` in `column` of the source row's table;
    /// `entityColumn` holds the destination's `Z_ENT` when the destination entity has subentities;
    /// `orderColumn` (`Z_FOK_…`) holds the row's position in the inverse relationship when that inverse
    /// is an ordered to-many relationship.
    case foreignKey(column: String, entityColumn: String?, orderColumn: String?)
    /// A to-many relationship whose inverse is to-one: the destinations are the rows of `table` whose
    /// `column` holds the source's `Z_PK`; `orderColumn` orders them when the relationship is ordered.
    case inverseForeignKey(table: String, column: String, orderColumn: String?)
    /// A many-to-many relationship (or a to-many relationship without an inverse): rows of the join
    /// table `table` pair the source's `Z_PK` in `sourceColumn` with a destination's `Z_PK` in
    /// `destinationColumn`; `orderColumn` orders the destinations when the relationship is ordered.
    case joinTable(table: String, sourceColumn: String, destinationColumn: String, orderColumn: String?)
}
