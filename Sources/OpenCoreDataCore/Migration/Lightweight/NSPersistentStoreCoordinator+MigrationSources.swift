/// Models a coordinator may migrate stores from.
extension NSPersistentStoreCoordinator {
    /// Models that stores added to this coordinator may have been written with, searched (before the
    /// versions of the model's own `.xcdatamodeld` bundle) when a store needs lightweight migration.
    ///
    /// On Apple platforms Core Data searches the app's bundles; register older models here when the
    /// coordinator's model was built in code or loaded from a single version folder.
    ///
    /// This property is an OpenCoreData addition.
    public var migrationSourceModels: [NSManagedObjectModel] {
        get { _lock.withLock { _migrationSourceModels } }
        set { _lock.withLock { _migrationSourceModels = newValue } }
    }
}
