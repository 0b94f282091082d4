import OpenCoreData

/// Posted before MagicalRecord deletes a store that does not match the model.
public let kMagicalRecordPSCMismatchWillDeleteStore = "kMagicalRecordPSCMismatchWillDeleteStore"
/// Posted after MagicalRecord deleted a store that does not match the model.
public let kMagicalRecordPSCMismatchDidDeleteStore = "kMagicalRecordPSCMismatchDidDeleteStore"
/// Posted before MagicalRecord adds a deleted store again.
public let kMagicalRecordPSCMismatchWillRecreateStore = "kMagicalRecordPSCMismatchWillRecreateStore"
/// Posted after MagicalRecord added a deleted store again.
public let kMagicalRecordPSCMismatchDidRecreateStore = "kMagicalRecordPSCMismatchDidRecreateStore"
/// Posted when a store that does not match the model could not be deleted; `userInfo["Error"]` holds
/// the error.
public let kMagicalRecordPSCMismatchCouldNotDeleteStore = "kMagicalRecordPSCMismatchCouldNotDeleteStore"
/// Posted when a deleted store could not be added again; `userInfo["Error"]` holds the error.
public let kMagicalRecordPSCMismatchCouldNotRecreateStore = "kMagicalRecordPSCMismatchCouldNotRecreateStore"

extension NSPersistentStoreCoordinator {
    /// The error codes of `addPersistentStore` after which ``MagicalRecord/shouldDeleteStoreOnModelMismatch()``
    /// deletes the store and tries again.
    static let mr_mismatchErrorCodes: Set<Int> = [
        NSPersistentStoreIncompatibleVersionHashError, NSMigrationMissingSourceModelError, NSMigrationError,
    ]

    /// Adds the SQLite store at `url`; when that fails because the store does not match the model and
    /// ``MagicalRecord/shouldDeleteStoreOnModelMismatch()`` is on, deletes the file with its `-shm` and
    /// `-wal` files, posting MagicalRecord's notifications, and adds the store once more.
    func mr_addSQLiteStoreDeletingOnMismatch(
        at url: URL, configuration: String?,
        options: [AnyHashable: Any]?
    ) -> NSPersistentStore? {
        do {
            return try addPersistentStore(ofType: NSSQLiteStoreType, configurationName: configuration, at: url, options: options)
        } catch let error as NSError {
            guard MagicalRecord.shouldDeleteStoreOnModelMismatch(), error.domain == NSCocoaErrorDomain,
                Self.mr_mismatchErrorCodes.contains(error.code)
            else {
                MagicalRecord.handleErrors(error)
                return nil
            }
            return mr_recreateStore(at: url, configuration: configuration, options: options)
        }
    }

    /// Deletes the store files at `url` and adds the store once more, posting the notifications.
    private func mr_recreateStore(at url: URL, configuration: String?, options: [AnyHashable: Any]?) -> NSPersistentStore? {
        let center = NotificationCenter.default
        func post(_ name: String, _ userInfo: [AnyHashable: Any]? = nil) {
            center.post(name: NSNotification.Name(name), object: nil, userInfo: userInfo)
        }
        post(kMagicalRecordPSCMismatchWillDeleteStore)
        var deleteError: NSError?
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            deleteError = error as NSError
        }
        for suffix in ["-shm", "-wal"] {
            try? FileManager.default.removeItem(at: URL(fileURLWithPath: url.path + suffix))
        }
        MRLog.warn("Removed incompatible model version: \(url.lastPathComponent)")
        if let deleteError {
            post(kMagicalRecordPSCMismatchCouldNotDeleteStore, ["Error": deleteError])
        } else {
            post(kMagicalRecordPSCMismatchDidDeleteStore)
        }
        post(kMagicalRecordPSCMismatchWillRecreateStore)
        do {
            // As MagicalRecord does, the second attempt names no configuration.
            let store = try addPersistentStore(ofType: NSSQLiteStoreType, configurationName: nil, at: url, options: options)
            post(kMagicalRecordPSCMismatchDidRecreateStore)
            return store
        } catch let error as NSError {
            post(kMagicalRecordPSCMismatchCouldNotRecreateStore, ["Error": error])
            MagicalRecord.handleErrors(error)
            return nil
        }
    }
}
