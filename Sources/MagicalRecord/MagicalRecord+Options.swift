import OpenCoreData

extension MagicalRecord {
    /// Returns whether MagicalRecord creates the default model on first use, by merging every model it
    /// finds (see ``NSManagedObjectModel/mr_default()``). The default is `true`.
    public class func shouldAutoCreateManagedObjectModel() -> Bool {
        MagicalRecordStack.shared.withLock { $0.shouldAutoCreateManagedObjectModel }
    }

    /// Sets whether MagicalRecord creates the default model on first use.
    public class func setShouldAutoCreateManagedObjectModel(_ autoCreate: Bool) {
        MagicalRecordStack.shared.withLock { $0.shouldAutoCreateManagedObjectModel = autoCreate }
    }

    /// Returns whether MagicalRecord creates the default coordinator, with a SQLite store named
    /// ``defaultStoreName()``, the first time it is asked for one. The default is `false`.
    public class func shouldAutoCreateDefaultPersistentStoreCoordinator() -> Bool {
        MagicalRecordStack.shared.withLock { $0.shouldAutoCreateDefaultPersistentStoreCoordinator }
    }

    /// Sets whether MagicalRecord creates the default coordinator the first time it is asked for one.
    public class func setShouldAutoCreateDefaultPersistentStoreCoordinator(_ autoCreate: Bool) {
        MagicalRecordStack.shared.withLock { $0.shouldAutoCreateDefaultPersistentStoreCoordinator = autoCreate }
    }

    /// Returns whether a SQLite store that cannot be opened with the current model is deleted and
    /// created again, empty.
    ///
    /// When adding the store fails with ``NSPersistentStoreIncompatibleVersionHashError`` (134100),
    /// ``NSMigrationMissingSourceModelError`` (134130) or ``NSMigrationError`` (134110), MagicalRecord
    /// deletes the store file with its `-shm` and `-wal` files and adds the store once more. The default
    /// is `true` in debug builds of MagicalRecord and `false` in release builds: a program in the hands
    /// of its users never loses its data this way unless it asks to.
    public class func shouldDeleteStoreOnModelMismatch() -> Bool {
        MagicalRecordStack.shared.withLock { $0.shouldDeleteStoreOnModelMismatch }
    }

    /// Sets whether a SQLite store that cannot be opened with the current model is deleted and created
    /// again.
    public class func setShouldDeleteStoreOnModelMismatch(_ shouldDelete: Bool) {
        MagicalRecordStack.shared.withLock { $0.shouldDeleteStoreOnModelMismatch = shouldDelete }
    }

    /// Returns how much MagicalRecord logs. The default is ``MagicalRecordLoggingLevel/debug`` in debug
    /// builds and ``MagicalRecordLoggingLevel/error`` in release builds.
    ///
    /// Messages go through swift-log under the label `MagicalRecord`. A build with
    /// `-DMR_LOGGING_DISABLED` compiles logging out whatever the level.
    public class func loggingLevel() -> MagicalRecordLoggingLevel {
        MagicalRecordStack.shared.withLock { $0.loggingLevel }
    }

    /// Sets how much MagicalRecord logs.
    public class func setLoggingLevel(_ level: MagicalRecordLoggingLevel) {
        MagicalRecordStack.shared.withLock { $0.loggingLevel = level }
    }
}
