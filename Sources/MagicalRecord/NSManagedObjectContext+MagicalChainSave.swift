import OpenCoreData

extension NSManagedObjectContext {
    /// Makes changes in a new private child of the receiver, on that child's queue, and saves them
    /// through the receiver to the store, asynchronously.
    public func mr_save(_ block: @escaping (_ localContext: NSManagedObjectContext) -> Void) {
        mr_save(block, completion: nil)
    }

    /// Makes changes in a new private child of the receiver and saves them through to the store,
    /// asynchronously; `completion` runs on the main queue.
    public func mr_save(
        _ block: @escaping (_ localContext: NSManagedObjectContext) -> Void,
        completion: MRSaveCompletionHandler?
    ) {
        let local = NSManagedObjectContext.mr_context(withParent: self)
        local.perform {
            local.mr_setWorkingName("MagicalRecord chain save (\(#function))")
            block(local)
            local.mr_save(withOptions: .parentContexts, completion: completion)
        }
    }

    /// Makes changes in a new private child of the receiver and saves them through to the store, and
    /// returns when the store is written.
    public func mr_save(blockAndWait block: (_ localContext: NSManagedObjectContext) -> Void) {
        let local = NSManagedObjectContext.mr_context(withParent: self)
        local.performAndWait {
            block(local)
            local.mr_save(withOptions: [.parentContexts, .synchronously], completion: nil)
        }
    }
}
