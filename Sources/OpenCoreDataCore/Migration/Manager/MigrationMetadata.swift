/// The metadata a migrated store keeps: the source store's identity and the keys its user set, with
/// the destination model's version keys.
enum MigrationMetadata {
    /// Keys that describe the file and the model it was written with; a migrated store takes them from
    /// the destination store, never from the source store.
    static let destinationKeys: Set<String> = [
        NSStoreTypeKey, NSStoreModelVersionHashesKey, NSStoreModelVersionIdentifiersKey, NSStoreModelVersionChecksumKey,
        _NSStoreModelVersionHashesDigestKey, _NSStoreModelVersionHashesVersionKey, _NSPersistenceFrameworkVersionKey,
        SQLiteStoreMetadataKeys.maximumFrameworkVersion, SQLiteStoreMetadataKeys.autoVacuumLevel,
        // A newly written store has no deferred work left, whatever the source store had pending.
        NSPersistentStoreDeferredLightweightMigrationOptionKey,
    ]

    /// The metadata of a store migrated from a store with `source` metadata into a new store whose
    /// metadata is `destination`: the source store's UUID (``NSStoreUUIDKey``) and every key its user
    /// set, and the destination store's type and model version keys.
    static func carried(from source: [String: Any], into destination: [String: Any]) -> [String: Any] {
        var result = destination
        for (key, value) in source where !destinationKeys.contains(key) {
            result[key] = value
        }
        return result
    }
}
