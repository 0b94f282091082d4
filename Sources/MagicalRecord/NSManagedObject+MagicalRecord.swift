import OpenCoreData

/// A managed object class whose entity is not named after the class.
///
/// MagicalRecord asks a class for `+entityName` when it implements it; in Swift, adopt this protocol:
///
/// ```swift
/// final class Worker: NSManagedObject, MagicalRecordNamedEntity {
///     static func entityName() -> String { "Employee" }
/// }
/// ```
public protocol MagicalRecordNamedEntity: NSManagedObject {
    /// The name of the class's entity in the model.
    static func entityName() -> String
}

extension NSManagedObject {
    // MARK: Entities

    /// Returns the name of the class's entity: the class's ``MagicalRecordNamedEntity/entityName()``
    /// when it adopts ``MagicalRecordNamedEntity``, else the class's name without its module prefix.
    public class func mr_entityName() -> String {
        if let named = self as? any MagicalRecordNamedEntity.Type { return named.entityName() }
        let name = String(reflecting: self)
        return name.split(separator: ".").last.map(String.init) ?? name
    }

    /// Returns the class's entity in the context of the current thread.
    public class func mr_entityDescription() -> NSEntityDescription? {
        mr_entityDescription(in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns the class's entity, ``mr_entityName()``, in the model of `context`.
    public class func mr_entityDescription(in context: NSManagedObjectContext) -> NSEntityDescription? {
        guard let entity = NSEntityDescription.entity(forEntityName: mr_entityName(), in: context) else { return nil }
        ManagedObjectClassUse.note(self, for: entity)
        return entity
    }

    /// Returns the properties of the class's entity named in `properties`, in the order given; names the
    /// entity lacks are skipped.
    public class func mr_propertiesNamed(_ properties: [String]) -> [NSPropertyDescription]? {
        mr_propertiesNamed(properties, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns the properties of the class's entity in `context` named in `properties`.
    public class func mr_propertiesNamed(_ properties: [String], in context: NSManagedObjectContext) -> [NSPropertyDescription]? {
        guard let entity = mr_entityDescription(in: context) else { return nil }
        let byName = entity.propertiesByName
        return properties.compactMap { byName[$0] }
    }

    // MARK: Fetch settings

    /// Returns the fetch batch size of MagicalRecord's sorted requests (20 unless set).
    public class func mr_defaultBatchSize() -> Int {
        MagicalRecordStack.shared.withLock { $0.defaultBatchSize }
    }

    /// Sets the fetch batch size of MagicalRecord's sorted requests.
    public class func mr_setDefaultBatchSize(_ newBatchSize: Int) {
        MagicalRecordStack.shared.withLock { $0.defaultBatchSize = newBatchSize }
    }

    // MARK: Executing requests

    /// Executes `request` in the context of the current thread.
    public class func mr_execute(_ request: NSFetchRequest<NSFetchRequestResult>) -> [NSManagedObject]? {
        mr_execute(request, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Executes `request` in `context`, on its queue; `nil` (the error handed to
    /// ``MagicalRecord/handleErrors(_:)``) when the fetch fails.
    public class func mr_execute(
        _ request: NSFetchRequest<NSFetchRequestResult>,
        in context: NSManagedObjectContext
    ) -> [NSManagedObject]? {
        mr_results(of: request, in: context).map { $0.compactMap { $0 as? NSManagedObject } }
    }

    /// Executes `request` in `context` and returns what it fetched, of any result type.
    class func mr_results(of request: NSFetchRequest<NSFetchRequestResult>, in context: NSManagedObjectContext) -> [Any]? {
        context.performAndWait { () -> [Any]? in
            do {
                return try context.fetch(request)
            } catch {
                MagicalRecord.handleErrors(error as NSError)
                return nil
            }
        }
    }

    /// Executes `request`, limited to one object, in the context of the current thread.
    public class func mr_executeFetchRequestAndReturnFirstObject(_ request: NSFetchRequest<NSFetchRequestResult>) -> Self? {
        mr_executeFetchRequestAndReturnFirstObject(request, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Executes `request`, limited to one object, in `context` and returns the object.
    public class func mr_executeFetchRequestAndReturnFirstObject(
        _ request: NSFetchRequest<NSFetchRequestResult>,
        in context: NSManagedObjectContext
    ) -> Self? {
        request.fetchLimit = 1
        return mr_results(of: request, in: context)?.first as? Self
    }

    /// Performs the fetch of `controller`; `false` (the error handed to
    /// ``MagicalRecord/handleErrors(_:)``) when it fails.
    @discardableResult
    public class func mr_performFetch(_ controller: NSFetchedResultsController<NSFetchRequestResult>) -> Bool {
        do {
            try controller.performFetch()
            return true
        } catch {
            MagicalRecord.handleErrors(error as NSError)
            return false
        }
    }

    // MARK: Creating and deleting

    /// Creates an object of the class's entity in the context of the current thread.
    public class func mr_createEntity() -> Self? {
        mr_createEntity(in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Creates an object of the class's entity and inserts it into `context`; `nil` when the context's
    /// model has no entity named ``mr_entityName()``.
    public class func mr_createEntity(in context: NSManagedObjectContext) -> Self? {
        guard let entity = mr_entityDescription(in: context) else {
            MRLog.error("No entity named \(mr_entityName()) in the model of \(context.mr_workingName())")
            return nil
        }
        return context.performAndWait { Self(entity: entity, insertInto: context) }
    }

    /// Deletes the receiver from its context; `true` once deleted.
    @discardableResult
    public func mr_deleteEntity() -> Bool {
        guard let context = managedObjectContext else { return false }
        return mr_deleteEntity(in: context)
    }

    /// Deletes the object of `context` with the receiver's ID; `true` once deleted, `false` when
    /// `context` has no such object.
    @discardableResult
    public func mr_deleteEntity(in context: NSManagedObjectContext) -> Bool {
        let id = objectID
        return context.performAndWait { () -> Bool in
            guard let object = try? context.existingObject(with: id) else { return false }
            context.delete(object)
            return true
        }
    }

    /// Deletes every object of the class's entity that matches `predicate`, in the context of the
    /// current thread.
    @discardableResult
    public class func mr_deleteAll(matching predicate: NSPredicate) -> Bool {
        mr_deleteAll(matching: predicate, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Deletes every object of the class's entity that matches `predicate` from `context`: they are
    /// fetched as faults and deleted one by one (not a batch delete), so delete rules apply and the
    /// deletions are saved with the context.
    @discardableResult
    public class func mr_deleteAll(matching predicate: NSPredicate, in context: NSManagedObjectContext) -> Bool {
        let request = mr_requestAll(with: predicate, in: context)
        request.returnsObjectsAsFaults = true
        request.includesPropertyValues = false
        guard let objects = mr_execute(request, in: context) else { return false }
        context.performAndWait { for object in objects { context.delete(object) } }
        return true
    }

    /// Deletes every object of the class's entity in the context of the current thread.
    @discardableResult
    public class func mr_truncateAll() -> Bool {
        mr_truncateAll(in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Deletes every object of the class's entity from `context`, one by one.
    @discardableResult
    public class func mr_truncateAll(in context: NSManagedObjectContext) -> Bool {
        let request = mr_requestAll(in: context)
        request.returnsObjectsAsFaults = true
        request.includesPropertyValues = false
        guard let objects = mr_execute(request, in: context) else { return false }
        context.performAndWait { for object in objects { context.delete(object) } }
        return true
    }

    // MARK: Sort descriptors

    /// Returns ascending sort descriptors for the given keys.
    public class func mr_ascendingSortDescriptors(_ attributesToSortBy: [String]) -> [NSSortDescriptor] {
        attributesToSortBy.map { NSSortDescriptor(key: $0, ascending: true) }
    }

    /// Returns descending sort descriptors for the given keys.
    public class func mr_descendingSortDescriptors(_ attributesToSortBy: [String]) -> [NSSortDescriptor] {
        attributesToSortBy.map { NSSortDescriptor(key: $0, ascending: false) }
    }

    // MARK: The same object in another context

    /// Returns the object of `otherContext` with the receiver's ID; a temporary ID is made permanent
    /// first, so that the other context can find the object once it is saved. `nil` when it cannot be
    /// found.
    public func mr_(in otherContext: NSManagedObjectContext) -> Self? {
        if objectID.isTemporaryID, let context = managedObjectContext {
            do {
                try context.performAndWait { try context.obtainPermanentIDs(for: [self]) }
            } catch {
                MagicalRecord.handleErrors(error as NSError)
                return nil
            }
        }
        let id = objectID
        return otherContext.performAndWait { () -> Self? in
            do {
                return try otherContext.existingObject(with: id) as? Self
            } catch {
                MagicalRecord.handleErrors(error as NSError)
                return nil
            }
        }
    }

    /// Returns the object with the receiver's ID in the context of the current thread.
    public func mr_inThreadContext() -> Self? {
        let context = NSManagedObjectContext.mr_currentThreadContext()
        if managedObjectContext === context { return self }
        return mr_(in: context)
    }
}
