import OpenCoreData

extension MagicalRecord {
    /// Makes changes in a new private-queue context, a child of the root saving context, on that
    /// context's queue, and saves them to the store, asynchronously.
    ///
    /// This is the safe way to write from any thread or task: make every change inside the block, to
    /// objects of `localContext` (bring others in with ``NSManagedObject/mr_(in:)``).
    public class func save(_ block: @escaping (_ localContext: NSManagedObjectContext) -> Void) {
        save(block, completion: nil)
    }

    /// Makes changes in a new private child of the root saving context and saves them to the store,
    /// asynchronously; `completion` runs on the main queue.
    public class func save(
        _ block: @escaping (_ localContext: NSManagedObjectContext) -> Void,
        completion: MRSaveCompletionHandler?
    ) {
        let local = NSManagedObjectContext.mr_context(withParent: NSManagedObjectContext.mr_rootSaving())
        local.perform {
            local.mr_setWorkingName("MagicalRecord save(_:completion:)")
            block(local)
            local.mr_save(withOptions: .parentContexts, completion: completion)
        }
    }

    /// Makes changes in a new private child of the root saving context and saves them to the store;
    /// returns when the store is written.
    public class func save(blockAndWait block: (_ localContext: NSManagedObjectContext) -> Void) {
        let local = NSManagedObjectContext.mr_context(withParent: NSManagedObjectContext.mr_rootSaving())
        local.performAndWait {
            local.mr_setWorkingName("MagicalRecord save(blockAndWait:)")
            block(local)
            local.mr_save(withOptions: [.parentContexts, .synchronously], completion: nil)
        }
    }
}
