extension NSFetchRequest {
    /// Executes the fetch request in the current managed object context: the context whose
    /// `perform(_:)` or `performAndWait(_:)` block is running.
    ///
    /// Call it only from within a block submitted to a context; the results are the same as
    /// ``NSManagedObjectContext/fetch(_:)`` in that context.
    ///
    /// - Throws: the fetch's error, or an `NSCoreDataError` error when no context block is running on
    ///   the calling thread.
    public func execute() throws -> [ResultType] {
        guard let context = CurrentContext.context else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSCoreDataError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "NSFetchRequest.execute() for \(entityName ?? entity?.name ?? "(no entity)") was called outside a managed object context's perform or performAndWait block; there is no current context to fetch in."
                ])
        }
        return try context.fetch(self)
    }
}
