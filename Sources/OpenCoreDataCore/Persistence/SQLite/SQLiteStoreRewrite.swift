import GRDB

/// Replaces the whole content of a live store file in one transaction on that file, so that other
/// connections and processes that have the store open never lose it.
///
/// A migration that cannot run inside the store file (a migration manager's, or a chain of steps run on
/// a working copy) builds its result in a file of its own. Moving that file over the store with a rename
/// would leave every other connection to the store writing into a file without a name; deleting the
/// store's `-wal` and `-shm` would do worse. Instead, the store's write lock is taken before the store is
/// read for the migration and held until the result has been copied into the store, table by table, in
/// the same transaction. Other writers wait (and time out with an error) meanwhile; readers go on; a
/// crash at any point leaves the store as it was, since the transaction never committed.
struct SQLiteStoreRewrite {
    /// The store file.
    let url: URL

    /// Takes the store's write lock, calls `prepare` (which may read the store through other
    /// connections and returns the SQLite file whose content is to replace the store's, or `nil` to keep
    /// it), copies that content into the store and commits.
    ///
    /// - Throws: what `prepare` throws, or an `NSError` naming the store file when SQLite fails; the store
    ///   is unchanged then.
    func run(_ prepare: () throws -> URL?) throws {
        let queue = try SQLiteStoreFileAccess.openForWriting(url, label: "OpenCoreData.SQLiteStore(rewrite)")
        defer { try? queue.close() }
        try SQLiteStoreFileAccess.run(url) {
            try queue.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    guard let source = try prepare() else { return .rollback }
                    try copyContent(of: source, into: db)
                    return .commit
                }
            }
        }
    }

    /// Whether the store at `url` is already laid out for a configuration of `model` by its metadata.
    static func isAtModel(_ model: NSManagedObjectModel, configuration: String?, storeAt url: URL) throws -> Bool {
        let metadata = try SQLiteStoreMetadata.read(fromStoreAt: url)
        return model.isConfiguration(withName: configuration, compatibleWithStoreMetadata: metadata.dictionary)
    }

    /// Replaces every table, index, trigger and view of the store with those of the file at `source`,
    /// inside the caller's transaction.
    private func copyContent(of source: URL, into db: Database) throws {
        let reader = try SQLiteStoreFileAccess.openForReading(source)
        defer { try? reader.close() }
        let objects = try reader.read { sourceDB in
            try Row.fetchAll(
                sourceDB,
                sql: """
                    SELECT type, name, sql FROM sqlite_master
                    WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
                    ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, rowid
                    """
            ).map { (type: $0[0] as String, name: $0[1] as String, sql: $0[2] as String) }
        }
        try Self.dropEverything(in: db)
        for object in objects where object.type == "table" {
            try db.execute(sql: object.sql)
            try copyRows(of: object.name, from: reader, into: db)
        }
        if try db.tableExists("sqlite_sequence") {
            try db.execute(sql: "DELETE FROM sqlite_sequence")
            try copyRows(of: "sqlite_sequence", from: reader, into: db)
        }
        for object in objects where object.type != "table" {
            try db.execute(sql: object.sql)
        }
    }

    /// Drops every table, view and trigger of the database (indexes go with their tables), inside the
    /// caller's transaction; SQLite's own tables stay.
    static func dropEverything(in db: Database) throws {
        let objects = try Row.fetchAll(
            db,
            sql: """
                SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND type IN ('view', 'trigger', 'table')
                """)
        for row in objects {
            let type: String = row[0], name: String = row[1]
            try db.execute(sql: "DROP \(type.uppercased()) IF EXISTS \(name.quotedDatabaseIdentifier)")
        }
    }

    /// Copies every row of a table from the source file into the same table of the store.
    private func copyRows(of table: String, from reader: DatabaseQueue, into db: Database) throws {
        let quoted = table.quotedDatabaseIdentifier
        try reader.read { sourceDB in
            guard try sourceDB.tableExists(table) else { return }
            let columns = try sourceDB.columns(in: table).map(\.name)
            guard !columns.isEmpty else { return }
            let names = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
            let insert = try db.makeStatement(sql: "INSERT INTO \(quoted) (\(names)) VALUES (\(placeholders))")
            let rows = try Row.fetchCursor(sourceDB, sql: "SELECT \(names) FROM \(quoted)")
            while let row = try rows.next() {
                try insert.execute(arguments: StatementArguments(row.databaseValues))
            }
        }
    }
}
