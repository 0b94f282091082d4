import GRDB

/// The SQLite store (``NSSQLiteStoreType``): rows kept in a SQLite file laid out as Core Data lays it out
/// (`Docs/StoreFormat.md`).
///
/// Connections: a GRDB `DatabasePool` under WAL (one writer, parallel readers), or a `DatabaseQueue`
/// when the store is read-only or a pragma turns WAL off. Writes use cached prepared statements.
// @unchecked Sendable: `_database`, `_files`, `_schema`, `_compiler`, `_model` and the lookups are set once by `_open` under the
// coordinator's write lock before the store is published to other threads, and cleared by `_close`
// under the same lock; GRDB's writers serialize writes and run reads in parallel themselves; the
// metadata dirty flag is guarded by the base class's `_lock`.
final class SQLiteStore: NSPersistentStore, @unchecked Sendable {
    var _database: (any DatabaseWriter)?
    /// The files the connections write through, checked before each write commits.
    var _files: SQLiteStoreFiles?
    var _schema: SQLiteSchema?
    var _compiler: SQLiteFetchCompiler?
    @NonRetaining var _model: NSManagedObjectModel?
    var _metadataIsDirty = false
    /// The SQL debug log, chosen when the store opens; `nil` when nothing is logged.
    var _sqlDebugLog: SQLDebugLog?
    /// The history tables' layout when the store was added with ``NSPersistentHistoryTrackingKey``
    /// (`Persistence/History/`); `nil` otherwise.
    var _history: SQLiteHistoryTracking?
    /// The watcher posting ``Foundation/NSNotification/Name/NSPersistentStoreRemoteChange`` when the
    /// store was added with ``NSPersistentStoreRemoteChangeNotificationPostOptionKey``; `nil` otherwise.
    var _remoteChangeMonitor: RemoteChangeMonitor?
    /// Lookups computed once at opening: entities by number, layouts by entity name, and each
    /// entity's attributes and relationships by name.
    var _entitiesByNumber: [Int64: NSEntityDescription] = [:]
    var _layoutsByName: [String: SQLiteEntityLayout] = [:]
    var _attributesByEntity: [String: [String: NSAttributeDescription]] = [:]
    var _relationshipsByEntity: [String: [String: NSRelationshipDescription]] = [:]
    /// The columns Apple's derived-attribute triggers of the file maintain, by table, read at opening
    /// (``SQLiteDerivedAttributeTriggers``): saves leave them to the triggers.
    var _triggerMaintainedColumns: [String: Set<String>] = [:]
    /// What those triggers report while a save writes.
    let _derivedValueReports = SQLiteDerivedValueReports()
    /// The reads of one-to-many relationships' rows made so far, by relationship and owner entity
    /// (``SQLiteRelatedRowQuery``).
    let _relatedRowQueries = LockedValue<[SQLiteRelatedRowQuery.Key: SQLiteRelatedRowQuery]>([:])

    /// The store's type, ``NSSQLiteStoreType``.
    override var type: String { NSSQLiteStoreType }

    /// The store file; every store of this type has one.
    var fileURL: URL {
        url ?? URL(fileURLWithPath: "/dev/null")
    }

    override func _loadMetadata() throws -> [String: Any] {
        try SQLiteStoreMetadata.read(fromStoreAt: fileURL).dictionary
    }

    override func _metadataDidChange() {
        _lock.withLock { _metadataIsDirty = true }
        // Written right away so that metadata set without a later save is kept; a failure here leaves
        // the flag set and the next save writes it.
        try? _writeMetadataIfDirty()
    }

    override func _open(model: NSManagedObjectModel) throws {
        try openStore(model: model)
    }

    override func _fetchRows<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> [StoreRow] {
        try fetchStoreRows(request, entity: entity)
    }

    override func _fetchObjectIDs<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> [NSManagedObjectID] {
        try fetchStoreObjectIDs(request, entity: entity)
    }

    override func _fetchObjectIdentities<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> [ObjectIdentity] {
        try fetchStoreObjectIdentities(request, entity: entity)
    }

    override func _count<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> Int {
        try countStoreRows(request, entity: entity)
    }

    override func _row(for objectID: NSManagedObjectID) throws -> StoreRow? {
        try storeRow(for: objectID)
    }

    override func _allRows() throws -> [StoreRow] {
        let schema = try schema()
        return try read { db in
            var rows: [StoreRow] = []
            for layout in schema.entities {
                let statement = try db.cachedStatement(sql: "SELECT * FROM \(layout.table) WHERE Z_ENT = ? ORDER BY Z_PK")
                rows += try Row.fetchAll(statement, arguments: [layout.number]).map(decodeTableRow)
            }
            return rows
        }
    }

    override func _relatedObjectIDs(for relationship: NSRelationshipDescription, of objectID: NSManagedObjectID) throws -> [NSManagedObjectID] {
        try storeRelatedObjectIDs(for: relationship, of: objectID)
    }

