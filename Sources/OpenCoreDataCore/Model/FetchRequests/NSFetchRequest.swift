/// A description of search criteria used to retrieve data from a persistent store: the entity, a
/// predicate, sort descriptors, limits and the kind of result.
///
/// `ResultType` is the type of the fetched results: a managed object class, `NSManagedObjectID`,
/// `NSDictionary`, `NSNumber`, or `NSFetchRequestResult` itself, as in `NSFetchRequest<NSFetchRequestResult>`.
/// (On Apple platforms the parameter is constrained to `NSFetchRequestResult`; Swift on Linux cannot
/// use a non-Objective-C protocol as a type argument under that constraint, so here it is unconstrained.)
open class NSFetchRequest<ResultType>: NSPersistentStoreRequest {
    var _entityName: String?
    var _entity: NSEntityDescription?
    var _predicate: NSPredicate?
    var _sortDescriptors: [NSSortDescriptor]?
    var _fetchLimit = 0
    var _fetchOffset = 0
    var _fetchBatchSize = 0
    var _resultType: NSFetchRequestResultType = .managedObjectResultType
    var _includesSubentities = true
    var _includesPendingChanges = true
    var _includesPropertyValues = true
    var _returnsObjectsAsFaults = true
    var _relationshipKeyPathsForPrefetching: [String]?
    var _propertiesToFetch: [Any]?
    var _propertiesToGroupBy: [Any]?
    var _havingPredicate: NSPredicate?
    var _returnsDistinctResults = false
    var _shouldRefreshRefetchedObjects = false
    /// Set when the request is a fetch request template of a model in use; setters then trap.
    var _isImmutableTemplate = false

    /// Creates a fetch request with no entity.
    public init() {
        super.init(requestType: .fetchRequestType)
    }

    /// Stops the program if the request is a template of a model that is in use.
    func _assertMutable() {
        if _isImmutableTemplate {
            preconditionFailure(
                "Can't modify a fetch request template of an immutable model; use fetchRequestFromTemplate(withName:substitutionVariables:) or copy() for a mutable request."
            )
        }
    }

    /// Creates a fetch request for the entity with the given name.
    public convenience init(entityName: String) {
        self.init()
        _entityName = entityName
    }

    /// The name of the entity to fetch.
    open var entityName: String? {
        _entity?.name ?? _entityName
    }

    /// The entity to fetch.
    open var entity: NSEntityDescription? {
        get { _entity }
        set {
            _assertMutable()
            _entity = newValue
            if let name = newValue?.name { _entityName = name }
        }
    }

    /// The predicate that fetched objects must match; `nil` fetches every object of the entity.
    open var predicate: NSPredicate? {
        get { _predicate }
        set {
            _assertMutable()
            _predicate = newValue
        }
    }

    /// The sort descriptors that order the results.
    open var sortDescriptors: [NSSortDescriptor]? {
        get { _sortDescriptors }
        set {
            _assertMutable()
            _sortDescriptors = newValue
        }
    }

    /// The maximum number of results; 0 means no limit.
    open var fetchLimit: Int {
        get { _fetchLimit }
        set {
            _assertMutable()
            _fetchLimit = newValue
        }
    }

    /// The number of matching objects to skip before the first result.
    open var fetchOffset: Int {
        get { _fetchOffset }
        set {
            _assertMutable()
            _fetchOffset = newValue
        }
    }

    /// The number of objects fetched at a time when results are read lazily; 0 fetches all at once.
    open var fetchBatchSize: Int {
        get { _fetchBatchSize }
        set {
            _assertMutable()
            _fetchBatchSize = newValue
        }
    }

    /// The kind of result the fetch returns; `.managedObjectResultType` unless set.
    open var resultType: NSFetchRequestResultType {
        get { _resultType }
        set {
            _assertMutable()
            _resultType = newValue
        }
    }

    /// A Boolean value that indicates whether objects of subentities match too; `true` unless set.
    open var includesSubentities: Bool {
        get { _includesSubentities }
        set {
            _assertMutable()
            _includesSubentities = newValue
        }
    }

    /// A Boolean value that indicates whether unsaved changes in the context are matched too; `true`
    /// unless set.
    open var includesPendingChanges: Bool {
        get { _includesPendingChanges }
        set {
            _assertMutable()
            _includesPendingChanges = newValue
        }
    }

    /// A Boolean value that indicates whether property values are fetched along with the objects; `true`
    /// unless set.
    open var includesPropertyValues: Bool {
        get { _includesPropertyValues }
        set {
            _assertMutable()
            _includesPropertyValues = newValue
        }
    }

