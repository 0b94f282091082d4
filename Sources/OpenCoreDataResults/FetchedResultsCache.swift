import OpenCoreDataCore

/// The files in which fetched results controllers keep section information across launches.
///
/// A cache file records what decided the results (entity and its version hash, predicate, sort
/// descriptors, section key path, limits), a token of the store's content that changes with every
/// write to the rows the results depend on, and the sections with the URIs of their objects. It is
/// used only when all of that still matches; otherwise it is deleted and written again after the
/// fetch. Only SQLite stores are cached.
enum FetchedResultsCache {
    /// The environment variable that replaces the cache directory.
    static let directoryEnvironmentKey = "OPENCOREDATA_FETCHED_RESULTS_CACHE_DIRECTORY"

    /// A directory set by the program, which replaces every other.
    private static let directoryOverride = LockedValue<URL?>(nil)

    /// The directory holding the cache files: the one the program set, else the one the environment
    /// names, else `OpenCoreData/FetchedResultsCache` in the user's caches directory.
    static var directory: URL {
        get {
            if let url = directoryOverride.value { return url }
            return defaultDirectory
        }
        set { directoryOverride.value = newValue }
    }

    private static var defaultDirectory: URL {
        if let override = ProcessInfo.processInfo.environment[directoryEnvironmentKey], !override.isEmpty {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        let caches =
            FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
            ?? FileManager.default.temporaryDirectory
        return caches.appendingPathComponent("OpenCoreData", isDirectory: true)
            .appendingPathComponent("FetchedResultsCache", isDirectory: true)
    }

    /// The file of the cache with a name.
    static func fileURL(named name: String) -> URL {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-_."))
        let escaped = name.addingPercentEncoding(withAllowedCharacters: allowed) ?? name
        return directory.appendingPathComponent("\(escaped).frccache")
    }

    struct StoredSection: Codable {
        var name: String
        var objects: [String]
    }

    struct Contents: Codable {
        var format = 1
        var fingerprint: String
        var stores: [String]
        var sections: [StoredSection]
    }

    /// The sections of a valid cache, their objects as faults registered in the context; `nil` (and
    /// the cache file deleted) when there is no valid cache.
    static func sections(
        named name: String, fingerprint: String, request: FetchedResultsRequest, sectionNameKeyPath: String?,
        context: NSManagedObjectContext
    ) -> [FetchedSection]? {
        let url = fileURL(named: name)
        guard let data = try? Data(contentsOf: url) else { return nil }
        guard let contents = try? JSONDecoder().decode(Contents.self, from: data),
            contents.format == 1, contents.fingerprint == fingerprint,
            let coordinator = context.persistentStoreCoordinator,
            let stores = storeState(of: coordinator, request: request, sectionNameKeyPath: sectionNameKeyPath),
            stores == contents.stores
        else {
            try? FileManager.default.removeItem(at: url)
            return nil
        }
        var sections: [FetchedSection] = []
        for stored in contents.sections {
            var objects: [AnyObject] = []
            objects.reserveCapacity(stored.objects.count)
            for text in stored.objects {
                guard let uri = URL(string: text), let id = coordinator.managedObjectID(forURIRepresentation: uri) else {
                    try? FileManager.default.removeItem(at: url)
                    return nil
                }
                objects.append(context.object(with: id))
            }
            sections.append(FetchedSection(name: stored.name, objects: objects))
        }
        return sections
    }

    /// Writes the sections to the cache with a name; does nothing when an object is not saved yet or a
    /// store has no file.
    static func write(
        _ sections: [FetchedSection], named name: String, fingerprint: String, request: FetchedResultsRequest,
        sectionNameKeyPath: String?, context: NSManagedObjectContext
    ) {
        guard let coordinator = context.persistentStoreCoordinator,
            let stores = storeState(of: coordinator, request: request, sectionNameKeyPath: sectionNameKeyPath)
        else { return }
        var stored: [StoredSection] = []
        for section in sections {
            var uris: [String] = []
            uris.reserveCapacity(section.objects.count)
            for object in section.objects {
                guard let managed = object as? NSManagedObject, !managed.objectID.isTemporaryID else { return }
                uris.append(managed.objectID.uriRepresentation().absoluteString)
            }
            stored.append(StoredSection(name: section.name, objects: uris))
        }
        let contents = Contents(fingerprint: fingerprint, stores: stores, sections: stored)
        guard let data = try? JSONEncoder().encode(contents) else { return }
        let url = fileURL(named: name)
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: url, options: .atomic)
    }

    /// Deletes the cache with a name, or every cache for `nil`.
    static func delete(named name: String?) {
        if let name {
            try? FileManager.default.removeItem(at: fileURL(named: name))
            return
        }
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? []
        for file in files where file.pathExtension == "frccache" {
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// What the stores hold for the request, as tokens that change with every write to the rows the
    /// results depend on: the entity's table, or every table when a key path of the request goes
    /// through relationships. `nil` when a store is not an SQLite store.
    static func storeState(
        of coordinator: NSPersistentStoreCoordinator, request: FetchedResultsRequest,
        sectionNameKeyPath: String?
    ) -> [String]? {
        let stores = coordinator.persistentStores
        guard !stores.isEmpty else { return nil }
        let keyPaths = request.sortDescriptors.compactMap(\.key) + [sectionNameKeyPath ?? "", request.predicate?.predicateFormat ?? ""]
        let entities: [NSEntityDescription]
        if keyPaths.contains(where: { $0.contains(".") }) {
            entities = coordinator.managedObjectModel.entities
        } else {
            entities = [request.entity]
        }
        var states: [String] = []
        for store in stores {
            guard let token = store.sqliteContentToken(forTablesOf: entities) else { return nil }
            states.append("\(store.identifier ?? "")|\(token)")
        }
        return states
    }
}
