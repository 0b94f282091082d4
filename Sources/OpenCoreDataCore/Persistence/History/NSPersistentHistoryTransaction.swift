/// One recorded write to a store with persistent history tracking: a save, or a batch insert, update or
/// delete, with the changes it made.
///
/// Transactions come from executing an ``NSPersistentHistoryChangeRequest``. A transaction's number
/// (its `ATRANSACTION.Z_PK`) grows with every write; ``token`` names the place right after it. Merge a
/// transaction into a context with
/// `context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())`.
///
/// On Linux, where `NSObject` has no key-value coding, transactions adopt ``KeyValueCoding`` so that the
/// predicates of `fetchHistory(withFetch:)` can read them.
// @unchecked Sendable: immutable once the reader has attached its changes.
open class NSPersistentHistoryTransaction: NSObject, NSCopying, KeyValueCoding, @unchecked Sendable {
    private let _timestamp: Date
    var _changes: [NSPersistentHistoryChange]?
    private let _transactionNumber: Int64
    private let _storeID: String
    private let _bundleID: String
    private let _processID: String
    private let _contextName: String?
    private let _author: String?

    init(
        timestamp: Date, transactionNumber: Int64, storeID: String, bundleID: String, processID: String,
        contextName: String?, author: String?
    ) {
        _timestamp = timestamp
        _transactionNumber = transactionNumber
        _storeID = storeID
        _bundleID = bundleID
        _processID = processID
        _contextName = contextName
        _author = author
        super.init()
    }

    /// When the write was committed.
    open var timestamp: Date { _timestamp }

    /// The changes of the write; `nil` for a request of ``NSPersistentHistoryResultType/transactionsOnly``.
    /// A fetch request over ``NSPersistentHistoryChange`` leaves only the changes it matched.
    open var changes: [NSPersistentHistoryChange]? { _changes }

    /// The transaction's number in its store's history: larger for later writes.
    open var transactionNumber: Int64 { _transactionNumber }

    /// The identifier (``NSStoreUUIDKey``) of the store written.
    open var storeID: String { _storeID }

    /// The bundle identifier of the program that wrote, or its process name where it has no bundle
    /// identifier (a Linux program, usually).
    open var bundleID: String { _bundleID }

    /// The name of the process that wrote.
    open var processID: String { _processID }

    /// The ``NSManagedObjectContext/name`` of the context that wrote, `nil` when it had none.
    open var contextName: String? { _contextName }

    /// The ``NSManagedObjectContext/transactionAuthor`` of the context that wrote, `nil` when it had none.
    open var author: String? { _author }

    /// The token of the place right after this transaction in its store's history.
    open var token: NSPersistentHistoryToken {
        NSPersistentHistoryToken(transactionNumbers: [_storeID: _transactionNumber])
    }

    /// Returns the transaction itself: transactions are immutable.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    /// Two transactions are equal when they are the same transaction of the same store.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSPersistentHistoryTransaction else { return false }
        return other._transactionNumber == _transactionNumber && other._storeID == _storeID
    }

    /// A hash consistent with ``isEqual(_:)``.
    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(_storeID)
        hasher.combine(_transactionNumber)
        return hasher.finalize()
    }

    open override var description: String {
        "<NSPersistentHistoryTransaction: \(_transactionNumber) (store \(_storeID)) \(_timestamp) author \(_author ?? "(null)") "
            + "context \(_contextName ?? "(null)") bundle \(_bundleID) process \(_processID), \(_changes.map { "\($0.count) changes" } ?? "no changes")>"
    }

    /// The properties by the names a history fetch request's predicate uses.
    open func value(forKey key: String) -> Any? {
        switch key {
        case "timestamp": return _timestamp
        case "changes": return _changes
        case "transactionNumber": return NSNumber(value: _transactionNumber)
        case "storeID": return _storeID
        case "bundleID": return _bundleID
        case "processID": return _processID
        case "contextName": return _contextName
        case "author": return _author
        case "token": return token
        default: return nil
        }
    }
}

