import OpenCoreData

extension NSManagedObject {
    /// Returns a fetch request for the class's entity in the context of the current thread.
    public class func mr_createFetchRequest() -> NSFetchRequest<NSFetchRequestResult> {
        mr_createFetchRequest(in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns a fetch request for the class's entity in the model of `context`.
    public class func mr_createFetchRequest(in context: NSManagedObjectContext) -> NSFetchRequest<NSFetchRequestResult> {
        let request = NSFetchRequest<NSFetchRequestResult>()
        if let entity = mr_entityDescription(in: context) {
            request.entity = entity
        } else {
            MRLog.error("No entity named \(mr_entityName()) in the model of \(context.mr_workingName())")
        }
        return request
    }

    /// Returns a request for every object of the class's entity.
    public class func mr_requestAll() -> NSFetchRequest<NSFetchRequestResult> {
        mr_requestAll(in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns a request for every object of the class's entity in `context`.
    public class func mr_requestAll(in context: NSManagedObjectContext) -> NSFetchRequest<NSFetchRequestResult> {
        mr_createFetchRequest(in: context)
    }

    /// Returns a request for the objects of the class's entity that match `searchTerm`.
    public class func mr_requestAll(with searchTerm: NSPredicate?) -> NSFetchRequest<NSFetchRequestResult> {
        mr_requestAll(with: searchTerm, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns a request for the objects of the class's entity in `context` that match `searchTerm`.
    public class func mr_requestAll(with searchTerm: NSPredicate?, in context: NSManagedObjectContext) -> NSFetchRequest<NSFetchRequestResult> {
        let request = mr_createFetchRequest(in: context)
        request.predicate = searchTerm
        return request
    }

    /// Returns a request for the objects whose `property` equals `value`.
    public class func mr_requestAllWhere(_ property: String, isEqualTo value: Any) -> NSFetchRequest<NSFetchRequestResult> {
        mr_requestAllWhere(property, isEqualTo: value, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns a request for the objects in `context` whose `property` equals `value`.
    public class func mr_requestAllWhere(
        _ property: String, isEqualTo value: Any,
        in context: NSManagedObjectContext
    ) -> NSFetchRequest<NSFetchRequestResult> {
        let request = mr_createFetchRequest(in: context)
        request.predicate = NSPredicate(format: "%K = %@", property, value)
        return request
    }

    /// Returns a request for the first object that matches `searchTerm` (a fetch limit of 1).
    public class func mr_requestFirst(with searchTerm: NSPredicate?) -> NSFetchRequest<NSFetchRequestResult> {
        mr_requestFirst(with: searchTerm, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns a request for the first object in `context` that matches `searchTerm`.
    public class func mr_requestFirst(with searchTerm: NSPredicate?, in context: NSManagedObjectContext) -> NSFetchRequest<NSFetchRequestResult> {
        let request = mr_createFetchRequest(in: context)
        request.predicate = searchTerm
        request.fetchLimit = 1
        return request
    }

    /// Returns a request for the first object whose `attribute` equals `searchValue`.
    public class func mr_requestFirst(byAttribute attribute: String, withValue searchValue: Any?) -> NSFetchRequest<NSFetchRequestResult> {
        mr_requestFirst(byAttribute: attribute, withValue: searchValue, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns a request for the first object in `context` whose `attribute` equals `searchValue`.
    public class func mr_requestFirst(
        byAttribute attribute: String, withValue searchValue: Any?,
        in context: NSManagedObjectContext
    ) -> NSFetchRequest<NSFetchRequestResult> {
        let request = mr_createFetchRequest(in: context)
        request.predicate = NSPredicate(format: "%K = %@", attribute, searchValue)
        request.fetchLimit = 1
        return request
    }

    /// Returns a request for every object, sorted by `sortTerm`.
    ///
    /// `sortTerm` is a comma-separated list of keys (`"lastName,firstName"`); a key may carry its own
    /// direction after a colon (`"height:NO,name"`), otherwise it sorts as `ascending` says. The request
    /// fetches in batches of ``mr_defaultBatchSize()``.
    public class func mr_requestAllSorted(by sortTerm: String, ascending: Bool) -> NSFetchRequest<NSFetchRequestResult> {
        mr_requestAllSorted(by: sortTerm, ascending: ascending, with: nil, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns a request for every object in `context`, sorted by `sortTerm`.
    public class func mr_requestAllSorted(
        by sortTerm: String, ascending: Bool,
        in context: NSManagedObjectContext
    ) -> NSFetchRequest<NSFetchRequestResult> {
        mr_requestAllSorted(by: sortTerm, ascending: ascending, with: nil, in: context)
    }

    /// Returns a request for the objects that match `searchTerm`, sorted by `sortTerm`.
    public class func mr_requestAllSorted(
        by sortTerm: String, ascending: Bool,
        with searchTerm: NSPredicate?
    ) -> NSFetchRequest<NSFetchRequestResult> {
        mr_requestAllSorted(by: sortTerm, ascending: ascending, with: searchTerm, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns a request for the objects in `context` that match `searchTerm`, sorted by `sortTerm`.
    public class func mr_requestAllSorted(
        by sortTerm: String, ascending: Bool, with searchTerm: NSPredicate?,
        in context: NSManagedObjectContext
    ) -> NSFetchRequest<NSFetchRequestResult> {
        let request = mr_requestAll(in: context)
        if let searchTerm { request.predicate = searchTerm }
        request.fetchBatchSize = mr_defaultBatchSize()
        request.sortDescriptors = mr_sortDescriptors(sortTerm, ascending: ascending)
        return request
    }

    /// The sort descriptors of a comma-separated sort term, as MagicalRecord reads it: a key may end
    /// with `:YES` or `:NO` (any text read as a Boolean, as `-[NSString boolValue]` reads it).
    static func mr_sortDescriptors(_ sortTerm: String, ascending: Bool) -> [NSSortDescriptor] {
        sortTerm.components(separatedBy: ",").map { term in
            let components = term.components(separatedBy: ":")
            guard components.count > 1, let last = components.last else {
                return NSSortDescriptor(key: term, ascending: ascending)
            }
            return NSSortDescriptor(key: components[0], ascending: MagicalImport.boolValue(of: last))
        }
    }
}
