import GRDB

/// The metadata of a SQLite store: the `Z_METADATA` row (`Z_VERSION` 1, the store UUID in `Z_UUID`,
/// a binary property list in `Z_PLIST`), read and written as Core Data reads and writes it
/// (STORE-FORMAT.md §10).
struct SQLiteStoreMetadata {
    /// The store's UUID, upper-case and hyphenated, as kept in `Z_UUID`.
    var uuid: String
    /// The keys and values of `Z_PLIST`. The store UUID is not among them.
    var plist: [String: Any]

    /// The metadata dictionary Core Data returns for the store: the property list's keys plus
    /// ``NSStoreUUIDKey`` and ``NSStoreTypeKey``.
    var dictionary: [String: Any] {
        var result = plist
        result[NSStoreUUIDKey] = uuid
        result[NSStoreTypeKey] = plist[NSStoreTypeKey] ?? SQLiteStoreMetadataKeys.sqliteStoreType
        return result
    }

    /// Metadata from a metadata dictionary as a user passes it to `setMetadata`: ``NSStoreUUIDKey``
    /// goes to `Z_UUID` (a new UUID when absent), every other key to the property list.
    init(dictionary: [String: Any]) {
        var plist = dictionary
        let uuid = (plist.removeValue(forKey: NSStoreUUIDKey) as? String) ?? UUID().uuidString
        self.uuid = uuid.uppercased()
        self.plist = plist
    }

    /// Metadata with the given UUID and property list.
    init(uuid: String, plist: [String: Any]) {
        self.uuid = uuid.uppercased()
        self.plist = plist
    }

    /// The metadata of a new store for the named configuration of a model: the nine keys Core Data
    /// writes (STORE-FORMAT.md §10) plus the user's own keys, and a new UUID unless `uuid` is given.
    init(
        newStoreFor model: NSManagedObjectModel, configurationName: String? = nil,
        uuid: String? = nil, userMetadata: [String: Any] = [:]
    ) {
        let hashes = model._entityVersionHashes(forConfigurationName: configurationName)
        var plist = userMetadata
        plist.removeValue(forKey: NSStoreUUIDKey)
        plist[NSStoreTypeKey] = SQLiteStoreMetadataKeys.sqliteStoreType
        plist[_NSPersistenceFrameworkVersionKey] = SQLiteStoreMetadataKeys.frameworkVersion
        plist[SQLiteStoreMetadataKeys.maximumFrameworkVersion] = SQLiteStoreMetadataKeys.frameworkVersion
        plist[NSStoreModelVersionHashesKey] = hashes
        plist[_NSStoreModelVersionHashesVersionKey] = _NSStoreModelVersionHashesVersion
        let identifiers = model.versionIdentifiers.map { String(describing: $0.base) }.sorted()
        plist[NSStoreModelVersionIdentifiersKey] = identifiers.isEmpty ? [""] : identifiers
        plist[NSStoreModelVersionChecksumKey] = VersionHashing.versionChecksum(of: hashes)
        plist[_NSStoreModelVersionHashesDigestKey] = VersionHashing.versionHashesDigest(of: hashes)
        plist[SQLiteStoreMetadataKeys.autoVacuumLevel] = SQLiteStoreMetadataKeys.incrementalAutoVacuum
        self.uuid = (uuid ?? UUID().uuidString).uppercased()
        self.plist = plist
    }

