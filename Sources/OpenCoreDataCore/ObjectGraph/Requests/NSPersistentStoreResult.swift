/// The common base of the results a persistent store request returns when you execute it.
///
/// Executing a request with ``NSManagedObjectContext/execute(_:)`` returns a subclass that matches the
/// request: an asynchronous fetch result, or a batch insert, update or delete result.
open class NSPersistentStoreResult: NSObject {
    /// Creates an empty result.
    public override init() {
        super.init()
    }
}