/// One object's change in a transaction: its ID, whether it was inserted, updated or deleted, the
/// properties an update changed, and for a delete the values the model preserves.
// @unchecked Sendable: immutable once the reader made it.
open class NSPersistentHistoryChange: NSObject, NSCopying, KeyValueCoding, @unchecked Sendable {
    private let _changeID: Int64
    private let _changedObjectID: NSManagedObjectID
    private let _changeType: NSPersistentHistoryChangeType
    private let _tombstone: [AnyHashable: Any]?
    private let _updatedProperties: Set<NSPropertyDescription>?
    /// The transaction, held weakly: the transaction holds its changes. A change fetched with
    /// ``NSPersistentHistoryResultType/changesOnly`` has none.
    weak var _transaction: NSPersistentHistoryTransaction?

    init(
        changeID: Int64, changedObjectID: NSManagedObjectID, changeType: NSPersistentHistoryChangeType,
        tombstone: [AnyHashable: Any]?, updatedProperties: Set<NSPropertyDescription>?
    ) {
        _changeID = changeID
        _changedObjectID = changedObjectID
        _changeType = changeType
        _tombstone = tombstone
        _updatedProperties = updatedProperties
        super.init()
    }

    /// The change's number in its store's history (`ACHANGE.Z_PK`).
    open var changeID: Int64 { _changeID }

    /// The ID of the object changed.
    open var changedObjectID: NSManagedObjectID { _changedObjectID }

    /// Whether the object was inserted, updated or deleted.
    open var changeType: NSPersistentHistoryChangeType { _changeType }

    /// For a delete, the last values of the object's attributes marked
    /// ``NSAttributeDescription/preservesValueInHistoryOnDeletion`` (attributes stored externally excepted),
    /// by attribute name; `nil` for inserts and updates.
    open var tombstone: [AnyHashable: Any]? { _tombstone }

    /// The transaction the change belongs to; `nil` for changes fetched on their own
    /// (``NSPersistentHistoryResultType/changesOnly``). Held weakly: keep the transaction to keep it.
    open var transaction: NSPersistentHistoryTransaction? { _transaction }

    /// For an update, the properties the write changed; `nil` for inserts and deletes, and for an update
    /// whose recorded properties this model cannot name.
    open var updatedProperties: Set<NSPropertyDescription>? { _updatedProperties }

    /// Returns the change itself: changes are immutable.
    open func copy(with zone: NSZone? = nil) -> Any {
        self
    }

    /// Two changes are equal when they are the same change of the same store.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? NSPersistentHistoryChange else { return false }
        return other._changeID == _changeID && other._changedObjectID.storeIdentifier == _changedObjectID.storeIdentifier
    }

    /// A hash consistent with ``isEqual(_:)``.
    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(_changedObjectID.storeIdentifier)
        hasher.combine(_changeID)
        return hasher.finalize()
    }

    open override var description: String {
        let kind = ["insert", "update", "delete"][_changeType.rawValue]
        var text = "<NSPersistentHistoryChange: \(_changeID) \(kind) \(_changedObjectID.uriRepresentation().absoluteString)"
        if let properties = _updatedProperties { text += " properties \(properties.map(\.name).sorted())" }
        if let tombstone = _tombstone { text += " tombstone \(tombstone.count) values" }
        return text + ">"
    }

    /// The properties by the names a history fetch request's predicate uses.
    open func value(forKey key: String) -> Any? {
        switch key {
        case "changeID": return NSNumber(value: _changeID)
        case "changedObjectID": return _changedObjectID
        case "changeType": return NSNumber(value: _changeType.rawValue)
        case "changedEntity": return _changedObjectID.entity
        case "tombstone": return _tombstone
        case "transaction": return _transaction
        case "updatedProperties": return _updatedProperties
        default: return nil
        }
    }
}
