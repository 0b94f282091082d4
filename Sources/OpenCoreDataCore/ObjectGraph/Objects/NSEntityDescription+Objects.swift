extension NSEntityDescription {
    /// Creates, inserts and returns a new object of the named entity of the context's model, as an
    /// instance of the entity's managed object class (`NSManagedObject` when the program has no such class).
    ///
    /// An entity name the model does not have stops the program.
    public class func insertNewObject(forEntityName entityName: String, into context: NSManagedObjectContext) -> NSManagedObject {
        guard let model = context.persistentStoreCoordinator?.managedObjectModel else {
            preconditionFailure("+insertNewObject(forEntityName: \"\(entityName)\", into:) needs a context with a persistent store coordinator.")
        }
        guard let entity = model.entitiesByName[entityName] else {
            preconditionFailure("+insertNewObject(forEntityName:into:) could not locate an entity named \"\(entityName)\" in the context's model.")
        }
        let type = ManagedObjectClasses.objectClass(for: entity)
        return type.init(entity: entity, insertInto: context)
    }
}

extension NSEntityDescription {
    /// Returns the entity with the given name from the model of the context's persistent store
    /// coordinator, or `nil` when the model has no such entity.
    ///
    /// A context without a persistent store coordinator is a programmer error, as on Apple platforms.
    public class func entity(forEntityName entityName: String, in context: NSManagedObjectContext) -> NSEntityDescription? {
        guard let model = context.persistentStoreCoordinator?.managedObjectModel else {
            preconditionFailure("+entity(forEntityName: \"\(entityName)\", in:) needs a context with a persistent store coordinator.")
        }
        return model.entitiesByName[entityName]
    }
}
