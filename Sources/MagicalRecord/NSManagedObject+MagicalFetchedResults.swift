import OpenCoreData

extension NSManagedObject {
    /// Returns a fetched results controller for `request` in `context`, with `delegate`, sections by
    /// `groupKeyPath`, and a cache named `MagicalRecord-Cache-<class>` when `useFileCache` is `true`. The
    /// controller has not fetched yet.
    public class func mr_fetchController(
        _ request: NSFetchRequest<NSFetchRequestResult>,
        delegate: (any NSFetchedResultsControllerDelegate)?, useFileCache: Bool,
        groupedBy groupKeyPath: String?,
        in context: NSManagedObjectContext
    ) -> NSFetchedResultsController<NSFetchRequestResult> {
        let cacheName = useFileCache ? "MagicalRecord-Cache-\(String(describing: self))" : nil
        let controller = NSFetchedResultsController(
            fetchRequest: request, managedObjectContext: context,
            sectionNameKeyPath: groupKeyPath, cacheName: cacheName)
        controller.delegate = delegate
        return controller
    }

    /// Returns a fetched results controller, already fetched, for every object of the class's entity.
    public class func mr_fetchAll(with delegate: (any NSFetchedResultsControllerDelegate)?) -> NSFetchedResultsController<NSFetchRequestResult> {
        mr_fetchAll(with: delegate, in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns a fetched results controller, already fetched, for every object of the class's entity in
    /// `context`.
    public class func mr_fetchAll(
        with delegate: (any NSFetchedResultsControllerDelegate)?,
        in context: NSManagedObjectContext
    ) -> NSFetchedResultsController<NSFetchRequestResult> {
        let controller = mr_fetchController(
            mr_requestAll(in: context), delegate: delegate, useFileCache: false,
            groupedBy: nil, in: context)
        context.performAndWait { _ = mr_performFetch(controller) }
        return controller
    }

    /// Returns a fetched results controller, already fetched, for the objects that match `searchTerm`
    /// sorted by `sortTerm` in sections by `groupingKeyPath`.
    public class func mr_fetchAllSorted(
        by sortTerm: String?, ascending: Bool, with searchTerm: NSPredicate?,
        groupBy groupingKeyPath: String?,
        delegate: (any NSFetchedResultsControllerDelegate)?
    ) -> NSFetchedResultsController<NSFetchRequestResult> {
        mr_fetchAllSorted(
            by: sortTerm, ascending: ascending, with: searchTerm, groupBy: groupingKeyPath, delegate: delegate,
            in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns a fetched results controller in `context`, already fetched, for the objects that match
    /// `searchTerm` sorted by `sortTerm` in sections by `groupingKeyPath`.
    public class func mr_fetchAllSorted(
        by sortTerm: String?, ascending: Bool, with searchTerm: NSPredicate?,
        groupBy groupingKeyPath: String?, delegate: (any NSFetchedResultsControllerDelegate)?,
        in context: NSManagedObjectContext
    ) -> NSFetchedResultsController<NSFetchRequestResult> {
        mr_fetchAllGrouped(
            by: groupingKeyPath, with: searchTerm, sortedBy: sortTerm, ascending: ascending,
            delegate: delegate, in: context)
    }

    /// Returns a fetched results controller, already fetched, whose sections group the objects that
    /// match `searchTerm` by `group`, sorted by `sortTerm` (comma-separated keys; the first must order
    /// the objects as `group` does).
    public class func mr_fetchAllGrouped(
        by group: String?, with searchTerm: NSPredicate?, sortedBy sortTerm: String?,
        ascending: Bool
    ) -> NSFetchedResultsController<NSFetchRequestResult> {
        mr_fetchAllGrouped(
            by: group, with: searchTerm, sortedBy: sortTerm, ascending: ascending, delegate: nil,
            in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns a fetched results controller in `context`, already fetched, grouping the objects by `group`.
    public class func mr_fetchAllGrouped(
        by group: String?, with searchTerm: NSPredicate?, sortedBy sortTerm: String?,
        ascending: Bool, in context: NSManagedObjectContext
    ) -> NSFetchedResultsController<NSFetchRequestResult> {
        mr_fetchAllGrouped(by: group, with: searchTerm, sortedBy: sortTerm, ascending: ascending, delegate: nil, in: context)
    }

    /// Returns a fetched results controller with `delegate`, already fetched, grouping the objects by `group`.
    public class func mr_fetchAllGrouped(
        by group: String?, with searchTerm: NSPredicate?, sortedBy sortTerm: String?,
        ascending: Bool,
        delegate: (any NSFetchedResultsControllerDelegate)?
    ) -> NSFetchedResultsController<NSFetchRequestResult> {
        mr_fetchAllGrouped(
            by: group, with: searchTerm, sortedBy: sortTerm, ascending: ascending, delegate: delegate,
            in: NSManagedObjectContext.mr_currentThreadContext())
    }

    /// Returns a fetched results controller in `context` with `delegate`, already fetched, grouping the
    /// objects that match `searchTerm` by `group`, sorted by `sortTerm`.
    public class func mr_fetchAllGrouped(
        by group: String?, with searchTerm: NSPredicate?, sortedBy sortTerm: String?,
        ascending: Bool, delegate: (any NSFetchedResultsControllerDelegate)?,
        in context: NSManagedObjectContext
    ) -> NSFetchedResultsController<NSFetchRequestResult> {
        let request =
            sortTerm.map { mr_requestAllSorted(by: $0, ascending: ascending, with: searchTerm, in: context) }
            ?? mr_requestAll(with: searchTerm, in: context)
        let controller = mr_fetchController(request, delegate: delegate, useFileCache: false, groupedBy: group, in: context)
        context.performAndWait { _ = mr_performFetch(controller) }
        return controller
    }
}
