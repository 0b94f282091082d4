import OpenCoreData

extension NSPersistentStoreCoordinator {
    /// Returns the default coordinator of MagicalRecord's stack.
    ///
    /// When none is set and ``MagicalRecord/shouldAutoCreateDefaultPersistentStoreCoordinator()`` is
    /// `true`, a coordinator with a SQLite store named ``MagicalRecord/defaultStoreName()`` is made and
    /// becomes the default.
    public class func mr_default() -> NSPersistentStoreCoordinator? {
        if let coordinator = MagicalRecordStack.shared.withLock({ $0.coordinator }) { return coordinator }
        guard MagicalRecord.shouldAutoCreateDefaultPersistentStoreCoordinator() else { return nil }
        mr_setDefaultStoreCoordinator(mr_newPersistentStoreCoordinator())
        return MagicalRecordStack.shared.withLock { $0.coordinator }
    }

    /// Sets the default coordinator of MagicalRecord's stack; its first store becomes the default store
    /// when there is none.
    public class func mr_setDefaultStoreCoordinator(_ coordinator: NSPersistentStoreCoordinator?) {
        let first = coordinator?.persistentStores.first
        MagicalRecordStack.shared.withLock { stack in
            stack.coordinator = coordinator
            if coordinator != nil, stack.store == nil, let first { stack.store = first }
        }
    }

    /// Sets the default coordinator of MagicalRecord's stack. (The name Swift gives
    /// `+MR_setDefaultStoreCoordinator:`.)
    public class func mr_setDefault(_ coordinator: NSPersistentStoreCoordinator?) {
        mr_setDefaultStoreCoordinator(coordinator)
    }

    /// The options of an automatically migrating SQLite store: migrate, infer the mapping model, and
    /// use the WAL journal.
    public class func mr_autoMigrationOptions() -> [AnyHashable: Any] {
        [
            NSMigratePersistentStoresAutomaticallyOption: true,
            NSInferMappingModelAutomaticallyOption: true,
            NSSQLitePragmasOption: ["journal_mode": "WAL"],
        ]
    }

    // MARK: Adding stores

    /// Adds an in-memory store; `nil` (the error handed to ``MagicalRecord/handleErrors(_:)``) when it
    /// cannot be added.
    @discardableResult
    public func mr_addInMemoryStore() -> NSPersistentStore? {
        do {
            return try addPersistentStore(ofType: NSInMemoryStoreType, configurationName: nil, at: nil, options: nil)
        } catch {
            MagicalRecord.handleErrors(error as NSError)
            return nil
        }
    }

    /// Adds the SQLite store named `storeFileName` in ``NSPersistentStore/mr_applicationStorageDirectory()``
    /// (or at `storeFileName` itself when it is a `URL`), creating its folder, with `options`.
    ///
    /// When the store does not match the model, ``MagicalRecord/shouldDeleteStoreOnModelMismatch()``
    /// decides whether it is deleted and created again.
    @discardableResult
    public func mr_addSqliteStoreNamed(_ storeFileName: Any, withOptions options: [AnyHashable: Any]?) -> NSPersistentStore? {
        mr_addSqliteStoreNamed(storeFileName, configuration: nil, withOptions: options)
    }

    /// Adds the SQLite store named `storeFileName` (or at that `URL`) for `configuration`, with `options`.
    @discardableResult
    public func mr_addSqliteStoreNamed(
        _ storeFileName: Any, configuration: String?,
        withOptions options: [AnyHashable: Any]?
    ) -> NSPersistentStore? {
        let url: URL
        if let given = storeFileName as? URL {
            url = given
        } else if let name = storeFileName as? String, let named = NSPersistentStore.mr_url(forStoreName: name) {
            url = named
        } else {
            MRLog.error("A store must be named by a String or a URL, not \(storeFileName)")
            return nil
        }
        mr_createPathToStoreFileIfNecessary(url)
        return mr_addSQLiteStoreDeletingOnMismatch(at: url, configuration: configuration, options: options)
    }

    /// Adds the automatically migrating SQLite store named `storeFileName`.
    @discardableResult
    public func mr_addAutoMigratingSqliteStoreNamed(_ storeFileName: String) -> NSPersistentStore? {
        mr_addSqliteStoreNamed(storeFileName, withOptions: Self.mr_autoMigrationOptions())
    }

