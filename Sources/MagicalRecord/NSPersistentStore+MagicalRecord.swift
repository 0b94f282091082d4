import OpenCoreData

/// The name of the store file when the program has no name: `CoreDataStore.sqlite`.
public let kMagicalRecordDefaultStoreFileName = "CoreDataStore.sqlite"

extension NSPersistentStore {
    /// Returns the default store of MagicalRecord's stack: the first store of the default coordinator.
    public class func mr_default() -> NSPersistentStore? {
        MagicalRecordStack.shared.withLock { $0.store }
    }

    /// Sets the default store of MagicalRecord's stack.
    public class func mr_setDefaultPersistentStore(_ store: NSPersistentStore?) {
        MagicalRecordStack.shared.withLock { $0.store = store }
    }

    /// Sets the default store of MagicalRecord's stack. (The name Swift gives `+MR_setDefaultPersistentStore:`.)
    public class func mr_setDefault(_ store: NSPersistentStore?) {
        mr_setDefaultPersistentStore(store)
    }

    /// Returns the folder MagicalRecord keeps stores in.
    ///
    /// MagicalRecord uses `<Application Support>/<CFBundleName>/`; on Linux this is the user's data
    /// directory followed by the program's name, the folder of
    /// `NSPersistentContainer.defaultDirectoryURL()` (normally `~/.local/share/<program>/`).
    public class func mr_applicationStorageDirectory() -> URL {
        NSPersistentContainer.defaultDirectoryURL()
    }

    /// Returns the URL of a store file named `storeFileName` in ``mr_applicationStorageDirectory()``.
    public class func mr_url(forStoreName storeFileName: String) -> URL? {
        mr_applicationStorageDirectory().appendingPathComponent(storeFileName)
    }

    /// Returns the URL of the store file `CoreDataStore.sqlite` in ``mr_applicationStorageDirectory()``.
    public class func mr_defaultLocalStoreUrl() -> URL {
        mr_applicationStorageDirectory().appendingPathComponent(kMagicalRecordDefaultStoreFileName)
    }
}
