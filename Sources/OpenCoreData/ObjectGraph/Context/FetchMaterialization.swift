/// Turning a fetch's rows into the context's objects, in bulk.
extension NSManagedObjectContext {
    /// The objects registered for fetched rows, in order: the registered object of each row's ID, or a
    /// new one (a fault, or filled from the row). The class of each entity is looked up once per run
    /// of rows of that entity, not once per row. New faults keep their rows when the rows came from the
    /// coordinator's row cache at `rowGeneration` (see `registeredObject(for:asFault:refresh:type:rowGeneration:)`).
    func _registeredObjects(for rows: [StoreRow], asFault: Bool, refresh: Bool, rowGeneration: UInt64? = nil) -> [NSManagedObject] {
        var objects: [NSManagedObject] = []
        objects.reserveCapacity(rows.count)
        // A first fetch makes room for every row's object at once instead of growing (and rehashing) the
        // registry step by step. Later fetches often return objects already registered, so reserving
        // count + rows there would double the table for nothing.
        if registry.isEmpty { registry.reserveCapacity(rows.count) }
        var lastClass: (entity: NSEntityDescription, type: NSManagedObject.Type)?
        for row in rows {
            let entity = row.objectID.entity
            let type: NSManagedObject.Type
            if let lastClass, lastClass.entity === entity {
                type = lastClass.type
            } else {
                type = ManagedObjectClasses.objectClass(for: entity)
                lastClass = (entity, type)
            }
            objects.append(registeredObject(for: row, asFault: asFault, refresh: refresh, type: type,
                                            rowGeneration: rowGeneration))
        }
        return objects
    }
}
