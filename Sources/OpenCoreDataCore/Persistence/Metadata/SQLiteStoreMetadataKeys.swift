/// Values and private keys of the metadata a SQLite store records (STORE-FORMAT.md §10).
enum SQLiteStoreMetadataKeys {
    /// The value of ``NSStoreTypeKey`` for SQLite stores.
    static let sqliteStoreType = "SQLite"
    /// The highest framework version that has opened the store.
    static let maximumFrameworkVersion = "NSPersistenceMaximumFrameworkVersion"
    /// The SQLite `auto_vacuum` mode the store uses, as a string.
    static let autoVacuumLevel = "_NSAutoVacuumLevel"
    /// Incremental auto-vacuum, the mode every Apple-written store here records and uses.
    static let incrementalAutoVacuum = "2"
    /// The `NSPersistenceFrameworkVersion` OpenCoreData writes: the Core Data framework version
    /// (1518, iOS and macOS 26) whose file format new stores follow.
    static let frameworkVersion = 1518
}
