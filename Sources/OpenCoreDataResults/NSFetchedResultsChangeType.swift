import OpenCoreDataCore

/// The kinds of change a fetched results controller reports to its delegate.
public enum NSFetchedResultsChangeType: UInt, Sendable {
    /// An object or section was added to the results.
    case insert = 1
    /// An object or section was removed from the results.
    case delete = 2
    /// An object changed its position in the results.
    case move = 3
    /// An object changed its values without changing its position in the results.
    case update = 4
}
