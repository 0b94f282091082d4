extension NSManagedObjectContext {
    /// Dictionaries of property values for a `.dictionaryResultType` fetch: one per matching row (or
    /// per group with `propertiesToGroupBy`), keyed by the names or key paths in `propertiesToFetch`
    /// (every stored attribute when it is `nil`) and by the names of its expression descriptions.
    /// To-one relationships give the destination's object ID and `nil` values are left out.
    ///
    /// As in Core Data, the results reflect the persistent store only: changes pending in the context
    /// are not taken into account (`includesPendingChanges` is ignored). A SQLite store computes
    /// everything — aggregates, grouping, `havingPredicate`, distinct results — in SQL; other stores
    /// compute the same results in memory from the stored objects.
    func fetchDictionaries<T>(
        _ request: NSFetchRequest<T>, entity: NSEntityDescription,
        coordinator: NSPersistentStoreCoordinator
    ) throws -> [NSDictionary] {
        let rows: [[String: Any]]
        if let computed = try coordinator.fetchDictionaries(request) {
            rows = computed
        } else {
            // Objects are read in a context of their own, so that none is registered in this one.
            let reader = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
            reader.persistentStoreCoordinator = coordinator
            rows = try reader.performAndWait {
                try InMemoryDictionaryFetch(request: request, entity: entity).run(in: reader)
            }
        }
        return rows.map { row in
            let dictionary = NSMutableDictionary()
            for (key, value) in row { dictionary[key] = value }
            return dictionary
        }
    }
}
