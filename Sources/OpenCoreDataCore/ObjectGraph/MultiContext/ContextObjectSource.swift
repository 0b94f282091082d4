/// Where a context fetches, faults and saves: its persistent store coordinator, or — for a child
/// context — its parent context.
///
/// Every method runs on the caller's (the context's) queue; a parent context is entered with
/// `performAndWait`.
protocol ContextObjectSource: AnyObject {
    /// The entity a request fetches, from the model in use.
    func _entity<Result>(of request: NSFetchRequest<Result>) throws -> NSEntityDescription
    /// Rows of the objects a request selects, in result order.
    func fetchRows<Result>(_ request: NSFetchRequest<Result>) throws -> [StoreRow]
    /// IDs of the objects a request selects, in result order.
    func fetchObjectIDs<Result>(_ request: NSFetchRequest<Result>) throws -> [NSManagedObjectID]
    /// The number of objects a request selects.
    func count<Result>(_ request: NSFetchRequest<Result>) throws -> Int
    /// The row of one object, or `nil` when it does not exist.
    func row(for objectID: NSManagedObjectID) throws -> StoreRow?
    /// The row of one object read past any cache.
    func freshRow(for objectID: NSManagedObjectID) throws -> StoreRow?
    /// Destination IDs of a to-many relationship of one object.
    func relatedObjectIDs(for relationship: NSRelationshipDescription, of objectID: NSManagedObjectID) throws -> [NSManagedObjectID]
    /// Permanent IDs for temporary ones, in the stores the IDs were assigned to (by temporary ID) or
    /// else the first store that holds each entity.
    func obtainPermanentIDs(
        for temporaryIDs: [NSManagedObjectID],
        assignedStores: [NSManagedObjectID: NSPersistentStore]
    ) throws -> [NSManagedObjectID: NSManagedObjectID]
    /// Takes a context's saved changes.
    func save(_ changes: StoreSaveChanges) throws -> StoreSaveResult
}

extension NSPersistentStoreCoordinator: ContextObjectSource {}

extension NSManagedObjectContext {
    /// Where the context fetches, faults and saves: the parent context when it has one, otherwise the
    /// coordinator. Throws when it has neither.
    func requireObjectSource() throws -> any ContextObjectSource {
        if let parent = _links.parent { return ParentContextSource(parent) }
        let coordinator = try requireCoordinator()
        if let token = _links.queryGeneration { return PinnedCoordinatorSource(coordinator, token: token) }
        return coordinator
    }

    /// The context's object source, or `nil` without parent and coordinator.
    var _objectSource: (any ContextObjectSource)? {
        if let parent = _links.parent { return ParentContextSource(parent) }
        if let coordinator = _coordinator, let token = _links.queryGeneration {
            return PinnedCoordinatorSource(coordinator, token: token)
        }
        return _coordinator
    }
}
