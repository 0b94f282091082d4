import OpenCoreDataCore

/// The state of a fetched results controller, shared with the type-erased controller
/// (`NSFetchedResultsController<NSFetchRequestResult>`) its delegate receives.
final class FetchedResultsCore {
    let context: NSManagedObjectContext
    let sectionNameKeyPath: String?
    let cacheName: String?

    /// Reads the controller's fetch request with its entity resolved.
    let resolveRequest: () throws -> FetchedResultsRequest
    /// Executes the controller's fetch request.
    let fetch: () throws -> [AnyObject]
    /// The controller's `sectionIndexTitle(forSectionName:)`, which a subclass may override.
    var ownerIndexTitle: (String) -> String? = FetchedResultsCore.capitalizedFirstLetter
    /// Gives the type-erased controller's request the controller's current settings.
    var syncErasedRequest: () -> Void = {}
    /// The controller the delegate receives.
    weak var erased: NSFetchedResultsController<NSFetchRequestResult>?

    /// The delegate; the controller tracks changes only while there is one.
    weak var delegate: NSFetchedResultsControllerDelegate? {
        didSet { updateTracking() }
    }
    /// Set by the delegate protocol's own `controller(_:didChangeContentWith:)`: the delegate does not
    /// implement the difference-based callback.
    var differenceCallbackIsDefault = false

    private(set) var request: FetchedResultsRequest?
    private(set) var ordering: FetchedResultsOrdering?
    /// The current results, `nil` before the first fetch.
    private(set) var sections: [FetchedSection]?
    /// The keys each fetched managed object was placed by.
    var keys: [ObjectIdentifier: FetchedObjectKeys] = [:]
    /// The objects in the results.
    var members = Set<ObjectIdentifier>()
    private var observation: FetchedResultsObservation?
    private var flatObjects: [AnyObject]?
    private var sectionInfos: [NSFetchedResultsSectionInfo]?
    private var positions: [ObjectIdentifier: IndexPath]?

    init(
        context: NSManagedObjectContext, sectionNameKeyPath: String?, cacheName: String?,
        resolveRequest: @escaping () throws -> FetchedResultsRequest, fetch: @escaping () throws -> [AnyObject]
    ) {
        self.context = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
        self.resolveRequest = resolveRequest
        self.fetch = fetch
    }

    // MARK: Fetching

