/// A request for the persistent history of stores added with ``NSPersistentHistoryTrackingKey``: the
/// transactions after a date, a token or a transaction, those a fetch request selects, or the deletion
/// of the history before a date, a token or a transaction.
///
/// Execute it with ``NSManagedObjectContext/execute(_:)``, which returns an ``NSPersistentHistoryResult``
/// whose `result` depends on ``resultType``. Transactions come in the order they were written.
///
/// As in Apple's Core Data:
/// - "after" is strict, and so is "before": `deleteHistory(before: token)` keeps the token's own
///   transaction;
/// - a fetch after a token or transaction whose transaction was deleted fails with
///   ``NSPersistentHistoryTokenExpiredError`` (134301): the history between it and what is left is gone;
/// - a store opened without ``NSPersistentHistoryTrackingKey`` answers no history request (134091);
/// - a fetch request's limit is ignored, and sort descriptors are refused (history comes in transaction
///   order; Apple raises `NSInvalidArgumentException`, OpenCoreData throws 134091 naming the key path);
/// - the result type of a delete stays ``NSPersistentHistoryResultType/statusOnly`` unless set to
///   ``NSPersistentHistoryResultType/count`` (the number of transactions deleted).
open class NSPersistentHistoryChangeRequest: NSPersistentStoreRequest {
    /// What the request selects.
    enum Selection {
        /// Every transaction, for a plain `init()`.
        case all
        /// Transactions committed after a date (delete: before it).
        case date(Date)
        /// Transactions after a token's (delete: before it); a `nil` token selects the whole history.
        case token(NSPersistentHistoryToken?)
        /// Transactions after a transaction (delete: before it); a `nil` transaction selects everything.
        case transaction(HistoryTransactionReference?)
        /// Transactions (or changes) a fetch request matches.
        case fetchRequest
    }

    var _selection: Selection = .all
    /// Whether the request deletes the history it selects.
    var _isDelete = false
    private var _resultType: NSPersistentHistoryResultType = .transactionsAndChanges
    private var _fetchRequest: NSFetchRequest<NSFetchRequestResult>?

    /// Creates a request that fetches the whole history.
    public required init() {
        // Apple's public request types name none for history; a fetch of history is a fetch.
        super.init(requestType: .fetchRequestType)
    }

    /// A request of the class it is called on, selecting `selection`.
    private static func make(
        _ selection: Selection, isDelete: Bool,
        fetchRequest: NSFetchRequest<NSFetchRequestResult>? = nil
    ) -> Self {
        let request = self.init()
        request._selection = selection
        request._isDelete = isDelete
        request._resultType = isDelete ? .statusOnly : .transactionsAndChanges
        request._fetchRequest = fetchRequest
        return request
    }

    /// A request for the transactions committed after a date.
    open class func fetchHistory(after date: Date) -> Self {
        make(.date(date), isDelete: false)
    }

    /// A request for the transactions after a token's place; `nil` asks for the whole history.
    open class func fetchHistory(after token: NSPersistentHistoryToken?) -> Self {
        make(.token(token), isDelete: false)
    }

    /// A request for the transactions after a transaction of its store; `nil` asks for the whole history.
    open class func fetchHistory(after transaction: NSPersistentHistoryTransaction?) -> Self {
        make(.transaction(transaction.map { HistoryTransactionReference(number: $0.transactionNumber, storeID: $0.storeID) }), isDelete: false)
    }

    /// A request for the transactions — or, for a request of ``NSPersistentHistoryChange``'s entity, the
    /// changes — that a fetch request of ``NSPersistentHistoryTransaction/entityDescription(with:)`` or
    /// ``NSPersistentHistoryChange/entityDescription(with:)`` matches. Its predicate reads the properties
    /// by their public names (`author`, `timestamp`, `transactionNumber`, `changedObjectID`,
    /// `changeType`, `transaction.author`, …).
    open class func fetchHistory(withFetch fetchRequest: NSFetchRequest<NSFetchRequestResult>) -> Self {
        make(.fetchRequest, isDelete: false, fetchRequest: fetchRequest)
    }

    /// A request that deletes the transactions committed before a date.
    open class func deleteHistory(before date: Date) -> Self {
        make(.date(date), isDelete: true)
    }

    /// A request that deletes the transactions before a token's place (its own transaction stays);
    /// `nil` deletes nothing.
    open class func deleteHistory(before token: NSPersistentHistoryToken?) -> Self {
        make(.token(token), isDelete: true)
    }

    /// A request that deletes the transactions of a transaction's store before it (it stays); `nil`
    /// deletes nothing.
    open class func deleteHistory(before transaction: NSPersistentHistoryTransaction?) -> Self {
        make(.transaction(transaction.map { HistoryTransactionReference(number: $0.transactionNumber, storeID: $0.storeID) }), isDelete: true)
    }

    /// What executing the request returns; ``NSPersistentHistoryResultType/transactionsAndChanges`` for
    /// a fetch unless set, ``NSPersistentHistoryResultType/statusOnly`` for a delete (which takes only
    /// ``NSPersistentHistoryResultType/count`` besides).
    open var resultType: NSPersistentHistoryResultType {
        get { _resultType }
        set {
            if _isDelete && newValue != .statusOnly && newValue != .count { return }
            _resultType = newValue
        }
    }

    /// The token the request was made with, `nil` for the other kinds.
    open var token: NSPersistentHistoryToken? {
        if case .token(let token) = _selection { return token }
        return nil
    }

    /// The fetch request narrowing the history (the one given to `fetchHistory(withFetch:)`, or one set
    /// on a request made otherwise: both apply).
    open var fetchRequest: NSFetchRequest<NSFetchRequestResult>? {
        get { _fetchRequest }
        set { _fetchRequest = newValue }
    }

    /// Returns a copy of the request.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = Self.make(_selection, isDelete: _isDelete, fetchRequest: _fetchRequest)
        copy._resultType = _resultType
        copy._affectedStores = _affectedStores
        return copy
    }

    /// As Apple's Core Data describes a request: kind, date and result type.
    open override var description: String {
        var date = "(null)"
        if case .date(let value) = _selection { date = "\(value)" }
        return "NSPersistentHistoryChangeRequest : \(_isDelete ? "Delete" : "Fetch") < \(date) - (null)-(null)> \(_resultType.rawValue)"
    }
}

/// A transaction named by a request: its number in the history of the store with this identifier.
struct HistoryTransactionReference: Sendable {
    let number: Int64
    let storeID: String
}
