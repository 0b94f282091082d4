import GRDB

/// What a history read selects in one store.
struct SQLiteHistoryQuery {
    /// Which transactions.
    enum Bound {
        /// Every transaction.
        case all
        /// Transactions numbered above a number.
        case afterNumber(Int64)
        /// Transactions committed after a date.
        case afterDate(Date)
        /// Transactions numbered below a number (deletes).
        case beforeNumber(Int64)
        /// Transactions committed before a date (deletes).
        case beforeDate(Date)
        /// No transaction.
        case none
    }

    var bound: Bound
    /// The number of a token's or transaction's transaction, which must not have been deleted: a read
    /// after it would silently miss what went with it (``NSPersistentHistoryTokenExpiredError``).
    var mustNotBeExpired: Int64? = nil
    /// Whether the transactions' changes are read too.
    var includesChanges: Bool = true

    /// The `WHERE` clause and its argument.
    var condition: (sql: String, argument: DatabaseValue?) {
        switch bound {
        case .all: return ("1", nil)
        case .none: return ("0", nil)
        case .afterNumber(let number): return ("Z_PK > ?", number.databaseValue)
        case .beforeNumber(let number): return ("Z_PK < ?", number.databaseValue)
        case .afterDate(let date): return ("ZTIMESTAMP > ?", date.timeIntervalSinceReferenceDate.databaseValue)
        case .beforeDate(let date): return ("ZTIMESTAMP < ?", date.timeIntervalSinceReferenceDate.databaseValue)
        }
    }
}

/// Reads a store's history tables into transactions and changes, inside one read of the store, and
/// reads leniently what a damaged or foreign row holds: a string key naming no string reads as no string,
/// a change of an entity number, change type or primary key the store does not know is left out, and a
/// `ZCOLUMNS` bitmap naming properties the model lacks gives no updated properties. Only a transaction or
/// change whose own number (`Z_PK`) is not an integer is an error (the store file is damaged). History
/// reads touch no other table than `ATRANSACTION`, `ACHANGE`, `ATRANSACTIONSTRING` and `Z_PRIMARYKEY`.
struct SQLiteHistoryReader {
    let store: SQLiteStore
    let tracking: SQLiteHistoryTracking
    let db: Database

    /// The last transaction number handed out (`Z_PRIMARYKEY.Z_MAX` of `TRANSACTION`), 0 before the first.
    func lastTransactionNumber() throws -> Int64 {
        let value =
            try DatabaseValue.fetchOne(
                db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                arguments: [SQLiteHistorySchema.transactionEntity]) ?? .null
        let recorded = (try? SQLiteDamagedValue.integer(value, column: "Z_PRIMARYKEY.Z_MAX")) ?? nil
        // A file whose Z_MAX fell behind its rows (written by a tool that added rows itself) is read by its rows.
        let largest =
            (try? DatabaseValue.fetchOne(db, sql: "SELECT max(Z_PK) FROM ATRANSACTION")).flatMap { $0 }
            .flatMap { try? SQLiteDamagedValue.integer($0, column: "ATRANSACTION.Z_PK") } ?? 0
        return max(recorded ?? 0, largest)
    }

