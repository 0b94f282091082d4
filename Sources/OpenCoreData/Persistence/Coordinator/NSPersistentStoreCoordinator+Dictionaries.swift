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
