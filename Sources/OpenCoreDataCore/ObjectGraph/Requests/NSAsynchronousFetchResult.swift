/// The result of a request that runs asynchronously: its progress, its error, and a way to cancel it.
// @unchecked Sendable: results are handed to completion blocks and read from other threads, as on
// Apple platforms; the mutable state (`_operationError` and subclasses' results) is guarded by `_lock`,
// and `Progress` is thread-safe.
open class NSPersistentStoreAsynchronousResult: NSPersistentStoreResult, @unchecked Sendable {
    let _lock = NSLock()
    private let _context: NSManagedObjectContext
    private let _progress: Progress?
    private var _operationError: Error?

    init(context: NSManagedObjectContext, progress: Progress?) {
        _context = context
        _progress = progress
        super.init()
    }

    /// The context that executed the request.
    open var managedObjectContext: NSManagedObjectContext { _context }

    /// The error the request ended with (`NSUserCancelledError` when it was cancelled), or `nil`.
    open var operationError: Error? {
        _lock.withLock { _operationError }
    }

    /// The progress of the request: it advances as results are read and can be cancelled.
    open var progress: Progress? { _progress }

    /// Cancels the request: it stops at the next batch of results and reports `NSUserCancelledError`;
    /// cancelled before the fetch starts, it reads nothing and completes with an empty result and no error.
    open func cancel() {
        _progress?.cancel()
    }

    /// Records the error the request ended with.
    func _setOperationError(_ error: Error?) {
        _lock.withLock { _operationError = error }
    }
}

/// The result of an ``NSAsynchronousFetchRequest``: the fetched objects once the fetch finishes.
open class NSAsynchronousFetchResult<ResultType>: NSPersistentStoreAsynchronousResult, @unchecked Sendable {
    // @unchecked Sendable: `_finalResult` is guarded by the inherited `_lock`.
    private let _fetchRequest: NSAsynchronousFetchRequest<ResultType>
    private var _finalResult: [ResultType]?

    init(fetchRequest: NSAsynchronousFetchRequest<ResultType>, context: NSManagedObjectContext, progress: Progress?) {
        _fetchRequest = fetchRequest
        super.init(context: context, progress: progress)
    }

    /// The asynchronous request this is the result of.
    open var fetchRequest: NSAsynchronousFetchRequest<ResultType> { _fetchRequest }

    /// The fetched results, or `nil` while the fetch runs, or when it failed or was cancelled while it read.
    open var finalResult: [ResultType]? {
        _lock.withLock { _finalResult }
    }

    /// Records the fetched results.
    func _setFinalResult(_ results: [ResultType]?) {
        _lock.withLock { _finalResult = results }
    }
}