    /// Throws ``NSPersistentHistoryTokenExpiredError`` when the transaction numbered `number` was deleted
    /// from the history: when it is below the first transaction left (the first number not yet handed
    /// out, once every transaction was deleted) and some transaction was deleted. A token of a store with
    /// no history yet (0) expires once anything is deleted.
    func checkNotExpired(_ number: Int64) throws {
        let first = try Int64.fetchOne(db, sql: "SELECT min(Z_PK) FROM ATRANSACTION") ?? (try lastTransactionNumber() + 1)
        guard number < first, first > 1 else { return }
        throw NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentHistoryTokenExpiredError,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "The persistent history token has expired: the history of the store at \(store.fileURL.path) was deleted up to transaction \(first - 1), and the token names transaction \(number). Fetch the history again from a date or from its start.",
                NSAffectedStoresErrorKey: [store],
            ])
    }

    /// The transactions a query selects, in number order, with their changes when it asks for them.
    func transactions(_ query: SQLiteHistoryQuery) throws -> [NSPersistentHistoryTransaction] {
        if let number = query.mustNotBeExpired { try checkNotExpired(number) }
        let strings = try self.strings()
        let condition = query.condition
        let sql = """
            SELECT Z_PK, ZTIMESTAMP, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZAUTHOR, ZBUNDLEID, ZCONTEXTNAME, ZPROCESSID
            FROM ATRANSACTION WHERE \(condition.sql) ORDER BY Z_PK
            """
        let arguments = condition.argument.map { StatementArguments(databaseValues: [$0]) } ?? StatementArguments()
        let storeID = store.identifier ?? ""
        var transactions: [NSPersistentHistoryTransaction] = []
        for row in try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments) {
            let number = try row.requiredStoredInteger(atIndex: 0)
            func string(_ keyIndex: Int) -> String? {
                if let key = lenientInteger(row[keyIndex]), let string = strings[key] { return string }
                // Apple leaves the plain twin NULL; a tool writing the file itself may have used it.
                return String.fromDatabaseValue(row[keyIndex + 4])
            }
            let timestamp = Double.fromDatabaseValue(row[1]) ?? 0
            transactions.append(
                NSPersistentHistoryTransaction(
                    timestamp: Date(timeIntervalSinceReferenceDate: timestamp), transactionNumber: number, storeID: storeID,
                    bundleID: string(3) ?? "", processID: string(5) ?? "", contextName: string(4), author: string(2)))
        }
        if query.includesChanges, let first = transactions.first?.transactionNumber, let last = transactions.last?.transactionNumber {
            try attachChanges(to: transactions, from: first, through: last)
        }
        return transactions
    }

    /// The interned strings by key.
    private func strings() throws -> [Int64: String] {
        var strings: [Int64: String] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT Z_PK, ZNAME FROM ATRANSACTIONSTRING")) {
            guard let key = lenientInteger(row[0]), let name = String.fromDatabaseValue(row[1]) else { continue }
            strings[key] = name
        }
        return strings
    }

    /// An integer column's value, `nil` for NULL or anything that is not an integer.
    private func lenientInteger(_ value: DatabaseValue) -> Int64? {
        (try? SQLiteDamagedValue.integer(value, column: "")) ?? nil
    }

    /// Reads the changes of the transactions numbered `first` through `last` and gives each transaction
    /// its own, in change order.
    private func attachChanges(to transactions: [NSPersistentHistoryTransaction], from first: Int64, through last: Int64) throws {
        var byNumber: [Int64: NSPersistentHistoryTransaction] = [:]
        for transaction in transactions {
            byNumber[transaction.transactionNumber] = transaction
            transaction._changes = []
        }
        let tombstoneColumns = tracking.tombstoneColumns
        let columns = ["Z_PK", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID", "ZCOLUMNS"] + tombstoneColumns
        let sql = "SELECT \(columns.joined(separator: ", ")) FROM ACHANGE WHERE ZTRANSACTIONID BETWEEN ? AND ? ORDER BY ZTRANSACTIONID, Z_PK"
        let reference = store._objectIDReference
        let coordinator = store.persistentStoreCoordinator
        var collected: [Int64: [NSPersistentHistoryChange]] = [:]
        var lastEntity: (number: Int64, entity: NSEntityDescription)?
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: [first, last])
        while let row = try cursor.next() {
            let changeID = try row.requiredStoredInteger(atIndex: 0)
            guard let owner = lenientInteger(row[4]), let transaction = byNumber[owner],
                let type = lenientInteger(row[1]).flatMap({ NSPersistentHistoryChangeType(rawValue: Int($0)) }),
                let number = lenientInteger(row[2]), let key = lenientInteger(row[3])
            else { continue }
            let entity: NSEntityDescription
            if let lastEntity, lastEntity.number == number {
                entity = lastEntity.entity
            } else {
                // An entity number the model lacks (or an abstract entity's) names no object of this store.
                guard let found = try? store.entity(number: number) else { continue }
                entity = found
                lastEntity = (number, found)
            }
            var updated: Set<NSPropertyDescription>?
            if type == .update, let bitmap = Data.fromDatabaseValue(row[5]) {
                updated = tracking.layout.properties(entity: number, bitmap: bitmap)
            }
            var tombstone: [AnyHashable: Any]?
            if type == .delete, let preserved = tracking.layout.entities[number]?.tombstones, !preserved.isEmpty {
                var values: [AnyHashable: Any] = [:]
                for (index, entry) in preserved.enumerated() where index < tombstoneColumns.count {
                    let stored: DatabaseValue = row[6 + index]
                    guard !stored.isNull,
                        let value = (try? SQLiteStoreValues.value(from: stored, attribute: entry.attribute, coordinator: coordinator)) ?? nil
                    else { continue }
                    values[entry.attribute.name] = value
                }
                if !values.isEmpty { tombstone = values }
            }
            let change = NSPersistentHistoryChange(
                changeID: changeID, changedObjectID: NSManagedObjectID(entity: entity, store: reference, primaryKey: key),
                changeType: type, tombstone: tombstone, updatedProperties: updated)
            change._transaction = transaction
            collected[owner, default: []].append(change)
        }
        for (number, changes) in collected { byNumber[number]?._changes = changes }
    }

    /// Deletes the transactions a bound selects with their changes; the interned strings stay, as in
    /// Apple's Core Data. Runs inside the caller's write transaction.
    ///
    /// - Returns: how many transactions were deleted.
    func delete(_ bound: SQLiteHistoryQuery.Bound) throws -> Int {
        let condition = SQLiteHistoryQuery(bound: bound).condition
        let arguments = condition.argument.map { StatementArguments(databaseValues: [$0]) } ?? StatementArguments()
        try db.execute(
            sql: "DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT Z_PK FROM ATRANSACTION WHERE \(condition.sql))",
            arguments: arguments)
        try db.execute(sql: "DELETE FROM ATRANSACTION WHERE \(condition.sql)", arguments: arguments)
        return db.changesCount
    }
}
