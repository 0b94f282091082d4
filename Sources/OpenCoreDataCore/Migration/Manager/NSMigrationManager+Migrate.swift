/// Running a migration: opening the stores and the three passes.
extension NSMigrationManager {
    /// Runs a migration: opens the source store read-only and the destination store, carries the
    /// source store's UUID and metadata keys over to a destination store it creates, runs the passes,
    /// and removes a destination file it created when anything fails.
    func _migrateStore(
        from sourceURL: URL, sourceType sStoreType: String, options sOptions: [AnyHashable: Any]?,
        with mappings: NSMappingModel?, to dURL: URL, destinationType dStoreType: String,
        destinationOptions dOptions: [AnyHashable: Any]?
    ) throws {
        guard let mapping = mappings else {
            throw Self._error(
                NSMigrationMissingMappingModelError, "No mapping model was given to migrate the store at \(sourceURL.path).", url: sourceURL)
        }
        reset()
        _beginProgress()
        defer { _endProgress() }
        _mappingModel = mapping
        try _checkMapping(mapping)
        let sourceCoordinator = NSPersistentStoreCoordinator(managedObjectModel: sourceModel)
        var readOptions = sOptions ?? [:]
        readOptions[NSMigratePersistentStoresAutomaticallyOption] = nil
        readOptions[NSInferMappingModelAutomaticallyOption] = nil
        readOptions[NSReadOnlyPersistentStoreOption] = true
        let sourceStore: NSPersistentStore
        do {
            sourceStore = try sourceCoordinator.addPersistentStore(
                ofType: sStoreType, configurationName: _sourceConfiguration,
                at: sourceURL, options: readOptions)
        } catch {
            throw Self._error(
                NSMigrationManagerSourceStoreError,
                "The source store at \(sourceURL.path) cannot be opened with the source model: \(error.localizedDescription)", url: sourceURL,
                underlying: error)
        }
        defer { try? sourceCoordinator.remove(sourceStore) }
        _sourceContext.persistentStoreCoordinator = sourceCoordinator

        let existed = FileManager.default.fileExists(atPath: dURL.path)
        let destinationCoordinator = NSPersistentStoreCoordinator(managedObjectModel: destinationModel)
        let destinationStore: NSPersistentStore
        do {
            destinationStore = try _addDestinationStore(
                to: destinationCoordinator, type: dStoreType, at: dURL, options: dOptions,
                carrying: existed ? nil : sourceStore.metadata ?? [:])
        } catch {
            if !existed { try? destinationCoordinator.destroyPersistentStore(at: dURL, ofType: dStoreType, options: dOptions) }
            throw Self._error(
                NSMigrationManagerDestinationStoreError, "The destination store at \(dURL.path) cannot be created: \(error.localizedDescription)",
                url: dURL, underlying: error)
        }
        _destinationContext.persistentStoreCoordinator = destinationCoordinator
        do {
            try _runPasses(destinationURL: dURL)
        } catch {
            _destinationContext.reset()
            try? destinationCoordinator.remove(destinationStore)
            if !existed { try? destinationCoordinator.destroyPersistentStore(at: dURL, ofType: dStoreType, options: dOptions) }
            throw error
        }
        try? destinationCoordinator.remove(destinationStore)
    }

    /// Adds the destination store. A new store gets the source store's UUID and metadata keys
    /// (`sourceMetadata`): a SQLite file is written with them and opened again, so that the store is
    /// opened with its final identity before any object is created in it.
    private func _addDestinationStore(
        to coordinator: NSPersistentStoreCoordinator, type: String, at url: URL,
        options: [AnyHashable: Any]?, carrying sourceMetadata: [String: Any]?
    ) throws -> NSPersistentStore {
        let store = try coordinator.addPersistentStore(ofType: type, configurationName: _destinationConfiguration, at: url, options: options)
        guard let sourceMetadata else { return store }
        let carried = MigrationMetadata.carried(from: sourceMetadata, into: store.metadata ?? [:])
        guard store is SQLiteStore else {
            store.metadata = carried
            return store
        }
        try coordinator.remove(store)
        try NSPersistentStoreCoordinator.setMetadata(carried, forPersistentStoreOfType: type, at: url, options: options)
        return try coordinator.addPersistentStore(ofType: type, configurationName: _destinationConfiguration, at: url, options: options)
    }

