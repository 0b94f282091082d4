/// Migrates a store through a sequence of stages: lightweight stages between listed model versions and
/// custom stages whose handlers prepare the data before and after a step.
///
/// Set a manager on a store description under ``NSPersistentStoreStagedMigrationManagerOptionKey``;
/// when the store is added, the manager finds the store's version among its stages (by version
/// checksum) and runs every later step up to the coordinator's model. Each step is one in-place
/// lightweight migration of the file, in one transaction.
// @unchecked Sendable: the stages are fixed at creation; `_container` is guarded by `_lock`.
open class NSStagedMigrationManager: NSObject, StagedMigrationRunning, @unchecked Sendable {
    private let _stages: [NSMigrationStage]
    private let _lock = NSLock()
    private var _container: NSPersistentContainer?

    /// Creates a manager with stages, in migration order.
    public init(_ stages: [NSMigrationStage]) {
        _stages = stages
        super.init()
    }

    /// The stages, in migration order.
    open var stages: [NSMigrationStage] {
        _stages
    }

    /// While a custom stage's handler runs, a container with the store loaded at the stage's current
    /// (in `willMigrateHandler`) or next (in `didMigrateHandler`) model.
    open var container: NSPersistentContainer? {
        _lock.withLock { _container }
    }

    /// One step of the chain: the model it starts from, and the custom stage that runs it, if any.
    private struct Step {
        let checksum: String
        let model: NSManagedObjectModel?
        let custom: NSCustomMigrationStage?
    }

    func _migrateStore(
        at url: URL, metadata: [String: Any], to model: NSManagedObjectModel,
        coordinator: NSPersistentStoreCoordinator?
    ) throws {
        var known: [String: NSManagedObjectModel] = [model.versionChecksum: model]
        let registered = coordinator?.migrationSourceModels ?? []
        for candidate in MigrationSourceModels.candidates(for: model, registered: registered) {
            known[candidate.versionChecksum] = known[candidate.versionChecksum] ?? candidate
        }
        var chain: [Step] = []
        func append(_ checksum: String, _ model: NSManagedObjectModel?, custom: NSCustomMigrationStage? = nil) {
            if let last = chain.last, last.checksum == checksum {
                if custom != nil || model != nil {
                    chain[chain.count - 1] = Step(checksum: checksum, model: model ?? last.model, custom: custom ?? last.custom)
                }
                return
            }
            chain.append(Step(checksum: checksum, model: model, custom: custom))
        }
        for stage in _stages {
            if let stage = stage as? NSLightweightMigrationStage {
                for checksum in stage.versionChecksums { append(checksum, known[checksum]) }
            } else if let stage = stage as? NSCustomMigrationStage {
                let current = try stage.currentModel._checkedModel()
                let next = try stage.nextModel._checkedModel()
                append(stage.currentModel.versionChecksum, current, custom: stage)
                append(stage.nextModel.versionChecksum, next)
            }
        }
        append(model.versionChecksum, model)
        let storeChecksum =
            (metadata[NSStoreModelVersionChecksumKey] as? String)
            ?? NSManagedObjectModel._versionHashes(inMetadata: metadata).map { VersionHashing.versionChecksum(of: $0) }
        guard let storeChecksum, let start = chain.firstIndex(where: { $0.checksum == storeChecksum }) else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSMigrationMissingSourceModelError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "The staged migration of the store at \(url.path) has no stage for the store's model (version checksum \(metadata[NSStoreModelVersionChecksumKey] as? String ?? "unknown")).",
                    NSURLErrorKey: url,
                ])
        }
        // The stages end at the coordinator's model: at its first place from the store's on. A store whose
        // model comes after the coordinator's in the stages would have to migrate backward.
        let end = chain[start...].firstIndex { $0.checksum == model.versionChecksum } ?? (chain.count - 1)
        if let first = chain.firstIndex(where: { $0.checksum == model.versionChecksum }), first < start,
            end == chain.count - 1
        {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSStagedMigrationBackwardMigrationError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "The staged migration of the store at \(url.path) would migrate backward: the store's model (version checksum \(storeChecksum)) comes after the coordinator's model in the stages.",
                    NSURLErrorKey: url,
                ])
        }
        for index in start..<end {
            let step = chain[index]
            let next = chain[index + 1]
            guard let source = step.model, let destination = next.model else {
                let missing = step.model == nil ? step.checksum : next.checksum
                throw NSError(
                    domain: NSCocoaErrorDomain, code: NSMigrationMissingSourceModelError,
                    userInfo: [
                        NSLocalizedDescriptionKey:
                            "The staged migration of the store at \(url.path) cannot find the model with version checksum \(missing) (searched the stages' model references, \(MigrationSourceModels.searchedPlaces(for: model, registered: registered))).",
                        NSURLErrorKey: url,
                    ])
            }
            if let custom = step.custom, let handler = custom.willMigrateHandler {
                try withContainer(url: url, model: source) { try handler(self, custom) }
            }
            do {
                try SQLiteStore.migrateInPlace(at: url, from: source, to: destination)
            } catch let error as NSError {
                var info = error.userInfo
                if let label = step.custom?.label {
                    info[NSLocalizedDescriptionKey] = "Stage \"\(label)\": " + error.localizedDescription
                }
                throw NSError(domain: error.domain, code: error.code, userInfo: info)
            }
            if let custom = step.custom, let handler = custom.didMigrateHandler {
                try withContainer(url: url, model: destination) { try handler(self, custom) }
            }
        }
    }

    /// Runs `body` with ``container`` holding the store loaded at `model` (no migration), then removes
    /// the store from that container.
    private func withContainer(url: URL, model: NSManagedObjectModel, _ body: () throws -> Void) throws {
        let container = NSPersistentContainer(name: url.deletingPathExtension().lastPathComponent, managedObjectModel: model)
        let description = NSPersistentStoreDescription(url: url)
        description.shouldMigrateStoreAutomatically = false
        description.shouldInferMappingModelAutomatically = false
        container.persistentStoreDescriptions = [description]
        var failure: Error?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        _lock.withLock { _container = container }
        defer {
            _lock.withLock { _container = nil }
            for store in container.persistentStoreCoordinator.persistentStores {
                try? container.persistentStoreCoordinator.remove(store)
            }
        }
        try body()
    }
}
