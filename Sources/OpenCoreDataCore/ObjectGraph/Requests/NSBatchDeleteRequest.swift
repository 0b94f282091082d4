/// The kinds of result a batch delete request returns.
public enum NSBatchDeleteRequestResultType: UInt, Sendable {
    /// A Boolean value that tells whether the request succeeded.
    case resultTypeStatusOnly = 0
    /// The identifiers of the objects the request deleted.
    case resultTypeObjectIDs = 1
    /// The number of objects the request deleted.
    case resultTypeCount = 2
}

/// A request that deletes many objects directly in a SQLite store, without loading them into a context.
///
/// The objects are those a fetch request finds, or those named by object IDs of one entity. The delete
/// rules of their relationships are applied in the store, in the same transaction: destinations of
/// cascading relationships are deleted too (transitively), references to the deleted rows from
/// nullifying inverses are cleared, and the request fails with `NSValidationRelationshipDeniedDeleteError`
/// (1600) when a deleted object still has objects in a relationship with the deny rule. Externally stored
/// binary values of deleted rows are removed. Objects registered in contexts are not changed: merge the
/// deleted IDs with ``NSManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)``.
open class NSBatchDeleteRequest: NSPersistentStoreRequest {
    let _fetchRequest: NSFetchRequest<NSFetchRequestResult>
    let _objectIDs: [NSManagedObjectID]?

    /// The kind of result the request returns; `.resultTypeStatusOnly` unless set.
    open var resultType: NSBatchDeleteRequestResultType = .resultTypeStatusOnly

    /// Creates a request that deletes the objects a fetch request finds.
    public init(fetchRequest fetch: NSFetchRequest<NSFetchRequestResult>) {
        _fetchRequest = fetch.copy() as? NSFetchRequest<NSFetchRequestResult> ?? fetch
        _objectIDs = nil
        super.init(requestType: .batchDeleteRequestType)
        _affectedStores = fetch._affectedStores
    }

    /// Creates a request that deletes the objects a typed fetch request finds.
    public convenience init<Result>(fetchRequest fetch: NSFetchRequest<Result>) {
        self.init(fetchRequest: fetch._retyped(as: NSFetchRequestResult.self))
    }

    /// Creates a request that deletes the objects with the given IDs, which must all be of one entity.
    public init(objectIDs objects: [NSManagedObjectID]) {
        let fetch =
            objects.first.map { NSFetchRequest<NSFetchRequestResult>(entityName: $0.entity.name ?? "") } ?? NSFetchRequest<NSFetchRequestResult>()
        if let first = objects.first {
            fetch.entity = first.entity
            fetch.predicate = NSPredicate(format: "self IN %@", objects)
        }
        _fetchRequest = fetch
        _objectIDs = objects
        super.init(requestType: .batchDeleteRequestType)
    }

    /// The fetch request that identifies the objects to delete; for a request created from object IDs,
    /// a fetch request whose predicate matches those IDs.
    open var fetchRequest: NSFetchRequest<NSFetchRequestResult> {
        _fetchRequest
    }

    /// Returns a copy of the request.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = _objectIDs.map { NSBatchDeleteRequest(objectIDs: $0) } ?? NSBatchDeleteRequest(fetchRequest: _fetchRequest)
        copy._affectedStores = _affectedStores
        copy.resultType = resultType
        return copy
    }
}

/// The result of a batch delete request.
open class NSBatchDeleteResult: NSPersistentStoreResult {
    let _result: Any?
    let _resultType: NSBatchDeleteRequestResultType

    init(result: Any?, resultType: NSBatchDeleteRequestResultType) {
        _result = result
        _resultType = resultType
        super.init()
    }

    /// The value the request returned: `true` (status only), the number of deleted objects as an `Int`,
    /// or the deleted objects' `[NSManagedObjectID]`, according to ``resultType``.
    open var result: Any? { _result }
    /// The kind of value ``result`` holds.
    open var resultType: NSBatchDeleteRequestResultType { _resultType }
}
