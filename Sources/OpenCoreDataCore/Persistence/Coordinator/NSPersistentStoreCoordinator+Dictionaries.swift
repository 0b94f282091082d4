/// Dictionary fetches through the coordinator.
extension NSPersistentStoreCoordinator {
    /// The dictionaries a `.dictionaryResultType` request selects, computed by the store in SQL when the
    /// entity lives in exactly one SQLite store; `nil` when the request must be computed in memory
    /// (in-memory stores, or an entity spread over several stores).
    func fetchDictionaries<Result>(_ request: NSFetchRequest<Result>) throws -> [[String: Any]]? {
        let entity = try _entity(of: request)
        let stores = _stores(for: entity, request: request)
        if stores.isEmpty { return [] }
        guard stores.count == 1, let store = stores[0] as? SQLiteStore else { return nil }
        return try store.fetchStoreDictionaries(request, entity: entity)
    }
}

/// Reading the rows of a list of objects at once (batched fetches, asynchronous fetches).
extension NSPersistentStoreCoordinator {
    /// The rows of the given objects of `entity` (its subentities included) that still exist, in no
    /// particular order: one query per SQLite store, a lookup per object elsewhere. The rows refresh
    /// the row cache.
    func fetchRows(
        for objectIDs: [NSManagedObjectID], entity: NSEntityDescription,
        affectedStores: [AnyObject]?
    ) throws -> [StoreRow] {
        let probe = NSFetchRequest<NSFetchRequestResult>()
        probe._entity = entity
        probe._entityName = entity.name
        probe._affectedStores = affectedStores
        let stores = _stores(for: entity, request: probe)
        guard stores.allSatisfy({ $0 is SQLiteStore }) else {
            return try objectIDs.compactMap { try row(for: $0) }
        }
        probe._predicate = NSPredicate(format: "SELF IN %@", argumentArray: [objectIDs])
        return try fetchRows(probe)
    }
}
