extension NSManagedObjectModel {
    /// The version hashes of the model's entities, keyed by entity name.
    public var entityVersionHashesByName: [String: Data] {
        var result: [String: Data] = [:]
        for entity in _entities {
            if let name = entity._name { result[name] = entity.versionHash }
        }
        return result
    }

    /// A base64-encoded SHA-256 checksum of the entity version hashes in entity-name order; it equals
    /// the `NSStoreModelVersionChecksumKey` of a store the model wrote.
    public var versionChecksum: String {
        VersionHashing.versionChecksum(of: entityVersionHashesByName)
    }

    /// The value of the `NSStoreModelVersionHashesDigest` metadata key for stores this model writes:
    /// base64 of the SHA-512 of each entity's name followed by its hash, in entity-name order.
    var _versionHashesDigest: String {
        VersionHashing.versionHashesDigest(of: entityVersionHashesByName)
    }

    /// The entity version hashes of the named configuration (every entity for `nil`), keyed by name.
    func _entityVersionHashes(forConfigurationName configuration: String?) -> [String: Data] {
        var result: [String: Data] = [:]
        for entity in entities(forConfigurationName: configuration) ?? [] {
            if let name = entity._name { result[name] = entity.versionHash }
        }
        return result
    }

    /// Returns a Boolean value that indicates whether the entities of the named configuration (every
    /// entity for `nil`) have the version hashes recorded in a store's metadata under
    /// ``NSStoreModelVersionHashesKey``.
    ///
    /// The configuration is compatible when each of its entities has a recorded hash equal to its own
    /// and, for the default configuration, the store records no entity the model lacks.
    public func isConfiguration(
        withName configuration: String?,
        compatibleWithStoreMetadata metadata: [String: Any]
    ) -> Bool {
        guard let stored = Self._versionHashes(inMetadata: metadata),
            let members = entities(forConfigurationName: configuration)
        else { return false }
        let own = _entityVersionHashes(forConfigurationName: configuration)
        guard own.count == members.count else { return false }
        for (name, hash) in own where stored[name] != hash {
            return false
        }
        if configuration == nil || configuration == Self.defaultConfigurationName {
            return Set(stored.keys) == Set(own.keys)
        }
        return true
    }

    /// The `NSStoreModelVersionHashes` dictionary of a metadata dictionary, whether its values are
    /// `Data` or `NSData`.
    static func _versionHashes(inMetadata metadata: [String: Any]) -> [String: Data]? {
        guard let raw = metadata[NSStoreModelVersionHashesKey] else { return nil }
        if let hashes = raw as? [String: Data] { return hashes }
        var result: [String: Data] = [:]
        if let dictionary = raw as? [String: Any] {
            for (name, value) in dictionary {
                if let data = value as? Data {
                    result[name] = data
                } else if let data = value as? NSData {
                    result[name] = Data(referencing: data)
                } else {
                    return nil
                }
            }
            return result
        }
        if let dictionary = raw as? NSDictionary {
            for (key, value) in dictionary {
                guard let name = key as? String ?? (key as? NSString).map({ String(describing: $0) }) else { return nil }
                if let data = value as? Data {
                    result[name] = data
                } else if let data = value as? NSData {
                    result[name] = Data(referencing: data)
                } else {
                    return nil
                }
            }
            return result
        }
        return nil
    }
}
