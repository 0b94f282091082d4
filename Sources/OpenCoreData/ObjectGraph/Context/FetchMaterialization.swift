/// Turning a fetch's rows into the context's objects, in bulk.
extension NSManagedObjectContext {
    /// The objects registered for fetched rows, in order: the registered object of each row's ID, or a
    /// new one (a fault, or filled from the row). The class of each entity is looked up once per run
    /// of rows of that entity, not once per row.
    func _registeredObjects(for rows: [StoreRow], asFault: Bool, refresh: Bool) -> [NSManagedObject] {
        var objects: [NSManagedObject] = []
        objects.reserveCapacity(rows.count)
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
            objects.append(registeredObject(for: row, asFault: asFault, refresh: refresh, type: type))
        }
        return objects
    }
}
