import GRDB

/// A SQLite store's own copy of its model, `Z_MODELCACHE.Z_CONTENT`: the model's keyed archive as a raw
/// DEFLATE stream (STORE-FORMAT.md §12), which Apple's Core Data writes so that a store can be migrated
/// when its model is gone, and which lets a store be opened without its model.
enum SQLiteModelCache {
    /// The cache's bytes for `model`: its archive in the style of Core Data's caches, compressed as Apple's
    /// are. `nil` when the model holds what no archive can (a block predicate or expression).
    static func content(for model: NSManagedObjectModel) -> Data? {
        guard let archive = try? CompiledModelEncoder.encode(model, style: .storeCache) else { return nil }
        return RawDeflate.deflate(archive)
    }

    /// Replaces the cache in `db` (a store's connection inside a transaction) with the one of `model`,
    /// creating the table when the store has none; leaves the table empty when the model cannot be archived.
    static func write(_ model: NSManagedObjectModel, to db: Database) throws {
        if try !db.tableExists(SQLiteBookkeepingTables.modelCacheTable) {
            try db.execute(sql: SQLiteBookkeepingTables.createModelCache)
        }
        try db.execute(sql: "DELETE FROM \(SQLiteBookkeepingTables.modelCacheTable)")
        guard let content = content(for: model) else { return }
        try db.execute(sql: "INSERT INTO \(SQLiteBookkeepingTables.modelCacheTable) (Z_CONTENT) VALUES (?)", arguments: [content])
    }

    /// The raw cache of the store open in `db`: `nil` when the store has no `Z_MODELCACHE` table (stores
    /// written before Core Data kept one) or an empty one.
    static func content(in db: Database, store url: URL) throws -> Data? {
        guard try db.tableExists(SQLiteBookkeepingTables.modelCacheTable) else { return nil }
        let row = try Row.fetchOne(db, sql: "SELECT Z_CONTENT FROM \(SQLiteBookkeepingTables.modelCacheTable) LIMIT 1")
        guard let value = row?[0] as DatabaseValue? else { return nil }
        switch value.storage {
        case .blob(let data): return data
        case .null: return nil
        default:
            throw SQLiteStoreFileAccess.fileError(
                NSFileReadCorruptFileError, url,
                "The model cache of the store file \(url.path) is damaged: Z_MODELCACHE.Z_CONTENT is not a blob.")
        }
    }

    /// The model of a cache's bytes, read from the store at `url` (for errors).
    ///
    /// - Throws: ``NSFileReadCorruptFileError`` (259) naming the store for a cache that is not a DEFLATE
    ///   stream, a truncated one, or one whose archive is not a model this program reads.
    @discardableResult
    static func model(
        from content: Data, store url: URL,
        into model: NSManagedObjectModel = NSManagedObjectModel()
    ) throws -> NSManagedObjectModel {
        let archive: Data
        do {
            archive = try RawDeflate.inflate(content)
        } catch {
            throw SQLiteStoreFileAccess.fileError(
                NSFileReadCorruptFileError, url,
                "The model cache of the store file \(url.path) is damaged: \(error.reason).")
        }
        do {
            return try CompiledModelDecoder.decode(archive, into: model)
        } catch {
            throw SQLiteStoreFileAccess.fileError(
                NSFileReadCorruptFileError, url,
                "The model cache of the store file \(url.path) is damaged: \(error.reason).")
        }
    }

    /// The model cached in the store at `url`, as archived (the class names it gives its entities kept).
    ///
    /// - Throws: the errors of ``SQLiteStoreFileAccess/openForReading(_:)``;
    ///   ``NSFileReadCorruptFileError`` for a file that is not a Core Data store or whose cache is damaged;
    ///   ``NSCoreDataError`` (134060) for a store that holds no cache.
    @discardableResult
    static func archivedModel(inStoreAt url: URL, into model: NSManagedObjectModel = NSManagedObjectModel()) throws -> NSManagedObjectModel {
        let queue = try SQLiteStoreFileAccess.openForReading(url)
        defer { try? queue.close() }
        let content = try SQLiteStoreFileAccess.run(url) {
            try queue.read { db -> Data? in
                guard try db.tableExists(SQLiteBookkeepingTables.metadataTable) else {
                    throw SQLiteStoreFileAccess.fileError(
                        NSFileReadCorruptFileError, url,
                        "The file \(url.path) is a SQLite database but not a Core Data store (it has no Z_METADATA table).")
                }
                return try Self.content(in: db, store: url)
            }
        }
        guard let content, !content.isEmpty else {
            throw SQLiteStoreFileAccess.fileError(
                NSCoreDataError, url,
                "The store file \(url.path) holds no model cache (Z_MODELCACHE): it was written by a Core Data older than "
                    + "framework version 300 or by a program that keeps none; open it with its model.")
        }
        return try Self.model(from: content, store: url, into: model)
    }
}

extension NSManagedObjectModel {
    /// Creates the model a SQLite store keeps of itself: the copy Apple's Core Data (and OpenCoreData)
    /// writes into every store it creates or migrates (`Z_MODELCACHE`), or `nil` when the file is not a
    /// store, has no cache or its cache cannot be read; ``load(cachedInStoreAt:)`` says why.
    ///
    /// The model opens the store without migration, and every row reads through key-value coding. Its
    /// entities map to `NSManagedObject`: the classes the cache names (the app's) need not exist, so each
    /// entity's `managedObjectClassName` is `"NSManagedObject"`.
    ///
    /// This initializer is an OpenCoreData addition.
    public convenience init?(cachedInStoreAt url: URL) {
        self.init()
        do {
            try Self._loadCachedModel(inStoreAt: url, into: self)
        } catch {
            return nil
        }
    }

    /// Loads the model a SQLite store keeps of itself (see ``init(cachedInStoreAt:)``), throwing an error
    /// that says what is wrong.
    ///
    /// - Throws: `NSFileReadNoSuchFileError` (260) when nothing is at the path; `NSFileReadCorruptFileError`
    ///   (259) naming the file when it is not a SQLite database, not a Core Data store, or its cache is
    ///   damaged (truncated, not a DEFLATE stream, an archive of other classes, objects that contain
    ///   themselves, impossible counts); `NSCoreDataError` (134060) when the store holds no cache (stores
    ///   written before Core Data kept one).
    ///
    /// This method is an OpenCoreData addition.
    public static func load(cachedInStoreAt url: URL) throws -> NSManagedObjectModel {
        try _loadCachedModel(inStoreAt: url, into: NSManagedObjectModel())
    }

    /// Fills the empty `model` from the store's cache, every entity mapped to `NSManagedObject`.
    @discardableResult
    static func _loadCachedModel(inStoreAt url: URL, into model: NSManagedObjectModel) throws -> NSManagedObjectModel {
        try SQLiteModelCache.archivedModel(inStoreAt: url, into: model)
        for entity in model.entities { entity.managedObjectClassName = nil }
        return model
    }
}