    /// Adds the automatically migrating SQLite store at `storeURL`.
    @discardableResult
    public func mr_addAutoMigratingSqliteStore(at storeURL: URL) -> NSPersistentStore? {
        mr_addSqliteStoreNamed(storeURL, withOptions: Self.mr_autoMigrationOptions())
    }

    /// Creates the folder of the store file at `url`.
    private func mr_createPathToStoreFileIfNecessary(_ url: URL) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            MagicalRecord.handleErrors(error as NSError)
        }
    }

    // MARK: Making coordinators

    /// Returns a coordinator for the default model with an in-memory store.
    public class func mr_coordinatorWithInMemoryStore() -> NSPersistentStoreCoordinator {
        let coordinator = mr_coordinatorForDefaultModel()
        coordinator.mr_addInMemoryStore()
        return coordinator
    }

    /// Returns a coordinator for the default model with the SQLite store named ``MagicalRecord/defaultStoreName()``.
    public class func mr_newPersistentStoreCoordinator() -> NSPersistentStoreCoordinator {
        mr_coordinator(withSqliteStoreNamed: MagicalRecord.defaultStoreName())
    }

    /// Returns a coordinator for the default model with the SQLite store named
    /// ``MagicalRecord/defaultStoreName()``. (The name Swift gives `+MR_newPersistentStoreCoordinator`.)
    public class func mr_new() -> NSPersistentStoreCoordinator {
        mr_newPersistentStoreCoordinator()
    }

    /// Returns a coordinator for the default model with the SQLite store named `storeFileName`.
    public class func mr_coordinator(withSqliteStoreNamed storeFileName: String) -> NSPersistentStoreCoordinator {
        mr_coordinator(withSqliteStoreNamed: storeFileName, withOptions: nil)
    }

    /// Returns a coordinator for the default model with the SQLite store named `storeFileName`, added
    /// with `options`.
    public class func mr_coordinator(
        withSqliteStoreNamed storeFileName: String,
        withOptions options: [AnyHashable: Any]?
    ) -> NSPersistentStoreCoordinator {
        let coordinator = mr_coordinatorForDefaultModel()
        coordinator.mr_addSqliteStoreNamed(storeFileName, withOptions: options)
        return coordinator
    }

    /// Returns a coordinator for the default model with the SQLite store at `storeURL`.
    public class func mr_coordinatorWithSqliteStore(at storeURL: URL) -> NSPersistentStoreCoordinator {
        let coordinator = mr_coordinatorForDefaultModel()
        coordinator.mr_addSqliteStoreNamed(storeURL, withOptions: nil)
        return coordinator
    }

    /// Returns a coordinator for the default model with the automatically migrating SQLite store named
    /// `storeFileName`.
    public class func mr_coordinator(withAutoMigratingSqliteStoreNamed storeFileName: String) -> NSPersistentStoreCoordinator {
        let coordinator = mr_coordinatorForDefaultModel()
        coordinator.mr_addAutoMigratingSqliteStoreNamed(storeFileName)
        return coordinator
    }

    /// Returns a coordinator for the default model with the automatically migrating SQLite store at
    /// `storeURL`.
    public class func mr_coordinatorWithAutoMigratingSqliteStore(at storeURL: URL) -> NSPersistentStoreCoordinator {
        let coordinator = mr_coordinatorForDefaultModel()
        coordinator.mr_addAutoMigratingSqliteStore(at: storeURL)
        return coordinator
    }

    /// Returns a coordinator for the default model to which `persistentStore`'s file is added again.
    public class func mr_coordinator(with persistentStore: NSPersistentStore) -> NSPersistentStoreCoordinator {
        let coordinator = mr_coordinatorForDefaultModel()
        if let url = persistentStore.url {
            coordinator.mr_addSqliteStoreNamed(url, withOptions: persistentStore.options)
        }
        return coordinator
    }

    /// A coordinator for the default model (an empty model when there is none, reported to the log).
    private class func mr_coordinatorForDefaultModel() -> NSPersistentStoreCoordinator {
        guard let model = NSManagedObjectModel.mr_default() else {
            MRLog.error(
                "No default managed object model: no model was found in the main bundle or the resource bundles beside the program, and none was set")
            return NSPersistentStoreCoordinator(managedObjectModel: NSManagedObjectModel())
        }
        return NSPersistentStoreCoordinator(managedObjectModel: model)
    }
}