    override func _allocatePrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] {
        let layout = try layout(of: entity)
        return try SQLiteStoreFileAccess.run(fileURL) {
            try database().write { db in try Self.allocatePrimaryKeys(in: db, rootNumber: layout.rootNumber, count: count) }
        }
    }

    override func _save(_ changes: StoreSaveChanges) throws -> StoreSaveResult {
        try saveChanges(changes)
    }

    override func _close() {
        _remoteChangeMonitor?.stop()
        _remoteChangeMonitor = nil
        _database = nil
        _files = nil
    }

    /// The open connection, or an error naming the file when the store was removed.
    func database() throws -> any DatabaseWriter {
        guard let database = _database else {
            throw SQLiteStoreFileAccess.fileError(
                NSPersistentStoreOperationError, fileURL,
                "The store at \(fileURL.path) is not open (it was removed from its coordinator).")
        }
        return database
    }

    /// The layout of the store's entities.
    func schema() throws -> SQLiteSchema {
        guard let schema = _schema else { throw _unsupported("use before opening") }
        return schema
    }

    /// The coordinator's model.
    func model() throws -> NSManagedObjectModel {
        guard let model = _model else { throw _unsupported("use after its model was released") }
        return model
    }

    /// The layout of an entity, or an error naming it.
    func layout(of entity: NSEntityDescription) throws -> SQLiteEntityLayout {
        guard let name = entity.name, let layout = _layoutsByName[name] else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSCoreDataError,
                userInfo: [
                    NSLocalizedDescriptionKey: "The entity \(entity.name ?? "(unnamed)") is not stored in the store at \(fileURL.path)."
                ])
        }
        return layout
    }

    /// The model entity of a row or reference whose entity number (`Z_ENT`) is `number`.
    ///
    /// Throws `NSFileReadCorruptFileError` for a number of no entity and for the number of an abstract
    /// entity: only concrete entities have rows.
    func entity(number: Int64) throws -> NSEntityDescription {
        guard let entity = _entitiesByNumber[number] else {
            throw SQLiteStoreFileAccess.fileError(
                NSFileReadCorruptFileError, fileURL,
                "The store file \(fileURL.path) has a row with the unknown entity number \(number).")
        }
        // The stored flag, not the overridable property: a to-one column of entity numbers asks for
        // every row.
        guard !entity._isAbstract else {
            throw SQLiteStoreFileAccess.fileError(
                NSFileReadCorruptFileError, fileURL,
                "The store file \(fileURL.path) has a row of the abstract entity \(entity.name ?? "?") (entity number \(number)); only concrete entities have rows."
            )
        }
        return entity
    }

    /// The attributes of an entity by name (inherited ones included).
    func attributes(of entity: NSEntityDescription) -> [String: NSAttributeDescription] {
        _attributesByEntity[entity.name ?? ""] ?? entity.attributesByName
    }

    /// The relationships of an entity by name (inherited ones included).
    func relationships(of entity: NSEntityDescription) -> [String: NSRelationshipDescription] {
        _relationshipsByEntity[entity.name ?? ""] ?? entity.relationshipsByName
    }

    /// Computes the lookups for a layout of a model.
    func prepareLookups(schema: SQLiteSchema, model: NSManagedObjectModel) {
        let entities = model.entitiesByName
        for layout in schema.entities {
            _layoutsByName[layout.name] = layout
            guard let entity = entities[layout.name] else { continue }
            _entitiesByNumber[Int64(layout.number)] = entity
            _attributesByEntity[layout.name] = entity.attributesByName
            _relationshipsByEntity[layout.name] = entity.relationshipsByName
        }
    }

    /// Writes the metadata when it changed since the last write.
    func _writeMetadataIfDirty() throws {
        guard _lock.withLock({ _metadataIsDirty }), let database = _database, !isReadOnly else { return }
        let metadata = SQLiteStoreMetadata(dictionary: self.metadata ?? [:])
        try SQLiteStoreFileAccess.run(fileURL) {
            try database.write { db in try metadata.write(to: db) }
        }
        _lock.withLock { _metadataIsDirty = false }
    }

    /// Writes metadata into the store file at `url` (keeping its UUID unless the metadata names one).
    static func writeMetadata(_ metadata: [String: Any], toStoreAt url: URL) throws {
        let existing = try SQLiteStoreMetadata.read(fromStoreAt: url)
        var dictionary = metadata
        if dictionary[NSStoreUUIDKey] == nil { dictionary[NSStoreUUIDKey] = existing.uuid }
        let updated = SQLiteStoreMetadata(dictionary: dictionary)
        _ = try updated.encodedPlist()
        let queue = try SQLiteStoreFileAccess.openForWriting(url, label: "OpenCoreData.SQLiteStore(metadata)")
        defer { try? queue.close() }
        try SQLiteStoreFileAccess.run(url) {
            try queue.write { db in try updated.write(to: db) }
        }
    }
}
