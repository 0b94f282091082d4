import GRDB

/// Store files: metadata without opening a store, destroying, replacing and migrating stores.
extension NSPersistentStoreCoordinator {
    /// Returns the metadata of the store of a type at a location, without adding the store.
    ///
    /// - Throws: an error naming the file when nothing is there, or it is not a store of that type.
    public class func metadataForPersistentStore(
        ofType storeType: String, at url: URL,
        options: [AnyHashable: Any]? = nil
    ) throws -> [String: Any] {
        try _requireFileType(storeType, url)
        return try SQLiteStoreMetadata.read(fromStoreAt: url).dictionary
    }

    /// Returns the metadata of the store of a type at a location, without adding the store.
    public class func metadataForPersistentStore(
        type: NSPersistentStore.StoreType, at url: URL,
        options: [AnyHashable: Any]? = nil
    ) throws -> [String: Any] {
        try metadataForPersistentStore(ofType: type.rawValue, at: url, options: options)
    }

    /// Replaces the metadata of the store of a type at a location, without adding the store. The store
    /// keeps its UUID unless the metadata names one.
    public class func setMetadata(
        _ metadata: [String: Any]?, forPersistentStoreOfType storeType: String,
        at url: URL, options: [AnyHashable: Any]? = nil
    ) throws {
        try _requireFileType(storeType, url)
        try SQLiteStore.writeMetadata(metadata ?? [:], toStoreAt: url)
    }

    /// Replaces the metadata of the store of a type at a location, without adding the store.
    public class func setMetadata(
        _ metadata: [String: Any]?, type: NSPersistentStore.StoreType,
        at url: URL, options: [AnyHashable: Any]? = nil
    ) throws {
        try setMetadata(metadata, forPersistentStoreOfType: type.rawValue, at: url, options: options)
    }

    /// Deletes the store of a type at a location: the file and its `-wal`, `-shm` and `-journal`
    /// companions. A store of the coordinator at that location is removed first. Nothing at the
    /// location is not an error.
    ///
    /// Other coordinators and processes may have the store open: its content is then emptied in one
    /// transaction they all see, and the emptied file stays until the last of them closes it (their
    /// fetches and saves fail with an error meanwhile; nothing they write goes to a deleted file). A store
    /// in a rollback journal mode is always emptied and kept, since SQLite cannot tell whether another
    /// process has it open. Adding a store at the location again creates a new store in the file.
    ///
    /// - Throws: an error naming the file when it is not a SQLite store (the file is kept).
    public func destroyPersistentStore(at url: URL, ofType storeType: String, options: [AnyHashable: Any]? = nil) throws {
        try Self._requireFileType(storeType, url)
        if let store = persistentStore(for: url) {
            try remove(store)
        }
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        _ = try SQLiteStoreMetadata.readUnlessEmpty(fromStoreAt: url)
        try SQLiteStoreErasure(url: url).run()
    }

    /// Deletes the store of a type at a location.
    public func destroyPersistentStore(at url: URL, type: NSPersistentStore.StoreType, options: [AnyHashable: Any]? = nil) throws {
        try destroyPersistentStore(at: url, ofType: type.rawValue, options: options)
    }

    /// Replaces the store at `destinationURL` with a copy of the store at `sourceURL` (its rows and
    /// metadata, UUID included). The destination is created when nothing is there. The copy is made
    /// through SQLite's backup API in one transaction on the destination: other connections and
    /// processes that have the destination open see the new store whole, or the old one.
    ///
    /// - Throws: an error naming the file when the source is not a store, or SQLite fails; the
    ///   destination is unchanged then.
    public func replacePersistentStore(
        at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil,
        withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil,
        ofType storeType: String
    ) throws {
        try Self._requireFileType(storeType, sourceURL)
        _ = try SQLiteStoreMetadata.read(fromStoreAt: sourceURL)
        if destinationURL.standardizedFileURL == sourceURL.standardizedFileURL { return }
        if let store = persistentStore(for: destinationURL) {
            try remove(store)
        }
        let source = try SQLiteStoreFileAccess.openForReading(sourceURL)
        defer { try? source.close() }
        let destination = try SQLiteStoreFileAccess.openForWriting(destinationURL, label: "OpenCoreData.SQLiteStore(replace)")
        defer { try? destination.close() }
        try SQLiteStoreFileAccess.run(destinationURL) {
            // SQLite's backup API writes the destination in one transaction through its own locks, so other
            // connections to the destination see the new content whole and keep a file with a name.
            try source.backup(to: destination)
            try destination.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
        }
    }

