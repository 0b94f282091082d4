import OpenCoreData

/// The type name of a store that keeps its data in a PostgreSQL database.
public let PostgreSQLStoreType = "PostgreSQL"

extension NSPersistentStore.StoreType {
    /// A store that keeps its data in a PostgreSQL database, at a `postgres://` URL.
    public static let postgreSQL = NSPersistentStore.StoreType(rawValue: PostgreSQLStoreType)
}
