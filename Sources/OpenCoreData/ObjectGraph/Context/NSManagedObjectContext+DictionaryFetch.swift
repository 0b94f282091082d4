extension NSManagedObjectContext {
    /// Dictionaries of property values for a `.dictionaryResultType` fetch: one per matching object,
    /// keyed by the names (or key paths) in `propertiesToFetch` (every attribute when it is `nil`);
    /// to-one relationships give the destination's object ID, `nil` values are left out, and
    /// `returnsDistinctResults` removes duplicate dictionaries.
    ///
    /// Expression descriptions and `propertiesToGroupBy` are not supported yet; such a request throws
    /// `NSPersistentStoreUnsupportedRequestTypeError`.
    func fetchDictionaries<T>(_ request: NSFetchRequest<T>, entity: NSEntityDescription,
                              coordinator: NSPersistentStoreCoordinator) throws -> [NSDictionary] {
        if let groupBy = request.propertiesToGroupBy, !groupBy.isEmpty {
            throw unsupportedDictionaryFetch(entity, "propertiesToGroupBy")
        }
        var keys: [String] = []
        for property in request.propertiesToFetch ?? entity._allProperties.filter({ $0 is NSAttributeDescription }) {
            switch property {
            case let expression as NSExpressionDescription:
                throw unsupportedDictionaryFetch(entity, "the expression description \"\(expression.name)\"")
            case let description as NSPropertyDescription:
                keys.append(description.name)
            case let name as String:
                keys.append(name)
            default:
                throw unsupportedDictionaryFetch(entity, "the property \(property)")
            }
        }
        let objectRequest = NSFetchRequest<NSManagedObject>()
        objectRequest._affectedStores = request._affectedStores
        objectRequest._entity = entity
        objectRequest._entityName = entity.name
        objectRequest._predicate = request.predicate
        objectRequest._sortDescriptors = request.sortDescriptors
        objectRequest._fetchLimit = request.fetchLimit
        objectRequest._fetchOffset = request.fetchOffset
        objectRequest._includesSubentities = request.includesSubentities
        objectRequest._includesPendingChanges = request.includesPendingChanges
        objectRequest._returnsObjectsAsFaults = false
        let objects = try fetch(objectRequest)
        var results: [NSDictionary] = []
        var seen: [NSDictionary] = []
        for object in objects {
            let dictionary = NSMutableDictionary()
            for key in keys {
                var value = object.value(forKeyPath: key)
                if let destination = value as? NSManagedObject { value = destination.objectID }
                if let value, !(value is NSNull) { dictionary[key] = value }
            }
            if request.returnsDistinctResults {
                if seen.contains(where: { $0.isEqual(dictionary) }) { continue }
                seen.append(dictionary)
            }
            results.append(dictionary)
        }
        return results
    }

    private func unsupportedDictionaryFetch(_ entity: NSEntityDescription, _ what: String) -> NSError {
        NSError(domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError, userInfo: [
            NSLocalizedDescriptionKey: "A dictionary fetch of entity \(entity.name ?? "?") with \(what) is not supported yet.",
        ])
    }
}
