import OpenCoreData

/// The state MagicalRecord keeps for the whole process: the default model, coordinator, store and
/// contexts, and the options. Every class method of MagicalRecord reads and writes it here.
// @unchecked Sendable: every stored property is read and written only with `lock` held (through
// `withLock`); the values themselves (models, coordinators, stores, contexts) are shared across threads
// as Core Data shares them.
final class MagicalRecordStack: @unchecked Sendable {
    static let shared = MagicalRecordStack()

    private let lock = NSRecursiveLock()

    var model: NSManagedObjectModel?
    var coordinator: NSPersistentStoreCoordinator?
    var store: NSPersistentStore?
    var defaultContext: NSManagedObjectContext?
    var rootSavingContext: NSManagedObjectContext?
    /// The observer of the root saving context's saves that merges them into the default context.
    var rootSaveObserver: (any NSObjectProtocol)?

    #if DEBUG
    var shouldDeleteStoreOnModelMismatch = true
    var loggingLevel = MagicalRecordLoggingLevel.debug
    #else
    var shouldDeleteStoreOnModelMismatch = false
    var loggingLevel = MagicalRecordLoggingLevel.error
    #endif
    var shouldAutoCreateManagedObjectModel = true
    var shouldAutoCreateDefaultPersistentStoreCoordinator = false
    var defaultBatchSize = 20
    var errorHandler: (@Sendable (NSError) -> Void)?
    weak var errorHandlerTarget: AnyObject?

    /// Runs `body` with the lock held. The lock is recursive: MagicalRecord's calls nest.
    func withLock<T>(_ body: (MagicalRecordStack) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(self)
    }
}
