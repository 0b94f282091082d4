import GRDB

/// The option whose value, a Boolean, defers the work of a lightweight migration that can wait
/// (dropping the old tables, building non-unique indexes) until
/// ``NSPersistentStoreCoordinator/finishDeferredLightweightMigration()``. The store's metadata holds
/// this key with the value `true` while work is pending.
public let NSPersistentStoreDeferredLightweightMigrationOptionKey = "NSPersistentStoreDeferredLightweightMigrationOptionKey"

/// The deferred part of lightweight migrations of SQLite stores.
enum SQLiteDeferredMigration {
    /// Drops the old tables a deferred migration left behind.
    static func dropLeftovers(_ db: Database) throws {
        let prefix = SQLiteLightweightMigration.oldPrefix
        let tables = try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND substr(name, 1, ?) = ?",
            arguments: [prefix.count, prefix])
        for table in tables { try db.execute(sql: "DROP TABLE \"\(table)\"") }
    }

    /// Drops the columns an in-place deferred migration left in the tables of `schema` (columns the
    /// layout does not have), with the indexes that cover them.
    static func dropLeftoverColumns(_ db: Database, schema: SQLiteSchema) throws {
        var columns: [(String, String)] = []
        for difference in try schema.differences(in: db) {
            if case let .extraColumn(table, column) = difference { columns.append((table, column)) }
        }
        guard !columns.isEmpty else { return }
        let tables = Set(columns.map(\.0))
        for row in try Row.fetchAll(db, sql: "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") {
            let name: String = row["name"] ?? ""
            let table: String = row["tbl_name"] ?? ""
            if tables.contains(table) && !schema.indexes.contains(where: { $0.name == name }) {
                try db.execute(sql: "DROP INDEX \"\(name)\"")
            }
        }
        for (table, column) in columns { try db.execute(sql: "ALTER TABLE \(table) DROP COLUMN \(column)") }
    }

    /// Finishes the deferred work of an open store, in one transaction; returns the new metadata, or
    /// `nil` when nothing was pending.
    static func finish(_ store: SQLiteStore) throws -> [String: Any]? {
        guard let metadata = store.metadata, PersistentStoreOptions.bool(metadata[NSPersistentStoreDeferredLightweightMigrationOptionKey]) == true
        else { return nil }
        let schema = try store.schema()
        var updated = SQLiteStoreMetadata(dictionary: metadata)
        updated.plist.removeValue(forKey: NSPersistentStoreDeferredLightweightMigrationOptionKey)
        try SQLiteStoreFileAccess.run(store.fileURL) {
            try store.database().write { db in
                try dropLeftovers(db)
                try dropLeftoverColumns(db, schema: schema)
                for index in schema.indexes {
                    let exists =
                        try Bool.fetchOne(
                            db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'index' AND name = ?",
                            arguments: [index.name]) ?? false
                    if !exists { try db.execute(sql: index.createStatement) }
                }
                try updated.write(to: db)
            }
        }
        return updated.dictionary
    }
}

extension NSPersistentStoreCoordinator {
    /// Completes the lightweight migrations whose work was deferred with
    /// ``NSPersistentStoreDeferredLightweightMigrationOptionKey``: drops the old tables and builds the
    /// indexes, then removes the key from each store's metadata.
    ///
    /// - Throws: an error naming the store file when SQLite fails; that store is left as it was.
    public func finishDeferredLightweightMigrationTask() throws {
        try finishDeferredLightweightMigration()
    }

    /// Finishes the deferred work of lightweight migrations of every store of the coordinator (see
    /// ``finishDeferredLightweightMigrationTask()``, which does the same).
    public func finishDeferredLightweightMigration() throws {
        for store in persistentStores {
            guard let sqlite = store as? SQLiteStore, let metadata = try SQLiteDeferredMigration.finish(sqlite) else { continue }
            sqlite._setLoadedMetadata(metadata)
        }
    }
}