    /// Executes the fetch request and computes the sections, from the cache when it is valid.
    func performFetch() throws {
        let request = try resolveRequest()
        guard !request.sortDescriptors.isEmpty else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSCoreDataError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "An NSFetchedResultsController requires a fetch request with sort descriptors; the request for entity \(request.entity.name ?? "?") has none."
                ])
        }
        let ordering = FetchedResultsOrdering(descriptors: request.sortDescriptors, sectionNameKeyPath: sectionNameKeyPath)
        keys = [:]
        let fingerprint = request.fingerprint(sectionNameKeyPath: sectionNameKeyPath)
        if let cacheName, request.resultType == .managedObjectResultType,
            !hasPendingChanges(of: request),
            let cached = FetchedResultsCache.sections(
                named: cacheName, fingerprint: fingerprint, request: request,
                sectionNameKeyPath: sectionNameKeyPath, context: context)
        {
            sections = cached
        } else {
            let objects = try fetch()
            let ordered = request.resultType == .managedObjectResultType ? sorted(objects, by: ordering) : objects
            let sections = group(ordered, ordering: ordering)
            self.sections = sections
            if let cacheName, request.resultType == .managedObjectResultType, !hasPendingChanges(of: request) {
                FetchedResultsCache.write(
                    sections, named: cacheName, fingerprint: fingerprint, request: request,
                    sectionNameKeyPath: sectionNameKeyPath, context: context)
            }
        }
        self.request = request
        self.ordering = ordering
        members = Set((sections ?? []).flatMap(\.objects).map(ObjectIdentifier.init))
        resultsChanged()
        updateTracking()
    }

    /// Whether the context has unsaved changes to objects the request could fetch.
    private func hasPendingChanges(of request: FetchedResultsRequest) -> Bool {
        let pending = context.insertedObjects.union(context.updatedObjects).union(context.deletedObjects)
        return pending.contains { request.covers($0) }
    }

    /// The keys of an object, read now when the controller has none yet.
    func keys(of object: AnyObject, _ ordering: FetchedResultsOrdering) -> FetchedObjectKeys {
        let id = ObjectIdentifier(object)
        if let known = keys[id] { return known }
        let read = ordering.keys(of: object)
        keys[id] = read
        return read
    }

    /// Objects in the controller's order: the fetch's order unless it disagrees with the sort
    /// descriptors evaluated in memory, which the controller uses to place changed objects.
    private func sorted(_ objects: [AnyObject], by ordering: FetchedResultsOrdering) -> [AnyObject] {
        let objectKeys = objects.map { keys(of: $0, ordering) }
        let inOrder = objectKeys.indices.dropFirst().allSatisfy {
            ordering.compare(objectKeys[$0 - 1], objectKeys[$0]) != .orderedDescending
        }
        if inOrder { return objects }
        let order = objects.indices.sorted { i, j in
            let result = ordering.compare(objectKeys[i], objectKeys[j])
            return result == .orderedSame ? i < j : result == .orderedAscending
        }
        return order.map { objects[$0] }
    }

    func group(_ objects: [AnyObject], ordering: FetchedResultsOrdering) -> [FetchedSection] {
        FetchedSectionGrouping.group(objects, sectioned: sectionNameKeyPath != nil) { object in
            object is NSManagedObject ? keys(of: object, ordering).sectionName : ordering.sectionName(of: object)
        }
    }

    /// Installs new results.
    func replaceSections(_ sections: [FetchedSection]) {
        self.sections = sections
        resultsChanged()
    }

    private func resultsChanged() {
        flatObjects = nil
        sectionInfos = nil
        positions = nil
    }

    // MARK: Reading

    var fetchedObjects: [AnyObject]? {
        guard let sections else { return nil }
        if let flatObjects { return flatObjects }
        let flat = sections.flatMap(\.objects)
        flatObjects = flat
        return flat
    }

    var sectionInfo: [NSFetchedResultsSectionInfo]? {
        guard let sections else { return nil }
        if let sectionInfos { return sectionInfos }
        let infos: [NSFetchedResultsSectionInfo] = sections.map(info(for:))
        sectionInfos = infos
        return infos
    }

    func info(for section: FetchedSection) -> FetchedResultsSectionInfo {
        FetchedResultsSectionInfo(
            name: section.name, indexTitle: indexTitle(forSectionName: section.name),
            objects: section.objects)
    }

    /// The index title of a section: the delegate's, or the controller's own.
    func indexTitle(forSectionName name: String) -> String? {
        guard sectionNameKeyPath != nil else { return nil }
        if let delegate, let erased {
            return delegate.controller(erased, sectionIndexTitleForSectionName: name)
        }
        return ownerIndexTitle(name)
    }

    /// The controller's own index title for a section name (what a delegate gets by default).
    func defaultIndexTitle(forSectionName name: String) -> String? {
        ownerIndexTitle(name)
    }

    /// The capitalized first letter of a name; `nil` for an empty name.
    static func capitalizedFirstLetter(_ name: String) -> String? {
        guard let first = name.first else { return nil }
        return String(first).capitalized
    }

    func object(at indexPath: IndexPath) -> AnyObject {
        guard let sections else {
            preconditionFailure("NSFetchedResultsController: object(at:) called before performFetch().")
        }
        guard indexPath.count == 2, sections.indices.contains(indexPath[0]),
            sections[indexPath[0]].objects.indices.contains(indexPath[1])
        else {
            let counts = sections.map { String($0.objects.count) }.joined(separator: ", ")
            preconditionFailure("NSFetchedResultsController: no object at index path \(indexPath) (section sizes: [\(counts)]).")
        }
        return sections[indexPath[0]].objects[indexPath[1]]
    }

    func indexPath(for object: AnyObject) -> IndexPath? {
        guard let sections else { return nil }
        if positions == nil {
            var index: [ObjectIdentifier: IndexPath] = [:]
            for (sectionIndex, section) in sections.enumerated() {
                for (row, element) in section.objects.enumerated() {
                    index[ObjectIdentifier(element)] = IndexPath(item: row, section: sectionIndex)
                }
            }
            positions = index
        }
        if let path = positions?[ObjectIdentifier(object)] { return path }
        guard let target = object as? NSObject, !(object is NSManagedObject) else { return nil }
        for (sectionIndex, section) in sections.enumerated() {
            if let row = section.objects.firstIndex(where: { target.isEqual($0) }) {
                return IndexPath(item: row, section: sectionIndex)
            }
        }
        return nil
    }

    // MARK: Tracking

    /// Starts or stops observing the context: changes are tracked after a fetch of managed objects,
    /// while the controller has a delegate.
    private func updateTracking() {
        let tracks = delegate != nil && sections != nil && request?.resultType == .managedObjectResultType
        if tracks, observation == nil {
            observation = FetchedResultsObservation(
                context: context,
                handler: { [weak self] changes in
                    self?.contextDidChange(changes)
                },
                mergedUnregistered: { [weak self] ids in
                    self?.contextDidMerge(unregisteredUpdates: ids)
                })
        } else if !tracks {
            observation = nil
        }
    }
}
