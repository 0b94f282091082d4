/// The kinds of change a persistent history change records.
public enum NSPersistentHistoryChangeType: Int, Sendable, CaseIterable {
    /// The object was inserted.
    case insert = 0
    /// The object was updated.
    case update = 1
    /// The object was deleted.
    case delete = 2
}

/// What a persistent history change request returns in its ``NSPersistentHistoryResult``.
public enum NSPersistentHistoryResultType: Int, Sendable, CaseIterable {
    /// Whether the request succeeded, as an `NSNumber` holding a Boolean.
    case statusOnly = 0
    /// The IDs of the changed objects, one per change, in history order.
    case objectIDs = 1
    /// The number of matching transactions, as an `NSNumber`.
    case count = 2
    /// The matching transactions, whose ``NSPersistentHistoryTransaction/changes`` is `nil`.
    case transactionsOnly = 3
    /// The matching changes, whose ``NSPersistentHistoryChange/transaction`` is `nil`.
    case changesOnly = 4
    /// The matching transactions with their changes (the default of a fetch).
    case transactionsAndChanges = 5
}
