/// Persistent history through the coordinator: the current token of its stores, and running history
/// change requests on them.
extension NSPersistentStoreCoordinator {
    /// A token naming the current end of the persistent history of some of the coordinator's stores:
    /// `stores` (persistent store objects), or every store for `nil` or an empty array. `nil` when none of
    /// them was added with ``NSPersistentHistoryTrackingKey``.
    ///
    /// A later `fetchHistory(after:)` with the token returns what was written after this call.
    public func currentPersistentHistoryToken(fromStores stores: [Any]?) -> NSPersistentHistoryToken? {
        let given = (stores ?? []).compactMap { $0 as? NSPersistentStore }
        var numbers: [String: Int64] = [:]
        for store in given.isEmpty ? persistentStores : given {
            guard let sqlite = store as? SQLiteStore, let identifier = store.identifier,
                let number = try? sqlite.currentHistoryTransactionNumber()
            else { continue }
            numbers[identifier] = number
        }
        return numbers.isEmpty ? nil : NSPersistentHistoryToken(transactionNumbers: numbers)
    }

    /// Runs a history request on the stores it concerns — its affected stores (or all) that track history,
    /// and for a request after or before a transaction that transaction's store — and returns what its
    /// result type asks for (see ``NSPersistentHistoryResultType``).
    ///
    /// - Throws: 134091 when none of those stores tracks history, or the fetch request is not one of the
    ///   history entities or sorts; ``NSPersistentHistoryTokenExpiredError`` (134301) when the request
    ///   follows a token or transaction whose transaction was deleted; the store's errors.
    func executeHistoryRequest(_ request: NSPersistentHistoryChangeRequest) throws -> Any {
        var stores = (request._affectedStores?.compactMap { $0 as? NSPersistentStore } ?? persistentStores)
        if case .transaction(let reference?) = request._selection {
            stores = stores.filter { $0.identifier == reference.storeID }
        }
        let tracked = stores.compactMap { store -> SQLiteStore? in
            guard let sqlite = store as? SQLiteStore, sqlite._history != nil else { return nil }
            return sqlite
        }
        guard !tracked.isEmpty else {
            if case .transaction(_?) = request._selection, stores.isEmpty {
                // The transaction's store is not one of the coordinator's: there is nothing after it here.
                return request._isDelete ? NSNumber(value: true) : Self._historyResult(request.resultType, transactions: [])
            }
            let store = stores.first { $0 is SQLiteStore } ?? stores.first
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "No history tracking option detected on store at \(store?.url?.path ?? "(no store)"): add it with NSPersistentHistoryTrackingKey to read or delete its history."
                ])
        }
        if request._isDelete {
            var deleted = 0
            for store in tracked {
                let bound = Self._deleteBound(request._selection, store: store)
                deleted += try store.deleteHistory(bound)
            }
            return request.resultType == .count ? NSNumber(value: deleted) : NSNumber(value: true)
        }
        let filter = try HistoryFetchFilter(request)
        let includesChanges = filter.needsChanges || [.objectIDs, .changesOnly, .transactionsAndChanges].contains(request.resultType)
        var transactions: [NSPersistentHistoryTransaction] = []
        for store in tracked {
            var query = Self._fetchQuery(request._selection, store: store)
            query.includesChanges = includesChanges
            let read = try store.readHistory { try $0.transactions(query) }
            transactions += filter.apply(to: read)
        }
        return Self._historyResult(request.resultType, transactions: transactions)
    }

    /// What a fetch's result type makes of the transactions read.
    private static func _historyResult(_ type: NSPersistentHistoryResultType, transactions: [NSPersistentHistoryTransaction]) -> Any {
        switch type {
        case .statusOnly:
            return NSNumber(value: true)
        case .count:
            return NSNumber(value: transactions.count)
        case .objectIDs:
            return transactions.flatMap { ($0.changes ?? []).map(\.changedObjectID) }
        case .transactionsOnly:
            for transaction in transactions { transaction._changes = nil }
            return transactions
        case .changesOnly:
            let changes = transactions.flatMap { $0.changes ?? [] }
            for change in changes { change._transaction = nil }
            return changes
        case .transactionsAndChanges:
            return transactions
        }
    }

    /// What a fetch request of a kind selects in one store.
    private static func _fetchQuery(_ selection: NSPersistentHistoryChangeRequest.Selection, store: SQLiteStore) -> SQLiteHistoryQuery {
        switch selection {
        case .all, .fetchRequest, .token(nil), .transaction(nil):
            return SQLiteHistoryQuery(bound: .all)
        case .date(let date):
            return SQLiteHistoryQuery(bound: .afterDate(date))
        case .token(let token?):
            // A token that does not name the store leaves all of its history to read.
            guard let number = token.transactionNumber(ofStore: store.identifier ?? "") else { return SQLiteHistoryQuery(bound: .all) }
            return SQLiteHistoryQuery(bound: .afterNumber(number), mustNotBeExpired: number)
        case .transaction(let reference?):
            return SQLiteHistoryQuery(bound: .afterNumber(reference.number), mustNotBeExpired: reference.number)
        }
    }

    /// What a delete request of a kind deletes in one store: before the date, token or transaction;
    /// nothing for a `nil` token or transaction, or a token that does not name the store.
    private static func _deleteBound(_ selection: NSPersistentHistoryChangeRequest.Selection, store: SQLiteStore) -> SQLiteHistoryQuery.Bound {
        switch selection {
        case .all, .fetchRequest, .token(nil), .transaction(nil):
            return .none
        case .date(let date):
            return .beforeDate(date)
        case .token(let token?):
            return token.transactionNumber(ofStore: store.identifier ?? "").map { .beforeNumber($0) } ?? .none
        case .transaction(let reference?):
            return .beforeNumber(reference.number)
        }
    }
}

/// The fetch request of a history request, as a filter of the transactions read: a predicate over the
/// transactions, or over the changes (each transaction then keeps the changes it matched, and
/// transactions with none are left out).
struct HistoryFetchFilter {
    let subject: HistoryEntities.Subject
    let predicate: NSPredicate?

    init(_ request: NSPersistentHistoryChangeRequest) throws {
        guard let fetch = request.fetchRequest else {
            subject = .transactions
            predicate = nil
            return
        }
        guard let subject = HistoryEntities.subject(of: fetch) else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "A persistent history fetch request must be of the entity NSPersistentHistoryTransaction.entityDescription(with:) or NSPersistentHistoryChange.entityDescription(with:); this one is of \(fetch.entityName ?? fetch.entity?.name ?? "no entity")."
                ])
        }
        if let sort = fetch.sortDescriptors?.first {
            // Apple's Core Data raises NSInvalidArgumentException here; a thrown error says the same.
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "keypath \(sort.key ?? "(none)") not found in entity \(subject == .transactions ? "TRANSACTION" : "CHANGE"): persistent history fetch requests take no sort descriptors (history comes in transaction order)."
                ])
        }
        self.subject = subject
        predicate = fetch.predicate
    }

    /// Whether the changes must be read to apply the filter.
    var needsChanges: Bool {
        subject == .changes || (predicate?.predicateFormat.contains("changes") ?? false)
    }

    func apply(to transactions: [NSPersistentHistoryTransaction]) -> [NSPersistentHistoryTransaction] {
        guard let predicate else { return transactions }
        switch subject {
        case .transactions:
            return transactions.filter { predicate.evaluate(with: $0) }
        case .changes:
            return transactions.filter { transaction in
                let matched = (transaction._changes ?? []).filter { predicate.evaluate(with: $0) }
                transaction._changes = matched
                return !matched.isEmpty
            }
        }
    }
}
