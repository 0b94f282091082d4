extension NSManagedObjectContext {
    /// Executes a request — an asynchronous fetch or a batch insert, update or delete — and returns its
    /// result.
    ///
    /// Throws `NSPersistentStoreUnsupportedRequestTypeError` (134091) when the request is of a kind the context
    /// cannot execute, and the request's own errors otherwise.
    public func execute(_ request: NSPersistentStoreRequest) throws -> NSPersistentStoreResult {
        guard let executable = request as? any ContextExecutableRequest else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "NSManagedObjectContext.execute(_:) cannot execute a request of type \(type(of: request)) (\(request.requestType))."
                ])
        }
        return try executable.execute(in: self)
    }
}

extension NSPersistentStoreCoordinator {
    /// Sends a request to the coordinator's stores on behalf of a context and returns the result.
    ///
    /// Batch requests run against the stores directly, without loading objects into the context.
    public func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext) throws -> Any {
        if let executable = request as? any CoordinatorExecutableRequest {
            return try executable.execute(in: self, context: context)
        }
        if let executable = request as? any ContextExecutableRequest {
            return try executable.execute(in: context)
        }
        throw NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "NSPersistentStoreCoordinator.execute(_:with:) cannot execute a request of type \(type(of: request)) (\(request.requestType))."
            ])
    }
}