    /// Instance creation, relationship creation, then validation and saving, for every entity mapping.
    func _runPasses(destinationURL: URL) throws {
        let mappings = _mappingModel.entityMappings ?? []
        let share = Float(1) / Float(max(mappings.count, 1))
        for (index, mapping) in mappings.enumerated() {
            _currentEntityMapping = mapping
            let policy = try _policy(for: mapping)
            try _step(mapping, "begin(_:with:)") { try policy.begin(mapping, with: self) }
            let sources = try _sourceInstances(for: mapping, policy: policy)
            for (done, source) in sources.enumerated() {
                try _step(mapping, "createDestinationInstances(forSource:in:manager:)") {
                    try policy.createDestinationInstances(forSource: source, in: mapping, manager: self)
                }
                _setProgress(0.45 * share * (Float(index) + Float(done + 1) / Float(sources.count)))
            }
            try _step(mapping, "endInstanceCreation(forMapping:manager:)") { try policy.endInstanceCreation(forMapping: mapping, manager: self) }
            _setProgress(0.45 * share * Float(index + 1))
        }
        for (index, mapping) in mappings.enumerated() {
            _currentEntityMapping = mapping
            let policy = try _policy(for: mapping)
            let destinations = destinationInstances(forEntityMappingName: mapping.name ?? "", sourceInstances: nil)
            for (done, destination) in destinations.enumerated() {
                try _step(mapping, "createRelationships(forDestination:in:manager:)") {
                    try policy.createRelationships(forDestination: destination, in: mapping, manager: self)
                }
                _setProgress(0.45 + 0.45 * share * (Float(index) + Float(done + 1) / Float(destinations.count)))
            }
            try _step(mapping, "endRelationshipCreation(forMapping:manager:)") {
                try policy.endRelationshipCreation(forMapping: mapping, manager: self)
            }
            _setProgress(0.45 + 0.45 * share * Float(index + 1))
        }
        for (index, mapping) in mappings.enumerated() {
            _currentEntityMapping = mapping
            let policy = try _policy(for: mapping)
            try _step(mapping, "performCustomValidation(forMapping:manager:)") {
                try policy.performCustomValidation(forMapping: mapping, manager: self)
            }
            _setProgress(0.9 + 0.09 * share * Float(index + 1))
        }
        do {
            try _destinationContext.save()
        } catch {
            let code =
                (error as NSError).domain == NSCocoaErrorDomain && (1024..<2048).contains((error as NSError).code)
                ? NSMigrationError : NSMigrationManagerDestinationStoreError
            throw Self._error(
                code, "The migrated objects cannot be saved to the destination store at \(destinationURL.path): \(error.localizedDescription)",
                url: destinationURL, underlying: error)
        }
        for mapping in mappings {
            _currentEntityMapping = mapping
            let policy = try _policy(for: mapping)
            try _step(mapping, "end(_:manager:)") { try policy.end(mapping, manager: self) }
        }
        _setProgress(1)
    }

    /// The policy of an entity mapping, created on first use from its class name.
    func _policy(for mapping: NSEntityMapping) throws -> NSEntityMigrationPolicy {
        if let policy = _policies[ObjectIdentifier(mapping)] { return policy }
        var type: NSEntityMigrationPolicy.Type = NSEntityMigrationPolicy.self
        if let name = mapping.entityMigrationPolicyClassName, !name.isEmpty {
            guard let found = MigrationPolicyRegistry.shared.policyClass(named: name) else {
                throw Self._error(
                    NSEntityMigrationPolicyError,
                    "The entity migration policy class \(name) of the entity mapping \(mapping.name ?? "?") was not found (register it with NSEntityMigrationPolicy.register(_:forClassName:)).",
                    url: nil)
            }
            type = found
        }
        let policy = type.init()
        policy._manager = self
        _policies[ObjectIdentifier(mapping)] = policy
        return policy
    }

    /// Runs one policy step: a cancellation ends the migration with its error; other errors the policy
    /// throws become ``NSEntityMigrationPolicyError`` (134170) unless they are migration errors already.
    func _step(_ mapping: NSEntityMapping, _ method: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            if let cancellation = _cancellation { throw cancellation }
            let nsError = error as NSError
            if nsError.domain == NSCocoaErrorDomain, Self._migrationCodes.contains(nsError.code) { throw error }
            throw Self._error(
                NSEntityMigrationPolicyError,
                "The entity migration policy of the mapping \(mapping.name ?? "?") failed in \(method): \(error.localizedDescription)", url: nil,
                underlying: error)
        }
        if let cancellation = _cancellation { throw cancellation }
    }

    /// The mapping's entity names must exist in the models.
    func _checkMapping(_ mapping: NSMappingModel) throws {
        for entityMapping in mapping.entityMappings ?? [] {
            let name = entityMapping.name ?? "(unnamed)"
            if let source = entityMapping.sourceEntityName, sourceModel.entitiesByName[source] == nil,
                entityMapping.mappingType != .addEntityMappingType
            {
                throw Self._error(
                    NSMigrationError, "The entity mapping \(name) reads the entity \(source), which the source model does not have.", url: nil)
            }
            if let destination = entityMapping.destinationEntityName, destinationModel.entitiesByName[destination] == nil,
                entityMapping.mappingType != .removeEntityMappingType
            {
                throw Self._error(
                    NSMigrationError, "The entity mapping \(name) writes the entity \(destination), which the destination model does not have.",
                    url: nil)
            }
        }
    }

    /// Core Data's migration error codes, which policy steps pass on unchanged.
    static let _migrationCodes: Set<Int> = [
        NSMigrationError, NSMigrationConstraintViolationError, NSMigrationCancelledError,
        NSMigrationMissingSourceModelError, NSMigrationMissingMappingModelError,
        NSMigrationManagerSourceStoreError, NSMigrationManagerDestinationStoreError,
        NSEntityMigrationPolicyError,
    ]

    /// A Core Data migration error.
    static func _error(_ code: Int, _ message: String, url: URL?, underlying: (any Error)? = nil) -> NSError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let url { info[NSURLErrorKey] = url }
        if let underlying { info[NSUnderlyingErrorKey] = underlying }
        return NSError(domain: NSCocoaErrorDomain, code: code, userInfo: info)
    }
}
