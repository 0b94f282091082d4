/// A request that a context can execute with ``NSManagedObjectContext/execute(_:)``.
///
/// Each kind of request (asynchronous fetch, batch insert, batch update, batch delete) conforms in its own
/// file, so executing a request dispatches to the code that knows it.
protocol ContextExecutableRequest: NSPersistentStoreRequest {
    /// Runs the request on behalf of `context` and returns its result.
    func execute(in context: NSManagedObjectContext) throws -> NSPersistentStoreResult
}

/// A request that a coordinator can execute with
/// ``NSPersistentStoreCoordinator/execute(_:with:)``.
protocol CoordinatorExecutableRequest: NSPersistentStoreRequest {
    /// Runs the request against the coordinator's stores and returns its result.
    func execute(in coordinator: NSPersistentStoreCoordinator, context: NSManagedObjectContext) throws -> Any
}
