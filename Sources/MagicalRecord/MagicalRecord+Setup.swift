import OpenCoreData

extension MagicalRecord {
    /// Sets up the stack with the SQLite store named ``defaultStoreName()`` in the program's storage
    /// folder (``NSPersistentStore/mr_applicationStorageDirectory()``).
    ///
    /// Like every `setup…` method, this does nothing when a default coordinator already exists: call
    /// ``cleanUp()`` first to set up another stack.
    public class func setupCoreDataStack() {
        setupCoreDataStack(withStoreNamed: defaultStoreName())
    }

    /// Sets up the stack with the automatically migrating SQLite store named ``defaultStoreName()``.
    public class func setupAutoMigratingCoreDataStack() {
        setupCoreDataStack(withAutoMigratingSqliteStoreNamed: defaultStoreName())
    }

    /// Sets up the stack with the SQLite store named `storeName` in the program's storage folder.
    public class func setupCoreDataStack(withStoreNamed storeName: String) {
        setUpStack { NSPersistentStoreCoordinator.mr_coordinator(withSqliteStoreNamed: storeName) }
    }

    /// Sets up the stack with the SQLite store named `storeName` in the program's storage folder, added
    /// with the automatic migration options (``NSPersistentStoreCoordinator/mr_autoMigrationOptions()``):
    /// a store written by an earlier version of the model is migrated.
    public class func setupCoreDataStack(withAutoMigratingSqliteStoreNamed storeName: String) {
        setUpStack { NSPersistentStoreCoordinator.mr_coordinator(withAutoMigratingSqliteStoreNamed: storeName) }
    }

    /// Sets up the stack with the SQLite store at `storeURL`.
    public class func setupCoreDataStackWithStore(at storeURL: URL) {
        setUpStack { NSPersistentStoreCoordinator.mr_coordinatorWithSqliteStore(at: storeURL) }
    }

    /// Sets up the stack with the automatically migrating SQLite store at `storeURL`.
    public class func setupCoreDataStackWithAutoMigratingSqliteStore(at storeURL: URL) {
        setUpStack { NSPersistentStoreCoordinator.mr_coordinatorWithAutoMigratingSqliteStore(at: storeURL) }
    }

    /// Sets up the stack with an in-memory store.
    public class func setupCoreDataStackWithInMemoryStore() {
        setUpStack { NSPersistentStoreCoordinator.mr_coordinatorWithInMemoryStore() }
    }

    /// Makes the coordinator `make` returns the default one, with the default contexts on it, unless a
    /// default coordinator exists.
    private class func setUpStack(_ make: () -> NSPersistentStoreCoordinator) {
        guard MagicalRecordStack.shared.withLock({ $0.coordinator }) == nil else { return }
        let coordinator = make()
        NSPersistentStoreCoordinator.mr_setDefaultStoreCoordinator(coordinator)
        NSManagedObjectContext.mr_initializeDefaultContext(with: coordinator)
    }
}
