/// The kinds of result a batch update request returns.
public enum NSBatchUpdateRequestResultType: UInt, Sendable {
    /// A Boolean value that tells whether the request succeeded.
    case statusOnlyResultType = 0
    /// The identifiers of the objects the request updated.
    case updatedObjectIDsResultType = 1
    /// The number of objects the request updated.
    case updatedObjectsCountResultType = 2
}

/// A request that updates the stored values of many objects of one entity directly in a SQLite store,
/// without loading them into a context.
///
/// The store changes the matching rows in one statement inside one transaction, and adds one to each
/// row's version, so that a context that holds an older copy of an updated object sees a merge conflict
/// when it saves it. Objects already registered in contexts are not changed: merge the request's object
/// IDs with ``NSManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)`` or refresh them.
/// Validation rules of the model are not applied.
open class NSBatchUpdateRequest: NSPersistentStoreRequest {
    let _entityName: String
    var _entity: NSEntityDescription?

    /// The predicate that selects the objects to update; `nil` updates every object of the entity.
    open var predicate: NSPredicate?
    /// A Boolean value that indicates whether objects of subentities are updated too; `true` unless set.
    open var includesSubentities = true
    /// The kind of result the request returns; `.statusOnlyResultType` unless set.
    open var resultType: NSBatchUpdateRequestResultType = .statusOnlyResultType
    /// The new values: attribute names (or attribute descriptions) mapped to constants or to
    /// `NSExpression`s evaluated against each row, such as `NSExpression(format: "price * 1.1")`.
    open var propertiesToUpdate: [AnyHashable: Any]?

    /// Creates a request that updates objects of the entity with the given name.
    public init(entityName: String) {
        _entityName = entityName
        super.init(requestType: .batchUpdateRequestType)
    }

    /// Creates a request that updates objects of the given entity.
    public init(entity: NSEntityDescription) {
        _entityName = entity.name ?? ""
        _entity = entity
        super.init(requestType: .batchUpdateRequestType)
    }

    /// Returns a request that updates objects of the entity with the given name.
    open class func batchUpdateRequest(entityName: String) -> NSBatchUpdateRequest {
        NSBatchUpdateRequest(entityName: entityName)
    }

    /// The name of the entity whose objects the request updates.
    open var entityName: String { _entityName }

    /// The entity whose objects the request updates: the one given when the request was created, or,
    /// once the request has run, the entity of the coordinator's model with ``entityName``.
    open var entity: NSEntityDescription {
        if let entity = _entity { return entity }
        let placeholder = NSEntityDescription()
        placeholder.name = _entityName
        return placeholder
    }

    /// Returns a copy of the request.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = _entity.map { NSBatchUpdateRequest(entity: $0) } ?? NSBatchUpdateRequest(entityName: _entityName)
        copy._affectedStores = _affectedStores
        copy.predicate = predicate
        copy.includesSubentities = includesSubentities
        copy.resultType = resultType
        copy.propertiesToUpdate = propertiesToUpdate
        return copy
    }
}

/// The result of a batch update request.
open class NSBatchUpdateResult: NSPersistentStoreResult {
    let _result: Any?
    let _resultType: NSBatchUpdateRequestResultType

    init(result: Any?, resultType: NSBatchUpdateRequestResultType) {
        _result = result
        _resultType = resultType
        super.init()
    }

    /// The value the request returned: `true` (status only), the number of updated objects as an `Int`,
    /// or the updated objects' `[NSManagedObjectID]`, according to ``resultType``.
    open var result: Any? { _result }
    /// The kind of value ``result`` holds.
    open var resultType: NSBatchUpdateRequestResultType { _resultType }
}
