import Foundation

/// Fetches that reach an incremental store: the store's `execute(_:with:)` is given the request as the
/// context has it and the context itself, and returns objects of the context (or IDs, dictionaries, a
/// count); the context then adds its pending changes as for any store.
extension NSManagedObjectContext {
    /// The results of a fetch from the coordinator's stores when one of them is an incremental store;
    /// `nil` when none is (the fetch goes the usual way).
    func _fetchThroughIncrementalStores<T>(
        _ request: NSFetchRequest<T>, entity: NSEntityDescription,
        coordinator: NSPersistentStoreCoordinator
    ) throws -> [Any]? {
        let stores = coordinator._stores(for: entity, request: request)
        guard stores.contains(where: { $0 is NSIncrementalStore }) else { return nil }
        return try StoreRequestor.run(self) { try _fetch(request, entity: entity, from: stores) }
    }

    private func _fetch<T>(_ request: NSFetchRequest<T>, entity: NSEntityDescription, from stores: [NSPersistentStore]) throws -> [Any] {
        let type = request.resultType
        let pending = type == .dictionaryResultType ? [] : try pendingObjects(matching: request, entity: entity)
        // Pending changes and several stores are merged here, on unlimited results.
        let merges = !pending.isEmpty || stores.count > 1
        var storeRequest = merges ? unlimitedCopy(of: request) : request
        if type == .countResultType, merges {
            storeRequest = (storeRequest.copy() as? NSFetchRequest<T>) ?? storeRequest
            storeRequest.resultType = .managedObjectIDResultType
        }
        let storeType = storeRequest.resultType
        var results: [Any] = []
        var count = 0
        for store in stores {
            let part: [Any]
            if let store = store as? NSIncrementalStore {
                part = try _results(of: store, storeRequest, entity: entity)
            } else {
                // Another kind of store beside an incremental one: its results as any fetch has them.
                let own = (storeRequest.copy() as? NSFetchRequest<T>) ?? storeRequest
                own.affectedStores = [store]
                own.includesPendingChanges = false
                part = try fetch(own)
            }
            if storeType == .countResultType {
                count += part.first.flatMap { ($0 as? NSNumber)?.intValue } ?? 0
            } else {
                results += part
            }
        }
        if storeType == .countResultType { return [NSNumber(value: count)] }
        guard merges else { return results }
        switch type {
        case .dictionaryResultType:
            var dictionaries = results
            if let descriptors = request.sortDescriptors, !descriptors.isEmpty {
                dictionaries = (dictionaries.compactMap { $0 as? [String: Any] }).sortedArray(using: descriptors)
            }
            return Self._window(dictionaries, of: request)
        case .managedObjectIDResultType, .countResultType:
            let objects = results.compactMap { $0 as? NSManagedObjectID }.map { object(with: $0) }
            let merged = merge(objects, with: pending, request: request)
            return type == .countResultType ? [NSNumber(value: merged.count)] : merged.map(\.objectID)
        default:
            return merge(results.compactMap { $0 as? NSManagedObject }, with: pending, request: request)
        }
    }

    /// The results one incremental store returns for a request, checked against its result type.
    private func _results<T>(of store: NSIncrementalStore, _ request: NSFetchRequest<T>, entity: NSEntityDescription) throws -> [Any] {
        // Handed over as `NSFetchRequest<NSFetchRequestResult>`, the type a store casts a fetch request to.
        let raw = try store.execute(request._retyped(as: NSFetchRequestResult.self), with: self)
        let type = request.resultType
        if type == .countResultType { return [NSNumber(value: try store._count(from: raw))] }
        let elements = try store._elements(of: raw, what: "a fetch")
        switch type {
        case .managedObjectIDResultType:
            return try elements.map { element in
                guard let id = element as? NSManagedObjectID else {
                    throw store._badResult(
                        "returned \(Swift.type(of: element)) from execute(_:with:) for an object ID fetch; expected NSManagedObjectID.")
                }
                return id
            }
        case .dictionaryResultType:
            return try elements.map { element in
                if let dictionary = element as? [String: Any] { return dictionary }
                if let dictionary = element as? NSDictionary {
                    var result: [String: Any] = [:]
                    for (key, value) in dictionary { if let key = key as? String { result[key] = value } }
                    return result
                }
                throw store._badResult("returned \(Swift.type(of: element)) from execute(_:with:) for a dictionary fetch; expected [String: Any].")
            }
        default:
            let objects: [NSManagedObject] = try elements.map { element in
                guard let object = element as? NSManagedObject, object.managedObjectContext === self,
                    object.entity.isKindOf(entity: entity)
                else {
                    throw store._badResult(
                        "returned \(Swift.type(of: element)) from execute(_:with:) for a fetch of \(entity.name ?? "objects"); expected managed objects of that entity in the fetching context."
                    )
                }
                return object
            }
            store._noteRegistered(objects.map(\.objectID), in: self)
            return objects
        }
    }

    private static func _window(_ results: [Any], of request: NSFetchRequest<some Any>) -> [Any] {
        let start = min(max(request.fetchOffset, 0), results.count)
        var window = Array(results[start...])
        if request.fetchLimit > 0 { window = Array(window.prefix(request.fetchLimit)) }
        return window
    }
}