    /// A Boolean value that indicates whether fetched objects are returned as faults; `true` unless set.
    open var returnsObjectsAsFaults: Bool {
        get { _returnsObjectsAsFaults }
        set {
            _assertMutable()
            _returnsObjectsAsFaults = newValue
        }
    }

    /// The relationship key paths whose destination objects are fetched along with the results.
    open var relationshipKeyPathsForPrefetching: [String]? {
        get { _relationshipKeyPathsForPrefetching }
        set {
            _assertMutable()
            _relationshipKeyPathsForPrefetching = newValue
        }
    }

    /// The properties (names or property descriptions) a dictionary fetch returns.
    open var propertiesToFetch: [Any]? {
        get { _propertiesToFetch }
        set {
            _assertMutable()
            _propertiesToFetch = newValue
        }
    }

    /// The properties (names or property descriptions) a dictionary fetch groups by.
    open var propertiesToGroupBy: [Any]? {
        get { _propertiesToGroupBy }
        set {
            _assertMutable()
            _propertiesToGroupBy = newValue
        }
    }

    /// The predicate that grouped dictionary results must match.
    open var havingPredicate: NSPredicate? {
        get { _havingPredicate }
        set {
            _assertMutable()
            _havingPredicate = newValue
        }
    }

    /// A Boolean value that indicates whether a dictionary fetch returns only distinct values; `false`
    /// unless set.
    open var returnsDistinctResults: Bool {
        get { _returnsDistinctResults }
        set {
            _assertMutable()
            _returnsDistinctResults = newValue
        }
    }

    /// A Boolean value that indicates whether fetched objects already in the context are refreshed with
    /// the store's values; `false` unless set.
    open var shouldRefreshRefetchedObjects: Bool {
        get { _shouldRefreshRefetchedObjects }
        set {
            _assertMutable()
            _shouldRefreshRefetchedObjects = newValue
        }
    }

    /// Returns a copy of the fetch request.
    open override func copy(with zone: NSZone? = nil) -> Any {
        _retyped(as: ResultType.self)
    }

    /// A mutable copy of the request, with every setting, for results of another type.
    func _retyped<Other>(as type: Other.Type) -> NSFetchRequest<Other> {
        let copy = NSFetchRequest<Other>()
        copy._affectedStores = _affectedStores
        copy._entityName = _entityName
        copy._entity = _entity
        copy._predicate = _predicate
        copy._sortDescriptors = _sortDescriptors
        copy._fetchLimit = _fetchLimit
        copy._fetchOffset = _fetchOffset
        copy._fetchBatchSize = _fetchBatchSize
        copy._resultType = _resultType
        copy._includesSubentities = _includesSubentities
        copy._includesPendingChanges = _includesPendingChanges
        copy._includesPropertyValues = _includesPropertyValues
        copy._returnsObjectsAsFaults = _returnsObjectsAsFaults
        copy._relationshipKeyPathsForPrefetching = _relationshipKeyPathsForPrefetching
        copy._propertiesToFetch = _propertiesToFetch
        copy._propertiesToGroupBy = _propertiesToGroupBy
        copy._havingPredicate = _havingPredicate
        copy._returnsDistinctResults = _returnsDistinctResults
        copy._shouldRefreshRefetchedObjects = _shouldRefreshRefetchedObjects
        return copy
    }
}

extension NSFetchRequest {
    /// Gives the request every setting of another fetch request, whatever its result type.
    package func _adoptSettings<Other>(of other: NSFetchRequest<Other>) {
        _affectedStores = other._affectedStores
        _entityName = other._entityName
        _entity = other._entity
        _predicate = other._predicate
        _sortDescriptors = other._sortDescriptors
        _fetchLimit = other._fetchLimit
        _fetchOffset = other._fetchOffset
        _fetchBatchSize = other._fetchBatchSize
        _resultType = other._resultType
        _includesSubentities = other._includesSubentities
        _includesPendingChanges = other._includesPendingChanges
        _includesPropertyValues = other._includesPropertyValues
        _returnsObjectsAsFaults = other._returnsObjectsAsFaults
        _relationshipKeyPathsForPrefetching = other._relationshipKeyPathsForPrefetching
        _propertiesToFetch = other._propertiesToFetch
        _propertiesToGroupBy = other._propertiesToGroupBy
        _havingPredicate = other._havingPredicate
        _returnsDistinctResults = other._returnsDistinctResults
        _shouldRefreshRefetchedObjects = other._shouldRefreshRefetchedObjects
    }
}
