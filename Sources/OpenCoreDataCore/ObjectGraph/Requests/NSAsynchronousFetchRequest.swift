/// The block an asynchronous fetch request calls with its result.
public typealias NSPersistentStoreAsynchronousFetchResultCompletionBlock = (NSAsynchronousFetchResult<any NSFetchRequestResult>) -> Void

/// A fetch request that runs in the background of its context and reports its results to a completion
/// block, with a progress you can observe and cancel.
///
/// Execute it with `NSManagedObjectContext.execute(_:)`, which returns an `NSAsynchronousFetchResult`
/// right away; the fetch runs later on the context's queue, and the completion block is called there.
open class NSAsynchronousFetchRequest<ResultType>: NSPersistentStoreRequest {
    let _fetchRequest: NSFetchRequest<ResultType>
    let _completionBlock: ((NSAsynchronousFetchResult<ResultType>) -> Void)?
    var _estimatedResultCount = 0

    /// Creates an asynchronous request for a fetch request and the block called with its result.
    public init(
        fetchRequest request: NSFetchRequest<ResultType>,
        completionBlock blk: ((NSAsynchronousFetchResult<ResultType>) -> Void)? = nil
    ) {
        _fetchRequest = request
        _completionBlock = blk
        super.init(requestType: .fetchRequestType)
        _affectedStores = request._affectedStores
    }

    /// The fetch request to run.
    open var fetchRequest: NSFetchRequest<ResultType> { _fetchRequest }

    /// The block called on the context's queue when the fetch finishes, fails or is cancelled.
    open var completionBlock: ((NSAsynchronousFetchResult<ResultType>) -> Void)? { _completionBlock }

    /// The number of results you expect, used as the progress's total until the real count is known;
    /// 0 (the default) when unknown.
    open var estimatedResultCount: Int {
        get { _estimatedResultCount }
        set { _estimatedResultCount = newValue }
    }

    /// Returns a copy of the request.
    open override func copy(with zone: NSZone? = nil) -> Any {
        let copy = NSAsynchronousFetchRequest(fetchRequest: _fetchRequest, completionBlock: _completionBlock)
        copy._estimatedResultCount = _estimatedResultCount
        copy._affectedStores = _affectedStores
        return copy
    }
}
