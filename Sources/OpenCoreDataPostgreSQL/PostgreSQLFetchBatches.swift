import Foundation
import OpenCoreData
import PostgresNIO

/// Batched fetches (`fetchBatchSize` > 0): the fetch selects only the keys of the matching rows and
/// returns faults; the rows of the first batch are read at once, and the first fault of any other batch
/// to fire reads the rows of its whole batch with one statement. So a fetch of a million objects reads a
/// million keys, and the values of the objects the app touches, a batch at a time.
struct PostgreSQLFetchBatch: Sendable {
    /// The objects of the batch, in result order.
    let objectIDs: [NSManagedObjectID]
}

extension PostgreSQLStore {
    /// Remembers the batches of a batched fetch's results, and reads the rows of the first one.
    func registerBatches(of ids: [NSManagedObjectID], size: Int, open: Open) throws {
        guard !ids.isEmpty else { return }
        var batches: [PostgreSQLFetchBatch] = []
        var start = 0
        while start < ids.count {
            batches.append(PostgreSQLFetchBatch(objectIDs: Array(ids[start..<min(start + size, ids.count)])))
            start += size
        }
        lock.withLock {
            for batch in batches.dropFirst() {
                for id in batch.objectIDs { state.batches[id] = batch }
            }
        }
        try readRows(of: batches[0], open: open)
    }

    /// Reads the rows of the batch an object waits for, if it waits for one; `false` when it does not.
    /// The batch's other objects then fire from the rows read.
    func readBatch(containing objectID: NSManagedObjectID, open: Open) throws -> Bool {
        let batch: PostgreSQLFetchBatch? = lock.withLock {
            guard let batch = state.batches[objectID] else { return nil }
            for id in batch.objectIDs where state.batches[id]?.objectIDs.first == batch.objectIDs.first {
                state.batches[id] = nil
            }
            return batch
        }
        guard let batch else { return false }
        try readRows(of: batch, open: open)
        return true
    }

    /// Reads the rows of a batch's objects with one statement per table and keeps them for their faults.
    private func readRows(of batch: PostgreSQLFetchBatch, open: Open) throws {
        var byTable: [String: (entity: NSEntityDescription, keys: [Int64])] = [:]
        for id in batch.objectIDs {
            let entity = open.model.entitiesByName[id.entity.name ?? ""] ?? id.entity
            let table = open.schema.table(of: entity)
            var entry = byTable[table] ?? (entity, [])
            entry.keys.append(try key(of: id))
            byTable[table] = entry
        }
        var rows: [NSManagedObjectID: FetchedRow] = [:]
        for (table, entry) in byTable.sorted(by: { $0.key < $1.key }) {
            // Every entity of a table selects the same columns: the root's.
            let root = open.model.entitiesByName[open.schema.roots[entry.entity.name ?? ""] ?? ""] ?? entry.entity
            var binds = PostgresBindings()
            binds.append(entry.keys)
            let start = Date()
            let result = try open.connection.run(
                "SELECT \(PostgreSQLFetch.selectList(open.schema, entity: root)) FROM \(table) t0 WHERE t0.\"Z_PK\" = ANY($1)", binds)
            open.connection.debugLog?.post(
                .annotation,
                "CoreData: annotation: total fetch execution time: \(SQLDebugLog.postgreSQLSeconds(Date().timeIntervalSince(start))) for \(result.rows.count) rows."
            )
            for row in result.rows {
                let (id, fetched) = try PostgreSQLFetch.decode(row, store: self, open: open)
                rows[id] = fetched
            }
        }
        keep(rows)
    }
}