    /// Replaces the store at `destinationURL` with a copy of the store at `sourceURL`.
    public func replacePersistentStore(
        at destinationURL: URL, destinationOptions: [AnyHashable: Any]? = nil,
        withPersistentStoreFrom sourceURL: URL, sourceOptions: [AnyHashable: Any]? = nil,
        type: NSPersistentStore.StoreType
    ) throws {
        try replacePersistentStore(
            at: destinationURL, destinationOptions: destinationOptions,
            withPersistentStoreFrom: sourceURL, sourceOptions: sourceOptions, ofType: type.rawValue)
    }

    /// Copies every row of `store` into the store of a type at `url` (opened when a store is there,
    /// created otherwise) in one save, adds that store and removes the old one. When the copy fails the
    /// old store stays the coordinator's only store for its objects, a store that was at `url` keeps its
    /// rows, and a store this call created is removed again.
    func _migratePersistentStore(
        _ store: NSPersistentStore, to url: URL, options: [AnyHashable: Any]?,
        withType storeType: String
    ) throws -> NSPersistentStore {
        _writeLock.lock()
        defer { _writeLock.unlock() }
        guard persistentStores.contains(where: { $0 === store }) else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreOperationError,
                userInfo: [
                    NSLocalizedDescriptionKey: "The store at \(store.url?.path ?? "(no location)") is not in this coordinator."
                ])
        }
        if persistentStores.contains(where: { $0.url?.standardizedFileURL == url.standardizedFileURL }) {
            throw SQLiteStoreFileAccess.fileError(
                NSPersistentStoreOperationError, url,
                "Cannot migrate the store to \(url.path): a store of this coordinator is already there.")
        }
        let fileExisted = storeType == NSSQLiteStoreType && FileManager.default.fileExists(atPath: url.path)
        let storeExisted =
            fileExisted
            && ((try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0) > 0
        let rows = try store._allRows()
        var related: [NSManagedObjectID: [String: [NSManagedObjectID]]] = [:]
        for row in rows {
            for (name, relationship) in row.objectID.entity.relationshipsByName where relationship.isToMany {
                related[row.objectID, default: [:]][name] = try store._relatedObjectIDs(for: relationship, of: row.objectID)
            }
        }
        let newStore = try _addPersistentStore(
            ofType: storeType,
            configurationName: store.configurationName == "PF_DEFAULT_CONFIGURATION_NAME" ? nil : store.configurationName,
            at: url, options: options)
        do {
            var temporary: [NSManagedObjectID: NSManagedObjectID] = [:]
            for row in rows { temporary[row.objectID] = NSManagedObjectID(temporaryFor: row.objectID.entity) }
            func map(_ value: Any) -> Any {
                if let id = value as? NSManagedObjectID { return temporary[id] ?? id }
                return value
            }
            var changes = StoreSaveChanges()
            for row in rows {
                guard let id = temporary[row.objectID] else { continue }
                let toMany = (related[row.objectID] ?? [:]).mapValues { $0.compactMap { temporary[$0] } }
                changes.inserted.append(.init(objectID: id, values: row.values.dictionary.mapValues(map), toMany: toMany))
            }
            if !storeExisted {
                // A new store carries the old one's custom metadata under its own identity; a store that was
                // there keeps its own.
                var metadata = store.metadata ?? [:]
                metadata[NSStoreUUIDKey] = newStore.identifier
                metadata[NSStoreTypeKey] = newStore.type
                newStore.metadata = metadata
            }
            _ = try newStore._save(changes)
        } catch {
            try? _remove(newStore)
            if !fileExisted, storeType == NSSQLiteStoreType {
                for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
            }
            throw error
        }
        _postWillRemove(store)
        try _remove(store)
        return newStore
    }

    /// Checks that a store type has files (only SQLite stores do here).
    static func _requireFileType(_ storeType: String, _ url: URL) throws {
        guard storeType == NSSQLiteStoreType else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreInvalidTypeError,
                userInfo: [
                    NSLocalizedDescriptionKey: storeType == NSInMemoryStoreType
                        ? "An in-memory store has no file at \(url.path)."
                        : "Unknown persistent store type \"\(storeType)\" for \(url.path).",
                    NSURLErrorKey: url,
                ])
        }
    }
}
