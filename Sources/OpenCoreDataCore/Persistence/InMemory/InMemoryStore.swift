/// The in-memory store (``NSInMemoryStoreType``): rows kept in memory only, predicates and sort
/// descriptors evaluated in memory by the Query layer.
///
/// It keeps relationships the way the SQLite store does (the layout's storage decisions, computed by
/// ``SQLiteSchema``): a to-one relationship as a value of the row, a to-many relationship with a to-one
/// inverse through the destinations' inverse values, other to-many relationships as pairs in a join
/// set, and ordered positions spaced by 1024. Versions (`Z_OPT`) and optimistic locking behave as in
/// the SQLite store. The rows disappear with the store.
// @unchecked Sendable: every piece of row state is read and written only while holding `_state`'s lock.
final class InMemoryStore: NSPersistentStore, @unchecked Sendable {
    /// The rows, relationships and key counters, guarded by `lock`.
    final class State {
        var rows: [NSManagedObjectID: StoreRow] = [:]
        /// Position of a row in an ordered to-many relationship kept through its inverse: row → inverse
        /// to-one name → position.
        var orderKeys: [NSManagedObjectID: [String: Int64]] = [:]
        /// Join sets by table name: each pair's source and destination as the owning side sees them,
        /// with the position of the destination when the relationship is ordered.
        var joins: [String: [JoinPair]] = [:]
        /// Highest allocated key per root entity number.
        var maxKeys: [Int: Int64] = [:]
    }

    /// One pair of a join set, keyed by the join table's column names.
    struct JoinPair {
        var ids: [String: NSManagedObjectID]
        var order: [String: Int64]
    }

    let _stateLock = NSLock()
    let _state = State()
    var _schema: SQLiteSchema?
    @NonRetaining var _model: NSManagedObjectModel?

    /// The store's type, ``NSInMemoryStoreType``.
    override var type: String { NSInMemoryStoreType }

    override func _loadMetadata() throws -> [String: Any] {
        metadata ?? [:]
    }

    override func _open(model: NSManagedObjectModel) throws {
        let configuration = configurationName == "PF_DEFAULT_CONFIGURATION_NAME" ? nil : configurationName
        _schema = try SQLiteSchema(model: model, configurationName: configuration)
        _model = model
        var metadata = SQLiteStoreMetadata(newStoreFor: model, configurationName: configuration).dictionary
        metadata[NSStoreTypeKey] = NSInMemoryStoreType
        _setLoadedMetadata(metadata)
    }

    override func _fetchRows<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> [StoreRow] {
        try select(request, entity: entity)
    }

    override func _fetchObjectIDs<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> [NSManagedObjectID] {
        try select(request, entity: entity).map(\.objectID)
    }

    override func _count<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> Int {
        try select(request, entity: entity).count
    }

    override func _row(for objectID: NSManagedObjectID) throws -> StoreRow? {
        _stateLock.withLock { _state.rows[objectID] }
    }

    override func _allRows() throws -> [StoreRow] {
        let rows = _stateLock.withLock { Array(_state.rows.values) }
        let numbers = Dictionary(uniqueKeysWithValues: (_schema?.entities ?? []).map { ($0.name, $0.number) })
        return rows.sorted { a, b in
            let x = numbers[a.objectID.entity.name ?? ""] ?? 0, y = numbers[b.objectID.entity.name ?? ""] ?? 0
            return x != y ? x < y : (a.objectID.primaryKey ?? 0) < (b.objectID.primaryKey ?? 0)
        }
    }

    override func _relatedObjectIDs(for relationship: NSRelationshipDescription, of objectID: NSManagedObjectID) throws -> [NSManagedObjectID] {
        let storage = try layout(of: objectID.entity).relationships[relationship.name]
        return _stateLock.withLock { related(objectID, relationship: relationship, storage: storage) }
    }

    override func _allocatePrimaryKeys(for entity: NSEntityDescription, count: Int) throws -> [Int64] {
        let root = try layout(of: entity).rootNumber
        return _stateLock.withLock { allocate(root: root, count: count) }
    }

    override func _save(_ changes: StoreSaveChanges) throws -> StoreSaveResult {
        try saveChanges(changes)
    }

    // MARK: Helpers

