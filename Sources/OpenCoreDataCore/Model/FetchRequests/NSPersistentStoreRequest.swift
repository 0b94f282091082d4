/// The kinds of request a persistent store handles.
public enum NSPersistentStoreRequestType: UInt, Sendable, CaseIterable {
    /// A fetch request.
    case fetchRequestType = 1
    /// A save request.
    case saveRequestType = 2
    /// A batch insert request.
    case batchInsertRequestType = 5
    /// A batch update request.
    case batchUpdateRequestType = 6
    /// A batch delete request.
    case batchDeleteRequestType = 7
}

/// The criteria a persistent store coordinator uses to work with its stores: the common base of fetch,
/// save and batch requests.
open class NSPersistentStoreRequest: NSObject, NSCopying {
    let _requestType: NSPersistentStoreRequestType
    /// The stores the request is limited to (persistent store objects), or `nil` for every store; the
    /// persistence layer exposes it as `affectedStores`.
    var _affectedStores: [AnyObject]?

    /// Creates a request of the given type.
    init(requestType: NSPersistentStoreRequestType) {
        _requestType = requestType
        super.init()
    }

    /// The type of the request.
    open var requestType: NSPersistentStoreRequestType { _requestType }

    /// Returns a copy of the request.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSPersistentStoreRequest(requestType: _requestType)
        copy._affectedStores = _affectedStores
        return copy
    }
}
