/// Core Data's bookkeeping tables, with the exact statements Apple's Core Data uses (STORE-FORMAT.md §2,
/// verified against every Apple-written store here).
enum SQLiteBookkeepingTables {
    /// Entity numbers, names, superentities and the highest primary key handed out per root entity.
    static let primaryKeyTable = "Z_PRIMARYKEY"
    /// The store's metadata: one row with `Z_VERSION` 1, the store UUID and a binary property list.
    static let metadataTable = "Z_METADATA"
    /// The store's archived copy of its model (absent from stores written before about 2011).
    static let modelCacheTable = "Z_MODELCACHE"

    /// `CREATE TABLE Z_PRIMARYKEY …`.
    static let createPrimaryKey =
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)"
    /// `CREATE TABLE Z_METADATA …`.
    static let createMetadata =
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)"
    /// `CREATE TABLE Z_MODELCACHE …`.
    static let createModelCache = "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"

    /// The bookkeeping tables' columns and declared types, for structural comparison.
    static let columns: [String: [String: String]] = [
        primaryKeyTable: ["Z_ENT": "INTEGER", "Z_NAME": "VARCHAR", "Z_SUPER": "INTEGER", "Z_MAX": "INTEGER"],
        metadataTable: ["Z_VERSION": "INTEGER", "Z_UUID": "VARCHAR(255)", "Z_PLIST": "BLOB"],
        modelCacheTable: ["Z_CONTENT": "BLOB"],
    ]

    /// The bookkeeping tables' primary keys, for structural comparison.
    static let primaryKeys: [String: [String]] = [
        primaryKeyTable: ["Z_ENT"], metadataTable: ["Z_VERSION"], modelCacheTable: [],
    ]
}

extension SQLiteSchema {
    /// Every statement that creates the layout in an empty database: entity tables, join tables,
    /// indexes, then the bookkeeping tables.
    var createStatements: [String] {
        tables.map(\.createStatement) + indexes.map(\.createStatement) + [
            SQLiteBookkeepingTables.createPrimaryKey,
            SQLiteBookkeepingTables.createMetadata,
            SQLiteBookkeepingTables.createModelCache,
        ]
    }
}
