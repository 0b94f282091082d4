import GRDB

/// The transactions of the store's writes: a save, and each batch request.
extension SQLiteHistoryRecorder {
    /// Records a save: one insert change per new row, one update change per changed row (its changed
    /// attributes, to-one and to-many relationships in `ZCOLUMNS`), one delete change per deleted row
    /// with the tombstones read before the rows went.
    func recordSave(
        _ changes: StoreSaveChanges, result: StoreSaveResult, tombstones: [Int64: [Int64: [DatabaseValue]]],
        author: HistoryAuthor?
    ) throws {
        var rows = try self.rows(.insert, result.insertedIDs)
        rows.reserveCapacity(rows.count + changes.updated.count + changes.deleted.count)
        var memo = EntityRunMemo<Int64>()
        for update in changes.updated {
            guard let key = update.objectID.primaryKey else { continue }
            let number = try memo.value(for: update.objectID.entity) { Int64(try store.layout(of: $0).number) }
            let names = Array(update.changedValues.keys) + Array(update.toMany.keys)
            rows.append(
                HistoryChangeRow(
                    type: .update, entity: number, key: key,
                    columns: tracking.layout.bitmap(entity: number, names: names)))
        }
        rows += try self.rows(.delete, changes.deleted.lazy.map(\.objectID), tombstones: tombstones)
        try record(rows, author: author)
    }

    /// Records a batch update of the rows `ids`, which set `names`.
    func recordBatchUpdate(_ ids: [NSManagedObjectID], names: [String], author: HistoryAuthor?) throws {
        try record(rows(.update, ids, names: { _ in names }), author: author)
    }

    /// Records a batch delete: the deleted rows with their tombstones, then the rows whose references to
    /// them were cleared (updates whose properties are not named: `ZCOLUMNS` NULL).
    func recordBatchDelete(
        deleted: [NSManagedObjectID], nullified: [NSManagedObjectID],
        tombstones: [Int64: [Int64: [DatabaseValue]]], author: HistoryAuthor?
    ) throws {
        try record(rows(.delete, deleted, tombstones: tombstones) + rows(.update, nullified), author: author)
    }

    /// Records a batch insert: new rows as inserts, rows matched on a uniqueness constraint (and so
    /// overwritten) as updates of the attributes given.
    func recordBatchInsert(
        inserted: [NSManagedObjectID], updated: [NSManagedObjectID], names: [String],
        author: HistoryAuthor?
    ) throws {
        try record(rows(.insert, inserted) + rows(.update, updated, names: { _ in names }), author: author)
    }
}
