/// A request that `NSManagedObjectContext.execute(_:)` can run (the seam for asynchronous fetches and
/// batch requests): each request class conforms and runs itself in the context.
protocol ContextExecutableRequest: NSPersistentStoreRequest {
    /// Runs the request in `context` (called on the context's queue) and returns its result.
    func _execute(in context: NSManagedObjectContext) throws -> NSPersistentStoreResult
}

extension NSManagedObjectContext {
    /// Executes a request — an ``NSAsynchronousFetchRequest`` or a batch request — and returns its
    /// result.
    ///
    /// An asynchronous fetch returns an ``NSAsynchronousFetchResult`` at once and runs on the context's
    /// queue afterwards. A request of a kind the context cannot execute throws
    /// `NSPersistentStoreUnsupportedRequestTypeError` (134091).
    public func execute(_ request: NSPersistentStoreRequest) throws -> NSPersistentStoreResult {
        guard let executable = request as? ContextExecutableRequest else {
            throw NSError(domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError, userInfo: [
                NSLocalizedDescriptionKey: "The managed object context cannot execute a request of type \(type(of: request)) (request type \(request.requestType.rawValue)).",
            ])
        }
        return try executable._execute(in: self)
    }
}
