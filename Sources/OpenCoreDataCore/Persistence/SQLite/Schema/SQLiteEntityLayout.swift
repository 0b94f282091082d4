/// How the rows of one entity are laid out in a Core Data SQLite store.
struct SQLiteEntityLayout: Hashable, Sendable {
    /// The entity's name.
    let name: String
    /// The entity number (`Z_ENT`), from 1.
    let number: Int
    /// The superentity's number, 0 for a root entity (`Z_PRIMARYKEY.Z_SUPER`).
    let superNumber: Int
    /// The number of the root of the entity's inheritance tree, whose `Z_PRIMARYKEY` row allocates
    /// the primary keys of the whole tree.
    let rootNumber: Int
    /// The table holding the rows of the entity and of every entity of its inheritance tree.
    let table: String
    /// The numbers of the entity and of all its subentities, recursively (ascending).
    let numbersIncludingSubentities: [Int]
    /// The column of each stored attribute, inherited ones included, keyed by attribute name.
    /// Elements of a composite attribute are keyed by their dotted path (`location.latitude`).
    let attributeColumns: [String: String]
    /// The storage of each relationship, inherited ones included, keyed by relationship name.
    let relationships: [String: SQLiteRelationshipStorage]
}
