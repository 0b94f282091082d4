/// The kinds of index structure a fetch index element can use.
public enum NSFetchIndexElementType: UInt, Sendable, CaseIterable {
    /// A binary tree (B-tree) index, for ordering and equality.
    case binary = 0
    /// An R-tree index, for range queries over bounding values.
    case rTree = 1
}
