import Foundation
import OpenCoreData
import PostgresNIO

extension PostgreSQLStore: IncrementalStoreVersionReading {
    /// The versions of the objects a save changes, deletes or locks, for Core Data's optimistic-locking
    /// check before the save: one `SELECT "Z_PK", "Z_OPT" … WHERE "Z_PK" = ANY($1)` per table, however many
    /// objects. Throws `NSPersistentStoreSaveError` (134030) naming the store and the cause, with the
    /// failure under `NSUnderlyingErrorKey`, when the server cannot answer — a dropped connection is never
    /// taken for a conflict.
    public func versionsForObjects(with objectIDs: [NSManagedObjectID], with context: NSManagedObjectContext) throws
        -> [NSManagedObjectID: UInt64]
    {
        let open = try opened()
        var tables: [String] = []
        var byTable: [String: [(key: Int64, id: NSManagedObjectID)]] = [:]
        for id in objectIDs where !id.isTemporaryID {
            let entity = open.model.entitiesByName[id.entity.name ?? ""] ?? id.entity
            let table = open.schema.table(of: entity)
            if byTable[table] == nil { tables.append(table) }
            byTable[table, default: []].append((try key(of: id), id))
        }
        var versions: [NSManagedObjectID: UInt64] = [:]
        versions.reserveCapacity(objectIDs.count)
        do {
            for table in tables {
                let entries = byTable[table] ?? []
                var ids: [Int64: NSManagedObjectID] = [:]
                for entry in entries { ids[entry.key] = entry.id }
                var binds = PostgresBindings()
                binds.append(entries.map(\.key))
                let result = try open.connection.run("SELECT \"Z_PK\", \"Z_OPT\" FROM \(table) WHERE \"Z_PK\" = ANY($1)", binds)
                for row in result.rows {
                    let (key, version) = try row.decode((Int64, Int32).self)
                    if let id = ids[key] { versions[id] = UInt64(clamping: version) }
                }
            }
        } catch {
            throw PostgreSQLErrors.save(open.location, error)
        }
        return versions
    }
}