    /// The layout of an entity, or an error naming it.
    func layout(of entity: NSEntityDescription) throws -> SQLiteEntityLayout {
        guard let name = entity.name, let layout = _schema?.entity(named: name) else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSCoreDataError,
                userInfo: [
                    NSLocalizedDescriptionKey: "The entity \(entity.name ?? "(unnamed)") is not stored in this in-memory store."
                ])
        }
        return layout
    }

    /// Allocates keys on a root entity's counter (caller holds the lock).
    func allocate(root: Int, count: Int) -> [Int64] {
        let max = _state.maxKeys[root] ?? 0
        _state.maxKeys[root] = max + Int64(count)
        return (0..<count).map { max + Int64($0) + 1 }
    }

    /// The destinations of a to-many relationship (caller holds the lock).
    func related(
        _ owner: NSManagedObjectID, relationship: NSRelationshipDescription,
        storage: SQLiteRelationshipStorage?
    ) -> [NSManagedObjectID] {
        switch storage {
        case let .inverseForeignKey(_, _, orderColumn)?:
            guard let inverse = relationship.inverseRelationship?.name else { return [] }
            guard let destination = relationship.destinationEntity else { return [] }
            let matches = _state.rows.values.filter {
                $0.objectID.entity.isKindOf(entity: destination) && ($0.values[inverse] as? NSManagedObjectID) == owner
            }.map(\.objectID)
            return matches.sorted { a, b in
                if orderColumn != nil {
                    let x = _state.orderKeys[a]?[inverse] ?? 0, y = _state.orderKeys[b]?[inverse] ?? 0
                    if x != y { return x < y }
                }
                return (a.primaryKey ?? 0) < (b.primaryKey ?? 0)
            }
        case let .joinTable(table, sourceColumn, destinationColumn, orderColumn)?:
            let pairs = (_state.joins[table] ?? []).filter { $0.ids[sourceColumn] == owner }
            return pairs.sorted { a, b in
                if let orderColumn {
                    let x = a.order[orderColumn] ?? 0, y = b.order[orderColumn] ?? 0
                    if x != y { return x < y }
                }
                return (a.ids[destinationColumn]?.primaryKey ?? 0) < (b.ids[destinationColumn]?.primaryKey ?? 0)
            }.compactMap { $0.ids[destinationColumn] }
        case .foreignKey?:
            guard let id = _state.rows[owner]?.values[relationship.name] as? NSManagedObjectID else { return [] }
            return [id]
        case nil:
            return []
        }
    }

    /// The rows a request selects: entity (and subentities), predicate, sort descriptors, offset, limit.
    private func select<Result>(_ request: NSFetchRequest<Result>, entity: NSEntityDescription) throws -> [StoreRow] {
        guard let schema = _schema else { return [] }
        // As the SQLite store refuses a request naming no property (its rows answer any key with `nil`).
        try FetchRequestKeyPaths.check(request, entity: entity)
        return _stateLock.withLock {
            let rows = _state.rows.values.filter { row in
                request.includesSubentities ? row.objectID.entity.isKindOf(entity: entity) : row.objectID.entity.name == entity.name
            }
            var objects = rows.map { InMemoryRowObject(row: $0, store: self, schema: schema) }
            if let predicate = request.predicate {
                objects = objects.filter { predicate.evaluate(with: $0) }
            }
            objects.sort { a, b in
                for descriptor in request.sortDescriptors ?? [] {
                    let order = descriptor.compare(a, to: b)
                    if order != .orderedSame { return order == .orderedAscending }
                }
                return (a.row.objectID.primaryKey ?? 0) < (b.row.objectID.primaryKey ?? 0)
            }
            let start = min(max(request.fetchOffset, 0), objects.count)
            var window = objects[start...].map(\.row)
            if request.fetchLimit > 0 { window = Array(window.prefix(request.fetchLimit)) }
            return window
        }
    }
}

/// A row seen by predicates and sort descriptors: attribute values, to-one destinations as row objects,
/// to-many destinations as sets (arrays when ordered) of row objects. Equal to its object ID and to any
/// managed object with that ID. Used only while the store's lock is held.
final class InMemoryRowObject: NSObject, KeyValueCoding {
    let row: StoreRow
    unowned let store: InMemoryStore
    let schema: SQLiteSchema

    init(row: StoreRow, store: InMemoryStore, schema: SQLiteSchema) {
        self.row = row
        self.store = store
        self.schema = schema
    }

    func value(forKey key: String) -> Any? {
        let entity = row.objectID.entity
        if let relationship = entity.relationshipsByName[key] {
            if !relationship.isToMany {
                guard let id = row.values[key] as? NSManagedObjectID, let target = store._state.rows[id] else { return nil }
                return InMemoryRowObject(row: target, store: store, schema: schema)
            }
            let storage = schema.entity(named: entity.name ?? "")?.relationships[key]
            let objects = store.related(row.objectID, relationship: relationship, storage: storage).compactMap { id in
                store._state.rows[id].map { InMemoryRowObject(row: $0, store: store, schema: schema) }
            }
            return relationship.isOrdered ? objects as [Any] : NSSet(array: objects)
        }
        if key == "objectID" { return row.objectID }
        return row.values[key]
    }

    override func isEqual(_ object: Any?) -> Bool {
        if let other = object as? InMemoryRowObject { return other.row.objectID == row.objectID }
        if let id = object as? NSManagedObjectID { return id == row.objectID }
        if let representable = object as? ObjectIDRepresentable { return representable.objectIDForStore == row.objectID }
        return false
    }

    override var hash: Int {
        row.objectID.hash
    }
}
