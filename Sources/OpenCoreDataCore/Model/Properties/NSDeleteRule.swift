/// The rules that govern what happens to a relationship's destination objects when its source object
/// is deleted.
public enum NSDeleteRule: UInt, Sendable, CaseIterable {
    /// Leaves the destination objects unchanged, even if they still point to the deleted object.
    case noActionDeleteRule = 0
    /// Removes the deleted object from the destination objects' inverse relationship.
    case nullifyDeleteRule = 1
    /// Deletes the destination objects too.
    case cascadeDeleteRule = 2
    /// Refuses the deletion while the relationship has at least one destination object.
    case denyDeleteRule = 3
}
