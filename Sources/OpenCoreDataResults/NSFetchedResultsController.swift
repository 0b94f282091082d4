import OpenCoreDataCore

/// A controller that manages the results of a fetch request, grouped into sections, and reports
/// changes to them — the data source of a list view.
///
/// Configure the controller with a fetch request that has at least one sort descriptor, the context to
/// fetch in, and optionally a section key path and a cache name; call ``performFetch()``; then read
/// ``sections``, ``fetchedObjects``, ``object(at:)`` and ``indexPath(forObject:)``. While the
/// controller has a ``delegate``, it monitors the context — changes made in it, saves of child
/// contexts into it and changes merged into it — and tells the delegate exactly which sections and
/// objects were inserted, deleted, moved or updated.
///
/// The controller passes itself to its delegate as `NSFetchedResultsController<NSFetchRequestResult>`,
/// as on Apple platforms. When `ResultType` is another type, that value is a view of the same
/// controller (same results, same delegate, a copy of the fetch request) rather than the same object.
open class NSFetchedResultsController<ResultType>: NSObject {
    let core: FetchedResultsCore
    /// The request the controller fetches with.
    public let fetchRequest: NSFetchRequest<ResultType>
    /// The view of the controller its delegate receives, when `ResultType` is not `NSFetchRequestResult`.
    private var erasedView: NSFetchedResultsController<NSFetchRequestResult>?

    /// Creates a controller for a fetch request executed in a context.
    ///
    /// - Parameters:
    ///   - fetchRequest: The request; it must have at least one sort descriptor. With sections, the
    ///     first sort descriptor must order objects as `sectionNameKeyPath` groups them.
    ///   - context: The context the request is executed in and whose changes are tracked.
    ///   - sectionNameKeyPath: A key path on the fetched objects whose value is each object's section
    ///     name; `nil` for a single section.
    ///   - name: The name of the cache of section information kept across launches; `nil` for none.
    public init(
        fetchRequest: NSFetchRequest<ResultType>, managedObjectContext context: NSManagedObjectContext,
        sectionNameKeyPath: String?, cacheName name: String?
    ) {
        self.fetchRequest = fetchRequest
        core = FetchedResultsCore(
            context: context, sectionNameKeyPath: sectionNameKeyPath, cacheName: name,
            resolveRequest: {
                let coordinator = try context.requireCoordinator()
                return FetchedResultsRequest(fetchRequest, entity: try coordinator._entity(of: fetchRequest))
            },
            fetch: {
                try context.fetch(fetchRequest).map { $0 as AnyObject }
            })
        super.init()
        core.ownerIndexTitle = { [weak self] name in
            self?.sectionIndexTitle(forSectionName: name) ?? FetchedResultsCore.capitalizedFirstLetter(name)
        }
        if let erased = self as? NSFetchedResultsController<NSFetchRequestResult> {
            core.erased = erased
        } else {
            let erasedRequest = NSFetchRequest<NSFetchRequestResult>()
            let view = NSFetchedResultsController<NSFetchRequestResult>(core: core, fetchRequest: erasedRequest)
            erasedView = view
            core.erased = view
            core.syncErasedRequest = { erasedRequest._adoptSettings(of: fetchRequest) }
            core.syncErasedRequest()
        }
    }

    /// Creates a view of a controller sharing its state.
    private init(core: FetchedResultsCore, fetchRequest: NSFetchRequest<ResultType>) {
        self.core = core
        self.fetchRequest = fetchRequest
        super.init()
    }

    /// The context the request is executed in.
    public var managedObjectContext: NSManagedObjectContext { core.context }

    /// The key path on the fetched objects that gives each object's section name.
    public var sectionNameKeyPath: String? { core.sectionNameKeyPath }

    /// The name of the cache of section information.
    ///
    /// The cache lives in ``cacheDirectory``; remove it with ``deleteCache(withName:)``.
    public var cacheName: String? { core.cacheName }

    /// The object told about changes to the results; the controller tracks changes only while it has one.
    public var delegate: NSFetchedResultsControllerDelegate? {
        get { core.delegate }
        set { core.delegate = newValue }
    }

    /// Executes the fetch request and computes the sections.
    ///
    /// With a cache name, section information from the cache is used when the cache matches the request
    /// and the store has not changed since it was written; otherwise the cache is written anew.
    /// Throws the fetch's error, or an error when the request has no sort descriptors.
    open func performFetch() throws {
        try core.performFetch()
    }

    /// The results of the fetch, `nil` before ``performFetch()``.
    public var fetchedObjects: [ResultType]? {
        core.fetchedObjects?.compactMap { $0 as? ResultType }
    }

    /// The sections of the results, `nil` before ``performFetch()``. Without a section key path there is
    /// exactly one section.
    public var sections: [NSFetchedResultsSectionInfo]? {
        core.sectionInfo
    }

    /// Returns the object at an index path of the results. An index path outside the results stops the
    /// program.
    public func object(at indexPath: IndexPath) -> ResultType {
        let object = core.object(at: indexPath)
        guard let typed = object as? ResultType else {
            preconditionFailure("NSFetchedResultsController: the object at \(indexPath) is \(type(of: object)), not \(ResultType.self).")
        }
        return typed
    }

    /// Returns the index path of an object in the results, or `nil` when the object is not in them.
    public func indexPath(forObject object: ResultType) -> IndexPath? {
        core.indexPath(for: object as AnyObject)
    }

    /// The directory where controllers keep their caches (an OpenCoreData addition).
    ///
    /// By default `OpenCoreData/FetchedResultsCache` in the user's caches directory, or the directory
    /// named by the `OPENCOREDATA_FETCHED_RESULTS_CACHE_DIRECTORY` environment variable.
    public class var cacheDirectory: URL {
        get { FetchedResultsCache.directory }
        set { FetchedResultsCache.directory = newValue }
    }

    /// Deletes the cached section information with the given name, or every cache when `name` is `nil`.
    open class func deleteCache(withName name: String?) {
        FetchedResultsCache.delete(named: name)
    }

    // MARK: Section index

    /// Returns the section index title for a section name: by default its capitalized first letter.
    ///
    /// Override it (or implement the delegate's `controller(_:sectionIndexTitleForSectionName:)`) to
    /// title sections differently.
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        FetchedResultsCore.capitalizedFirstLetter(sectionName)
    }

    /// The section index titles: the index titles of the sections, in section order, each once.
    open var sectionIndexTitles: [String] {
        var titles: [String] = []
        var seen = Set<String>()
        for section in sections ?? [] {
            if let title = section.indexTitle, seen.insert(title).inserted { titles.append(title) }
        }
        return titles
    }

    /// Returns the number of the section for a section index title and its position in the index: the
    /// first section with that index title; when no section has it, the section at that position (or
    /// the last one).
    open func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        let sections = sections ?? []
        if let match = sections.firstIndex(where: { $0.indexTitle == title }) { return match }
        return max(0, min(sectionIndex, sections.count - 1))
    }
}
