import Foundation
import GRDBSQLite
import OpenCoreData

/// The rows the batch workloads change: buckets 0…49, half of the file.
enum BatchSelection {
    static let predicate = "bucket < 50"
    static let whereClause = "ZBUCKET < 50"
}

/// OpenCoreData: `NSBatchUpdateRequest` setting `amount = amount + 1` where `bucket < 50`, result type
/// `.updatedObjectsCountResultType`, executed by the context.
public struct OpenCoreDataBatchUpdate: Contender {
    public static let name = "OpenCoreData"
    let context: NSManagedObjectContext

    public init(url: URL) throws {
        context = try ReadingModel.context(at: url)
    }

    public func run() throws -> Int64 {
        let context = self.context
        return try context.performAndWait {
            let request = NSBatchUpdateRequest(entityName: "Reading")
            request.predicate = NSPredicate(format: BatchSelection.predicate)
            request.propertiesToUpdate = ["amount": NSExpression(format: "amount + 1")]
            request.resultType = .updatedObjectsCountResultType
            guard let result = try context.execute(request) as? NSBatchUpdateResult,
                let count = result.result as? Int
            else { throw WorkloadError("batch update gave no count") }
            return Int64(count)
        }
    }
}

/// Raw SQLite: `UPDATE ZREADING SET ZAMOUNT = ZAMOUNT + 1, Z_OPT = Z_OPT + 1 WHERE ZBUCKET < 50`
/// (Core Data bumps `Z_OPT` too), in one transaction.
public final class RawSQLiteBatchUpdate: Contender {
    public static let name = "raw SQLite"
    static let sql = "UPDATE ZREADING SET ZAMOUNT = ZAMOUNT + 1, Z_OPT = Z_OPT + 1 WHERE \(BatchSelection.whereClause)"
    let connection: RawConnection

    public init(url: URL) throws {
        connection = try RawConnection(url: url)
    }

    public func run() throws -> Int64 {
        try connection.execute("BEGIN IMMEDIATE")
        try connection.execute(Self.sql)
        let changed = Int64(sqlite3_changes(connection.handle))
        try connection.execute("COMMIT")
        return changed
    }
}

/// OpenCoreData: `NSBatchDeleteRequest` of a fetch request for `bucket < 50`, result type
/// `.resultTypeCount`, executed by the context.
public struct OpenCoreDataBatchDelete: Contender {
    public static let name = "OpenCoreData"
    let context: NSManagedObjectContext

    public init(url: URL) throws {
        context = try ReadingModel.context(at: url)
    }

    public func run() throws -> Int64 {
        let context = self.context
        return try context.performAndWait {
            let fetch = NSFetchRequest<NSFetchRequestResult>(entityName: "Reading")
            fetch.predicate = NSPredicate(format: BatchSelection.predicate)
            let request = NSBatchDeleteRequest(fetchRequest: fetch)
            request.resultType = .resultTypeCount
            guard let result = try context.execute(request) as? NSBatchDeleteResult,
                let count = result.result as? Int
            else { throw WorkloadError("batch delete gave no count") }
            return Int64(count)
        }
    }
}

/// Raw SQLite: `DELETE FROM ZREADING WHERE ZBUCKET < 50`, in one transaction.
public final class RawSQLiteBatchDelete: Contender {
    public static let name = "raw SQLite"
    static let sql = "DELETE FROM ZREADING WHERE \(BatchSelection.whereClause)"
    let connection: RawConnection

    public init(url: URL) throws {
        connection = try RawConnection(url: url)
    }

    public func run() throws -> Int64 {
        try connection.execute("BEGIN IMMEDIATE")
        try connection.execute(Self.sql)
        let changed = Int64(sqlite3_changes(connection.handle))
        try connection.execute("COMMIT")
        return changed
    }
}
