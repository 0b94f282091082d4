import OpenCoreData

extension NSManagedObject {
    // MARK: Finding all

    /// Returns every object of the class's entity in the context of the current thread.
    public class func mr_findAll() -> [NSManagedObject]? {
        mr_findAll(in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns every object of the class's entity in `context`.
    public class func mr_findAll(in context: NSManagedObjectContext) -> [NSManagedObject]? {
        mr_execute(mr_requestAll(in: context), in: context)
    }

    /// Returns every object sorted by `sortTerm` (comma-separated keys; see
    /// ``mr_requestAllSorted(by:ascending:)``).
    public class func mr_findAllSorted(by sortTerm: String, ascending: Bool) -> [NSManagedObject]? {
        mr_findAllSorted(by: sortTerm, ascending: ascending, with: nil, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns every object in `context` sorted by `sortTerm`.
    public class func mr_findAllSorted(by sortTerm: String, ascending: Bool, in context: NSManagedObjectContext) -> [NSManagedObject]? {
        mr_findAllSorted(by: sortTerm, ascending: ascending, with: nil, in: context)
    }

    /// Returns the objects that match `searchTerm`, sorted by `sortTerm`.
    public class func mr_findAllSorted(by sortTerm: String, ascending: Bool, with searchTerm: NSPredicate?) -> [NSManagedObject]? {
        mr_findAllSorted(by: sortTerm, ascending: ascending, with: searchTerm, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns the objects in `context` that match `searchTerm`, sorted by `sortTerm`.
    public class func mr_findAllSorted(
        by sortTerm: String, ascending: Bool, with searchTerm: NSPredicate?,
        in context: NSManagedObjectContext
    ) -> [NSManagedObject]? {
        mr_execute(mr_requestAllSorted(by: sortTerm, ascending: ascending, with: searchTerm, in: context), in: context)
    }

    /// Returns the objects that match `searchTerm`.
    public class func mr_findAll(with searchTerm: NSPredicate?) -> [NSManagedObject]? {
        mr_findAll(with: searchTerm, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns the objects in `context` that match `searchTerm`.
    public class func mr_findAll(with searchTerm: NSPredicate?, in context: NSManagedObjectContext) -> [NSManagedObject]? {
        mr_execute(mr_requestAll(with: searchTerm, in: context), in: context)
    }

    // MARK: Finding the first

    /// Returns an object of the class's entity, the first the store gives.
    public class func mr_findFirst() -> Self? {
        mr_findFirst(in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns an object of the class's entity in `context`.
    public class func mr_findFirst(in context: NSManagedObjectContext) -> Self? {
        mr_executeFetchRequestAndReturnFirstObject(mr_requestAll(in: context), in: context)
    }

    /// Returns the first object that matches `searchTerm`.
    public class func mr_findFirst(with searchTerm: NSPredicate?) -> Self? {
        mr_findFirst(with: searchTerm, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns the first object in `context` that matches `searchTerm`.
    public class func mr_findFirst(with searchTerm: NSPredicate?, in context: NSManagedObjectContext) -> Self? {
        mr_executeFetchRequestAndReturnFirstObject(mr_requestFirst(with: searchTerm, in: context), in: context)
    }

    /// Returns the first object that matches `searchTerm` in the order of `property`.
    public class func mr_findFirst(with searchTerm: NSPredicate?, sortedBy property: String?, ascending: Bool) -> Self? {
        mr_findFirst(with: searchTerm, sortedBy: property, ascending: ascending, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns the first object in `context` that matches `searchTerm` in the order of `property`.
    public class func mr_findFirst(
        with searchTerm: NSPredicate?, sortedBy property: String?, ascending: Bool,
        in context: NSManagedObjectContext
    ) -> Self? {
        let request =
            property.map { mr_requestAllSorted(by: $0, ascending: ascending, with: searchTerm, in: context) }
            ?? mr_requestAll(with: searchTerm, in: context)
        return mr_executeFetchRequestAndReturnFirstObject(request, in: context)
    }

    /// Returns the first object that matches `searchTerm`, fetching only `attributes`' values.
    public class func mr_findFirst(with searchTerm: NSPredicate?, andRetrieveAttributes attributes: [Any]?) -> Self? {
        mr_findFirst(with: searchTerm, andRetrieveAttributes: attributes, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns the first object in `context` that matches `searchTerm`, fetching only `attributes`' values.
    public class func mr_findFirst(
        with searchTerm: NSPredicate?, andRetrieveAttributes attributes: [Any]?,
        in context: NSManagedObjectContext
    ) -> Self? {
        let request = mr_requestAll(with: searchTerm, in: context)
        request.propertiesToFetch = attributes
        return mr_executeFetchRequestAndReturnFirstObject(request, in: context)
    }

    /// Returns the first object whose `attribute` equals `searchValue`.
    public class func mr_findFirst(byAttribute attribute: String, withValue searchValue: Any) -> Self? {
        mr_findFirst(byAttribute: attribute, withValue: searchValue, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns the first object in `context` whose `attribute` equals `searchValue`.
    public class func mr_findFirst(
        byAttribute attribute: String, withValue searchValue: Any,
        in context: NSManagedObjectContext
    ) -> Self? {
        mr_executeFetchRequestAndReturnFirstObject(mr_requestFirst(byAttribute: attribute, withValue: searchValue, in: context), in: context)
    }

    /// Returns the first object in the order of `attribute`.
    public class func mr_findFirstOrdered(byAttribute attribute: String, ascending: Bool) -> Self? {
        mr_findFirstOrdered(byAttribute: attribute, ascending: ascending, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns the first object in `context` in the order of `attribute`.
    public class func mr_findFirstOrdered(
        byAttribute attribute: String, ascending: Bool,
        in context: NSManagedObjectContext
    ) -> Self? {
        let request = mr_requestAllSorted(by: attribute, ascending: ascending, in: context)
        request.fetchLimit = 1
        return mr_executeFetchRequestAndReturnFirstObject(request, in: context)
    }

    /// Returns the first object whose `attribute` equals `searchValue`, or a new one with that value.
    public class func mr_findFirstOrCreate(byAttribute attribute: String, withValue searchValue: Any) -> Self {
        mr_findFirstOrCreate(byAttribute: attribute, withValue: searchValue, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns the first object in `context` whose `attribute` equals `searchValue`, or a new object of
    /// `context` with `attribute` set to `searchValue`.
    ///
    /// Stops the program when the context's model has no entity for the class (MagicalRecord promises
    /// an object).
    public class func mr_findFirstOrCreate(
        byAttribute attribute: String, withValue searchValue: Any,
        in context: NSManagedObjectContext
    ) -> Self {
        if let found = mr_findFirst(byAttribute: attribute, withValue: searchValue, in: context) { return found }
        guard let created = mr_createEntity(in: context) else {
            fatalError("No entity named \(mr_entityName()) in the model of \(context.mr_workingName())")
        }
        context.performAndWait { created.setValue(searchValue, forKey: attribute) }
        return created
    }

    // MARK: Finding by attribute

    /// Returns the objects whose `attribute` equals `searchValue`.
    public class func mr_find(byAttribute attribute: String, withValue searchValue: Any) -> [NSManagedObject]? {
        mr_find(byAttribute: attribute, withValue: searchValue, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns the objects in `context` whose `attribute` equals `searchValue`.
    public class func mr_find(
        byAttribute attribute: String, withValue searchValue: Any,
        in context: NSManagedObjectContext
    ) -> [NSManagedObject]? {
        mr_execute(mr_requestAllWhere(attribute, isEqualTo: searchValue, in: context), in: context)
    }

    /// Returns the objects whose `attribute` equals `searchValue`, sorted by `sortTerm`.
    public class func mr_find(
        byAttribute attribute: String, withValue searchValue: Any, andOrderBy sortTerm: String?,
        ascending: Bool
    ) -> [NSManagedObject]? {
        mr_find(
            byAttribute: attribute, withValue: searchValue, andOrderBy: sortTerm, ascending: ascending,
            in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns the objects in `context` whose `attribute` equals `searchValue`, sorted by `sortTerm`.
    public class func mr_find(
        byAttribute attribute: String, withValue searchValue: Any, andOrderBy sortTerm: String?,
        ascending: Bool, in context: NSManagedObjectContext
    ) -> [NSManagedObject]? {
        let predicate = NSPredicate(format: "%K = %@", attribute, searchValue)
        let request =
            sortTerm.map { mr_requestAllSorted(by: $0, ascending: ascending, with: predicate, in: context) }
            ?? mr_requestAll(with: predicate, in: context)
        return mr_execute(request, in: context)
    }
}
