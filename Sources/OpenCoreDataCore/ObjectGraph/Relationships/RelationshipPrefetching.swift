import Foundation

extension NSManagedObjectContext {
    /// Loads the relationships a fetch request names in `relationshipKeyPathsForPrefetching` for the
    /// objects it fetched: for each key path component, one query for the destination rows of a to-one
    /// relationship, and one for the contents of a to-many relationship plus one for their rows —
    /// however many objects were fetched. Nested key paths (`posts.tags`) continue from the objects the
    /// previous component loaded. A many-to-many component also loads the inverse of the destinations
    /// it reached (one more query). Fetched objects that are still faults get their values from `rows`
    /// first, so that the relationships loaded for them stay in place.
    func _prefetchRelationships<T>(of objects: [NSManagedObject], rows: [StoreRow], for request: NSFetchRequest<T>) throws {
        guard let keyPaths = request.relationshipKeyPathsForPrefetching, !keyPaths.isEmpty, !objects.isEmpty,
            let coordinator = _coordinator
        else { return }
        // By identity: the fetch's rows and objects have no IDs until something asks for them.
        let rowsByIdentity = ObjectIDMap(indexing: rows)
        for object in objects where object._isFault {
            if let row = rowsByIdentity[object._identity] { fulfill(object, from: row) }
        }
        for keyPath in keyPaths {
            var current = objects
            for name in keyPath.split(separator: ".").map(String.init) {
                current = try prefetch(name, of: current, keyPath: keyPath, coordinator: coordinator)
                if current.isEmpty { break }
            }
        }
    }

    /// Loads one relationship of `objects`; returns the destination objects.
    private func prefetch(
        _ name: String, of objects: [NSManagedObject], keyPath: String,
        coordinator: NSPersistentStoreCoordinator
    ) throws -> [NSManagedObject] {
        var destinations: [NSManagedObject] = []
        var seen = Set<ObjectIdentifier>()
        func add(_ object: NSManagedObject) {
            if seen.insert(ObjectIdentifier(object)).inserted { destinations.append(object) }
        }
        var toManyOwners: [NSManagedObjectID: (NSManagedObject, NSRelationshipDescription)] = [:]
        var relationship: NSRelationshipDescription?
        for object in objects {
            guard let candidate = object.entity.relationshipsByName[name] else {
                throw NSError(
                    domain: NSCocoaErrorDomain, code: NSCoreDataError,
                    userInfo: [
                        NSLocalizedDescriptionKey:
                            "The prefetching key path \"\(keyPath)\" names \"\(name)\", which is not a relationship of entity \(object.entity.name ?? "?")."
                    ])
            }
            relationship = candidate
            object._fireFaultIfNeeded()
            if candidate.isToMany {
                if let loaded = object.toMany[name] {
                    loaded.forEach(add)
                } else if !object._objectID.isTemporaryID {
                    toManyOwners[object._objectID] = (object, candidate)
                }
            } else if let destination = object.storage[name] as? NSManagedObject {
                add(destination)
            }
        }
        if let relationship, relationship.isToMany, !toManyOwners.isEmpty {
            try _loadToMany(relationship, of: toManyOwners.mapValues(\.0), coordinator: coordinator).forEach(add)
        }
        try _loadRows(of: destinations.filter { $0._isFault }, coordinator: coordinator)
        if let relationship, relationship.isToMany {
            // After the rows: filling a fault starts its relationships afresh.
            try prefetchInverse(of: relationship, for: destinations, coordinator: coordinator)
        }
        return destinations
    }

    /// Loads the inverse of a many-to-many relationship for the destinations a prefetch reached, in one
    /// query: each destination's inverse then holds ALL its objects (not only the fetched ones), so
    /// walking back (`tag.posts`) fires no relationship fault. Destinations whose inverse is already
    /// loaded keep it. The inverse of a one-to-many relationship is a to-one that the destinations' own
    /// rows carry, so it needs nothing here.
    private func prefetchInverse(
        of relationship: NSRelationshipDescription, for destinations: [NSManagedObject],
        coordinator: NSPersistentStoreCoordinator
    ) throws {
        guard let inverse = relationship.inverseRelationship, inverse.isToMany else { return }
        var owners: [NSManagedObjectID: NSManagedObject] = [:]
        for destination in destinations
        where destination.toMany[inverse.name] == nil
            && !destination._objectID.isTemporaryID && !destination._isDeleted
            && destination.entity.relationshipsByName[inverse.name] === inverse
        {
            owners[destination._objectID] = destination
        }
        guard !owners.isEmpty else { return }
        _ = try _loadToMany(inverse, of: owners, coordinator: coordinator)
    }

    /// Loads a to-many relationship of many objects (loaded, with permanent IDs) in one query per store
    /// (per 10,000 owners) and returns the destinations, each owner's in order; the destinations that
    /// were not registered yet are faults.
    func _loadToMany(
        _ relationship: NSRelationshipDescription, of owners: [NSManagedObjectID: NSManagedObject],
        coordinator: NSPersistentStoreCoordinator
    ) throws -> [NSManagedObject] {
        let related = try StoreRequestor.run(self) { try coordinator.relatedObjectIDs(for: relationship, ofAll: Array(owners.keys)) }
        var destinations: [NSManagedObject] = []
        for (id, owner) in owners {
            let members = (related[id] ?? []).map { object(with: $0) }
            owner.toMany[relationship.name] = members
            if owner.snapshot[relationship.name] == nil { owner.snapshot[relationship.name] = members.map(\.objectID) }
            destinations += members
        }
        return destinations
    }

    /// Fills faults with their rows: from the row cache where it holds them (in a context that reads
    /// cached rows), otherwise one fetch per entity hierarchy for SQLite stores; rows of other stores are
    /// read by ID, in memory.
    func _loadRows(of faults: [NSManagedObject], coordinator: NSPersistentStoreCoordinator) throws {
        guard !faults.isEmpty else { return }
        var byRoot: [ObjectIdentifier: (NSEntityDescription, [NSManagedObjectID])] = [:]
        for fault in faults {
            // A row the cache holds (a to-many relationship's rows join it as they are read) fills its
            // fault at once.
            if stalenessInterval < 0, coordinator._rowCache.holdsRow(for: fault._identity), let row = try coordinator.row(for: fault._objectID) {
                fulfill(fault, from: row)
                continue
            }
            guard coordinator._store(of: fault._objectID) is SQLiteStore else {
                if let row = try coordinator.row(for: fault._objectID) { fulfill(fault, from: row) }
                continue
            }
            var root = fault.entity
            while let parent = root.superentity { root = parent }
            byRoot[ObjectIdentifier(root), default: (root, [])].1.append(fault._objectID)
        }
        for (root, ids) in byRoot.values {
            let request = NSFetchRequest<NSManagedObject>()
            request.entity = root
            request.predicate = NSPredicate(format: "SELF IN %@", ids)
            for row in try coordinator.fetchRows(request) {
                _ = registeredObject(for: row, asFault: false, refresh: false)
            }
        }
    }
}
