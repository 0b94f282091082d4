import Foundation
import OpenCoreData
import PostgresNIO

/// The store's tables at opening: created in a schema that has none, read from one that has them.
enum PostgreSQLLayout {
    /// The metadata version row of `Z_METADATA`.
    static let metadataVersion: Int32 = 1

    /// Inside a transaction: takes the schema's advisory lock (so that two processes opening a new
    /// database create its tables once), creates the layout when `Z_METADATA` is missing, and returns the
    /// store's metadata. An existing layout is only read: a model whose version hashes differ then fails
    /// the opening (134100) with nothing changed.
    static func prepare(_ schema: PostgreSQLSchema, model: NSManagedObjectModel, on connection: PostgreSQLConnection) throws -> [String: Any] {
        var lockBinds = PostgresBindings()
        lockBinds.append("OpenCoreData:" + schema.schema)
        try connection.run("SELECT pg_advisory_xact_lock(hashtext($1))", lockBinds, kind: .connection)
        var existsBinds = PostgresBindings()
        existsBinds.append(schema.schema)
        let exists = try connection.run(
            "SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'Z_METADATA'", existsBinds, kind: .connection)
        if !exists.rows.isEmpty {
            let rows = try connection.run(
                "SELECT \"Z_UUID\", \"Z_PLIST\" FROM \(schema.qualified("Z_METADATA")) WHERE \"Z_VERSION\" = \(metadataVersion)")
            guard let row = rows.rows.first else { throw layoutError("Z_METADATA has no row") }
            let cells = Array(row)
            let uuid = try cells[0].decode(String.self)
            let buffer = try cells[1].decode(ByteBuffer.self)
            var metadata =
                (try? PropertyListSerialization.propertyList(from: Data(buffer.readableBytesView), options: [], format: nil)) as? [String: Any]
                ?? [:]
            metadata[NSStoreUUIDKey] = uuid
            metadata[NSStoreTypeKey] = PostgreSQLStoreType
            return metadata
        }
        for statement in schema.creationStatements() { try connection.run(statement) }
        for (name, number) in schema.entityNumbers.sorted(by: { $0.value < $1.value }) {
            var binds = PostgresBindings()
            binds.append(Int32(number))
            binds.append(name)
            let parent = model.entitiesByName[name]?.superentity?.name
            binds.append(Int32(parent.flatMap { schema.entityNumbers[$0] } ?? 0))
            try connection.run(
                "INSERT INTO \(schema.qualified("Z_PRIMARYKEY")) (\"Z_ENT\", \"Z_NAME\", \"Z_SUPER\", \"Z_MAX\") VALUES ($1, $2, $3, 0)", binds)
        }
        let uuid = UUID().uuidString
        let metadata: [String: Any] = [
            NSStoreTypeKey: PostgreSQLStoreType,
            NSStoreUUIDKey: uuid,
            NSStoreModelVersionHashesKey: model.entityVersionHashesByName,
        ]
        var stored = metadata
        stored[NSStoreUUIDKey] = nil
        let plist = try PropertyListSerialization.data(fromPropertyList: stored, format: .binary, options: 0)
        var binds = PostgresBindings()
        binds.append(metadataVersion)
        binds.append(uuid)
        binds.append(ByteBuffer(bytes: plist))
        try connection.run("INSERT INTO \(schema.qualified("Z_METADATA")) (\"Z_VERSION\", \"Z_UUID\", \"Z_PLIST\") VALUES ($1, $2, $3)", binds)
        return metadata
    }

    private static func layoutError(_ problem: String) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreIncompatibleSchemaError,
            userInfo: [NSLocalizedDescriptionKey: "The database's Core Data tables are damaged: \(problem)."])
    }
}