    /// Reads the `Z_METADATA` row of an open store.
    ///
    /// - Throws: ``NSFileReadCorruptFileError`` naming the file when the table or its row is missing,
    ///   or when `Z_PLIST` is not a property list dictionary.
    static func read(from db: Database, storeURL url: URL) throws -> SQLiteStoreMetadata {
        let exists = try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'Z_METADATA'") ?? false
        guard exists else {
            throw SQLiteStoreFileAccess.fileError(
                NSFileReadCorruptFileError, url,
                "The file \(url.path) is not a Core Data store: it has no Z_METADATA table.")
        }
        guard let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1") else {
            throw SQLiteStoreFileAccess.fileError(
                NSFileReadCorruptFileError, url,
                "The store file \(url.path) has no metadata row in Z_METADATA.")
        }
        let uuid = String.fromDatabaseValue(row[0] as DatabaseValue)
        let data = Data.fromDatabaseValue(row[1] as DatabaseValue)
        guard let uuid, let data else {
            throw SQLiteStoreFileAccess.fileError(
                NSFileReadCorruptFileError, url,
                "The store file \(url.path) has a missing or unreadable Z_UUID or Z_PLIST in Z_METADATA.")
        }
        let decoded: Any
        do {
            decoded = try PropertyListReading.propertyList(from: data)
        } catch {
            throw SQLiteStoreFileAccess.fileError(
                NSFileReadCorruptFileError, url,
                "The metadata of the store file \(url.path) (Z_METADATA.Z_PLIST) is not a property list"
                    + PropertyListReading.reason(error) + ".")
        }
        guard let plist = decoded as? [String: Any] else {
            throw SQLiteStoreFileAccess.fileError(
                NSFileReadCorruptFileError, url,
                "The metadata of the store file \(url.path) (Z_METADATA.Z_PLIST) is not a dictionary.")
        }
        return SQLiteStoreMetadata(uuid: uuid, plist: plist)
    }

    /// Reads the metadata of the store file at `url` without changing the file.
    static func read(fromStoreAt url: URL) throws -> SQLiteStoreMetadata {
        let queue = try SQLiteStoreFileAccess.openForReading(url)
        defer { try? queue.close() }
        return try SQLiteStoreFileAccess.run(url) {
            try queue.read { db in try read(from: db, storeURL: url) }
        }
    }

    /// Reads the metadata of the store file at `url` without changing the file, or returns nil when the
    /// file is an empty database (a destroyed store, a zero-length file): a place to create a store.
    static func readUnlessEmpty(fromStoreAt url: URL) throws -> SQLiteStoreMetadata? {
        let queue = try SQLiteStoreFileAccess.openForReading(url)
        defer { try? queue.close() }
        return try SQLiteStoreFileAccess.run(url) {
            try queue.read { db in
                let empty = try Bool.fetchOne(db, sql: "SELECT count(*) = 0 FROM sqlite_master") ?? false
                return empty ? nil : try read(from: db, storeURL: url)
            }
        }
    }

    /// The binary property list stored in `Z_PLIST`.
    ///
    /// - Throws: ``NSCoreDataError`` naming the offending key when a
    ///   value is not a property-list value.
    func encodedPlist() throws -> Data {
        guard PropertyListSerialization.propertyList(plist, isValidFor: .binary) else {
            let bad = plist.keys.sorted().first { !PropertyListSerialization.propertyList([$0: plist[$0] as Any], isValidFor: .binary) }
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSCoreDataError,
                userInfo: [
                    NSLocalizedDescriptionKey: "The store metadata value for key \"\(bad ?? "?")\" is not a property-list value."
                ])
        }
        return try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }

    /// Replaces the `Z_METADATA` row of an open store (inside the caller's transaction).
    func write(to db: Database) throws {
        let data = try encodedPlist()
        try db.execute(sql: "DELETE FROM Z_METADATA")
        try db.execute(
            sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
            arguments: [uuid, data])
    }

    /// Replaces the metadata of the existing store file at `url`, in one transaction.
    ///
    /// - Throws: the errors of reading (the file is missing, not a database, or has no `Z_METADATA`
    ///   table), or an `NSError` naming the file when SQLite fails; the file is unchanged then.
    func write(toStoreAt url: URL) throws {
        _ = try Self.read(fromStoreAt: url)
        let queue = try SQLiteStoreFileAccess.openForWriting(url, label: "OpenCoreData.SQLiteStore(metadata)")
        defer { try? queue.close() }
        try SQLiteStoreFileAccess.run(url) {
            try queue.write { db in try write(to: db) }
        }
    }
}
