/// A parent context seen by its child as the place to fetch, fault and save.
///
/// Reads see the parent's unsaved state: the parent's fetch (its store results merged with its own
/// pending changes) and its registered objects' current values. A child's save becomes the parent's
/// unsaved changes. Every call enters the parent's queue with `performAndWait`.
final class ParentContextSource: ContextObjectSource {
    let parent: NSManagedObjectContext

    init(_ parent: NSManagedObjectContext) {
        self.parent = parent
    }

    func _entity<Result>(of request: NSFetchRequest<Result>) throws -> NSEntityDescription {
        try parent.requireCoordinator()._entity(of: request)
    }

    func fetchRows<Result>(_ request: NSFetchRequest<Result>) throws -> [StoreRow] {
        let entity = try _entity(of: request)
        let objectRequest = NSFetchRequest<NSManagedObject>()
        objectRequest.entity = entity
        objectRequest.predicate = request.predicate
        objectRequest.sortDescriptors = request.sortDescriptors
        objectRequest.fetchLimit = request.fetchLimit
        objectRequest.fetchOffset = request.fetchOffset
        objectRequest.includesSubentities = request.includesSubentities
        objectRequest._affectedStores = request._affectedStores
        objectRequest.includesPendingChanges = true
        objectRequest.returnsObjectsAsFaults = false
        let parent = self.parent
        return try parent.performAndWait {
            try parent.fetch(objectRequest).compactMap { parent._rowForChild(of: $0, as: $0.objectID) }
        }
    }

    func fetchObjectIDs<Result>(_ request: NSFetchRequest<Result>) throws -> [NSManagedObjectID] {
        try fetchRows(request).map(\.objectID)
    }

    func count<Result>(_ request: NSFetchRequest<Result>) throws -> Int {
        try fetchRows(request).count
    }

    func row(for objectID: NSManagedObjectID) throws -> StoreRow? {
        try parentRow(for: objectID, fresh: false)
    }

    func freshRow(for objectID: NSManagedObjectID) throws -> StoreRow? {
        try parentRow(for: objectID, fresh: true)
    }

    /// The row of an object as the parent has it: its registered object's current values, or its own
    /// source's row for objects it has not loaded. Objects deleted in the parent have no row.
    private func parentRow(for objectID: NSManagedObjectID, fresh: Bool) throws -> StoreRow? {
        let parent = self.parent
        return try parent.performAndWait {
            let id = parent._currentID(for: objectID)
            if let object = parent.registry[id] {
                if object._isDeleted { return nil }
                if !object._isFault || object.hasChanges { return parent._rowForChild(of: object, as: objectID) }
            }
            guard !id.isTemporaryID, let source = parent._objectSource else { return nil }
            let row = try fresh ? source.freshRow(for: id) : source.row(for: id)
            return row.map { StoreRow(objectID: objectID, version: $0.version, values: $0.values) }
        }
    }

    func relatedObjectIDs(for relationship: NSRelationshipDescription, of objectID: NSManagedObjectID) throws -> [NSManagedObjectID] {
        let parent = self.parent
        return try parent.performAndWait {
            let id = parent._currentID(for: objectID)
            if let object = parent.registry[id] {
                if object._isDeleted { return [] }
                return object.objectIDs(forRelationshipNamed: relationship.name)
            }
            guard !id.isTemporaryID, let source = parent._objectSource else { return [] }
            return try source.relatedObjectIDs(for: relationship, of: id)
        }
    }

    func obtainPermanentIDs(
        for temporaryIDs: [NSManagedObjectID],
        assignedStores: [NSManagedObjectID: NSPersistentStore]
    ) throws -> [NSManagedObjectID: NSManagedObjectID] {
        let parent = self.parent
        return try parent.performAndWait {
            let current = temporaryIDs.map { parent._currentID(for: $0) }
            // The parent's own assignments, then the child's (made later, on the child's objects).
            var assigned = parent._assignedStores(for: current)
            for (asked, id) in zip(temporaryIDs, current) {
                if let store = assignedStores[asked] { assigned[id] = store }
            }
            let permanent = try parent.requireObjectSource().obtainPermanentIDs(for: current, assignedStores: assigned)
            var result: [NSManagedObjectID: NSManagedObjectID] = [:]
            for (asked, id) in zip(temporaryIDs, current) {
                guard let newID = permanent[id] else { continue }
                if let object = parent.registry[id], id != newID { parent.changeID(of: object, to: newID) }
                result[asked] = newID
            }
            return result
        }
    }

    func save(_ changes: StoreSaveChanges) throws -> StoreSaveResult {
        let parent = self.parent
        return parent.performAndWait { parent._absorbChildSave(changes) }
    }
}
