/// The kinds of result a batch insert request returns.
public enum NSBatchInsertRequestResultType: UInt, Sendable {
    /// A Boolean value that tells whether the request succeeded.
    case statusOnly = 0
    /// The identifiers of the inserted objects.
    case objectIDs = 1
    /// The number of inserted objects.
    case count = 2
}

/// A request that inserts many objects of one entity directly into a SQLite store, without creating
/// managed objects in a context.
///
/// Give the objects as an array of dictionaries (attribute name → value), or produce them one at a time
/// with a handler that fills a dictionary or a managed object and returns `true` when there are no more.
/// Attributes left out get their default values; a mandatory attribute without a value or default fails
/// the request, and so does a key that names no attribute of the entity (batch inserts do not set
/// relationships). Every object is inserted in one transaction: all of them or none. When the entity has
/// uniqueness constraints, an object whose constrained values match a stored row updates that row
/// instead of adding a new one.
open class NSBatchInsertRequest: NSPersistentStoreRequest {
    let _entityName: String
    var _entity: NSEntityDescription?

    /// The objects to insert, as dictionaries of attribute names to values.
    open var objectsToInsert: [[String: Any]]?
    /// A handler called once per object to insert: fill the dictionary and return `false`, or return
    /// `true` (leaving the dictionary unused) when there are no more objects.
    open var dictionaryHandler: ((NSMutableDictionary) -> Bool)?
    /// A handler called once per object to insert: set the managed object's attributes and return
    /// `false`, or return `true` (the object is then not inserted) when there are no more objects.
    open var managedObjectHandler: ((NSManagedObject) -> Bool)?
    /// The kind of result the request returns; `.statusOnly` unless set.
    open var resultType: NSBatchInsertRequestResultType = .statusOnly

    /// Creates a request that inserts objects of the named entity from dictionaries.
    public init(entityName: String, objects dictionaries: [[String: Any]]) {
        _entityName = entityName
        objectsToInsert = dictionaries
        super.init(requestType: .batchInsertRequestType)
    }

    /// Creates a request that inserts objects of an entity from dictionaries.
    public init(entity: NSEntityDescription, objects dictionaries: [[String: Any]]) {
        _entityName = entity.name ?? ""
        _entity = entity
        objectsToInsert = dictionaries
        super.init(requestType: .batchInsertRequestType)
    }

    /// Creates a request that inserts objects of the named entity, each one filled in by a handler.
    public init(entityName: String, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        _entityName = entityName
        dictionaryHandler = handler
        super.init(requestType: .batchInsertRequestType)
    }

    /// Creates a request that inserts objects of an entity, each one filled in by a handler.
    public init(entity: NSEntityDescription, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        _entityName = entity.name ?? ""
        _entity = entity
        dictionaryHandler = handler
        super.init(requestType: .batchInsertRequestType)
    }

    /// Creates a request that inserts objects of the named entity, each one set up by a handler on a
    /// managed object of the entity's class.
    public init(entityName: String, managedObjectHandler handler: @escaping (NSManagedObject) -> Bool) {
        _entityName = entityName
        managedObjectHandler = handler
        super.init(requestType: .batchInsertRequestType)
    }

    /// Creates a request that inserts objects of an entity, each one set up by a handler on a managed
    /// object of the entity's class.
    public init(entity: NSEntityDescription, managedObjectHandler handler: @escaping (NSManagedObject) -> Bool) {
        _entityName = entity.name ?? ""
        _entity = entity
        managedObjectHandler = handler
        super.init(requestType: .batchInsertRequestType)
    }

    /// The name of the entity whose objects the request inserts.
    open var entityName: String { _entityName }

    /// The entity whose objects the request inserts: the one given when the request was created, or,
    /// once the request has run, the entity of the coordinator's model with ``entityName``.
    open var entity: NSEntityDescription? { _entity }

    /// Returns a copy of the request.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy =
            _entity.map { NSBatchInsertRequest(entity: $0, objects: objectsToInsert ?? []) }
            ?? NSBatchInsertRequest(entityName: _entityName, objects: objectsToInsert ?? [])
        copy.objectsToInsert = objectsToInsert
        copy.dictionaryHandler = dictionaryHandler
        copy.managedObjectHandler = managedObjectHandler
        copy._affectedStores = _affectedStores
        copy.resultType = resultType
        return copy
    }
}

/// The result of a batch insert request.
open class NSBatchInsertResult: NSPersistentStoreResult {
    let _result: Any?
    let _resultType: NSBatchInsertRequestResultType

    init(result: Any?, resultType: NSBatchInsertRequestResultType) {
        _result = result
        _resultType = resultType
        super.init()
    }

    /// The value the request returned: `true` (status only), the number of inserted objects as an `Int`,
    /// or the inserted objects' `[NSManagedObjectID]`, according to ``resultType``.
    open var result: Any? { _result }
    /// The kind of value ``result`` holds.
    open var resultType: NSBatchInsertRequestResultType { _resultType }
}
