import GRDB

/// The option whose value, a `Progress`, reports the migration a store needs when it is added:
/// its `totalUnitCount` becomes 100 per migration step and its `completedUnitCount` grows as the
/// steps run.
///
/// This key is an OpenCoreData addition. On Linux, `Progress` has no key-value observing: read
/// `fractionCompleted` from another thread, or use ``ProgressiveMigration/run(progress:handler:)``
/// with a handler.
public let OCDMigrationProgressOptionKey = "OCDMigrationProgressOptionKey"

/// A migration of a SQLite store through successive versions of its model, V1 → V2 → … → Vn, for
/// stores no single mapping migrates: each step has a mapping model that can be inferred.
///
/// Adding a store with ``NSMigratePersistentStoresAutomaticallyOption`` and
/// ``NSInferMappingModelAutomaticallyOption`` migrates progressively when no direct mapping exists;
/// this type does the same by hand, and shows the plan first. Versions are the `.xcdatamodeld`
/// bundle's, oldest first by folder name with numbers compared by value ("Model", "Model 2", …,
/// "Model 10"). The path taken is the one with the longest steps: from each version, the newest
/// version a mapping reaches is tried first.
///
/// Steps the SQLite store runs itself share one transaction on the store file; a chain in which a
/// migration manager runs a step works on a copy that replaces the store at the end. Either way a
/// failure or a crash at any point leaves the store at its original version with all its rows, or at
/// the destination.
///
/// This type is an OpenCoreData addition.
public struct ProgressiveMigration {
    /// One step of a progressive migration.
    public struct Step {
        /// The step's source model.
        public let sourceModel: NSManagedObjectModel
        /// The step's destination model.
        public let destinationModel: NSManagedObjectModel
        /// The source version's name in its bundle, if known.
        public let sourceName: String?
        /// The destination version's name in its bundle, if known.
        public let destinationName: String?
        /// The mapping model the step runs.
        public let mappingModel: NSMappingModel
        /// Whether the step runs in place with `ALTER TABLE` statements rather than by copying tables.
        public let runsInPlace: Bool
        /// Why the step copies its tables, when it does.
        public let copyReason: String?
        /// Whether the mapping model was inferred (rather than found in a bundle).
        public let isInferred: Bool
        /// Whether the step runs through an ``NSMigrationManager`` into a new file that then replaces
        /// the store (a found mapping model with custom policies, value expressions or filters).
        public var usesMigrationManager: Bool { plan == nil }

        /// The plan of the step for the SQLite store; `nil` for a migration manager's step.
        let plan: SQLiteMigrationPlan?
    }

    /// Finds a mapping model from one version to another (a bundle search), or `nil`.
    typealias MappingLookup = (NSManagedObjectModel, NSManagedObjectModel) -> NSMappingModel?

    /// Where the mapping model of each step comes from: found by `lookup`, else inferred when `infers`;
    /// and the named configuration of the store (`nil`: every entity), which each version that has it
    /// migrates alone.
    struct MappingSources {
        var lookup: MappingLookup?
        var infers = true
        var configuration: String?
    }

    /// The configuration a version's layout follows: `name` when the model has a configuration of that
    /// name, else every entity.
    static func configuration(_ name: String?, in model: NSManagedObjectModel) -> String? {
        name.flatMap { model.configurations.contains($0) ? $0 : nil }
    }

    /// The store file the migration changes.
    public let storeURL: URL
    /// The steps, in the order they run. Empty when the store is already at the destination version.
    public let steps: [Step]

    /// Plans the migration of the SQLite store at `url` to `destinationModel` through `versions`
    /// (oldest first; `names` are their names, for messages). The store's model must be one of
    /// `versions` or `destinationModel`.
    ///
    /// - Throws: ``NSMigrationMissingSourceModelError`` (134130) when the store's model is not among
    ///   the versions; the error of the direct mapping (``NSInferredMappingModelError``, 134190) when
    ///   no path of inferable mappings reaches the destination; the errors of reading the store.
    public init(
        storeAt url: URL, versions: [NSManagedObjectModel], names: [String]? = nil,
        destinationModel: NSManagedObjectModel
    ) throws {
        try self.init(storeAt: url, versions: versions, names: names, destinationModel: destinationModel, sources: MappingSources())
    }

    /// Plans the migration with mapping models from `sources`.
    init(
        storeAt url: URL, versions: [NSManagedObjectModel], names: [String]?, destinationModel: NSManagedObjectModel,
        sources: MappingSources
    ) throws {
        storeURL = url
        let source = try LightweightMigration.sourceModel(forStoreAt: url, among: versions + [destinationModel])
        if source === destinationModel || source.versionChecksum == destinationModel.versionChecksum {
            steps = []
            return
        }
        func name(_ model: NSManagedObjectModel) -> String? {
            guard let names, let index = versions.firstIndex(where: { $0 === model }), index < names.count else { return nil }
            return names[index]
        }
        steps = try Self.steps(from: source, to: destinationModel, through: versions, name: name, sources: sources)
    }

    /// Plans the migration of the SQLite store at `url` to a version of the `.xcdatamodeld` bundle at
    /// `bundle`: the version named `versionName`, or the bundle's current version. Mapping models
    /// (`.xcmappingmodel`) in the folder holding the bundle or in the main bundle are used for the
    /// steps they fit, inferred mappings for the others. The versions' models are loaded for the
    /// migration and are immutable, as a coordinator's model is.
    ///
    /// - Throws: ``NSFileReadNoSuchFileError`` naming the bundle when it holds no such version; the
    ///   errors of ``init(storeAt:versions:names:destinationModel:)`` and of loading the models.
    public init(storeAt url: URL, modelBundle bundle: URL, to versionName: String? = nil) throws {
        let versions = try NSManagedObjectModel.versions(inBundleAt: bundle)
        let target: NSManagedObjectModel.BundleVersion
        if let versionName {
            guard let match = versions.first(where: { $0.name == versionName || $0.url.lastPathComponent == versionName }) else {
                throw NSError(
                    domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError,
                    userInfo: [
                        NSLocalizedDescriptionKey:
                            "\(bundle.path): no version named \"\(versionName)\"; the bundle holds \(versions.map { "\"\($0.name)\"" }.joined(separator: ", "))"
                    ])
            }
            target = match
        } else {
            guard let current = versions.first(where: \.isCurrent) ?? versions.last else {
                throw NSError(
                    domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError,
                    userInfo: [
                        NSLocalizedDescriptionKey: "\(bundle.path) holds no model version"
                    ])
            }
            target = current
        }
        guard let targetIndex = versions.firstIndex(of: target) else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSFileReadNoSuchFileError,
                userInfo: [
                    NSLocalizedDescriptionKey: "\(bundle.path): the version \"\(target.name)\" was not found"
                ])
        }
        var models: [NSManagedObjectModel] = []
        for version in versions[...targetIndex] { models.append(try MigrationSourceModels.loadVersion(version)) }
        let destination = models.removeLast()
        let found = ProgressiveMappingFiles()
        try self.init(
            storeAt: url, versions: models, names: versions[..<targetIndex].map(\.name), destinationModel: destination,
            sources: MappingSources(lookup: { found.mapping(from: $0, to: $1) }))
        if let last = steps.last, last.destinationName == nil {
            var named = steps
            named[named.count - 1] = Step(
                sourceModel: last.sourceModel, destinationModel: last.destinationModel,
                sourceName: last.sourceName, destinationName: target.name,
                mappingModel: last.mappingModel, runsInPlace: last.runsInPlace,
                copyReason: last.copyReason, isInferred: last.isInferred, plan: last.plan)
            self = ProgressiveMigration(storeURL: url, steps: named)
        }
    }

    /// A migration of the store at `storeURL` through planned steps.
    init(storeURL: URL, steps: [Step]) {
        self.storeURL = storeURL
        self.steps = steps
    }

    /// Runs every step in order, leaving the store at the destination version or, on failure, as it
    /// was. `progress` (its
    /// `totalUnitCount` is set to 100 per step) and `handler` (called with the fraction done, 0…1,
    /// and a description of the step) report how far it got.
    ///
    /// - Throws: the errors of a lightweight migration (``NSMigrationError`` 134110,
    ///   ``NSMigrationConstraintViolationError`` 134111, ``NSMigrationManagerSourceStoreError``
    ///   134150). The store is unchanged whenever an error is thrown.
    public func run(progress: Progress? = nil, handler: ((Double, String) -> Void)? = nil) throws {
        try run(progress: progress, handler: handler, defersCleanup: false, sqlDebugLog: nil, configuration: nil)
    }

    /// Runs the steps; the last one may defer its cleanup. When every step runs in the SQLite store
    /// itself, they share one transaction on the store file. When a migration manager runs one of several
    /// steps, the whole chain runs on a working copy whose content replaces the store's in one transaction at
    /// the end (``SQLiteStoreRewrite``), so a failure or a crash never leaves the store at an intermediate
    /// version.
    func run(
        progress: Progress?, handler: ((Double, String) -> Void)?, defersCleanup: Bool,
        sqlDebugLog: SQLDebugLog?, configuration: String?
    ) throws {
        guard !steps.isEmpty else { return }
        guard steps.count > 1, steps.contains(where: { $0.plan == nil }) else {
            try run(
                on: storeURL, progress: progress, handler: handler, defersCleanup: defersCleanup,
                sqlDebugLog: sqlDebugLog, configuration: configuration)
            return
        }
        var working: URL?
        defer { if let working { SQLiteStore.removeFiles(of: working) } }
        try SQLiteStoreRewrite(url: storeURL).run {
            // Another process may have migrated the store while this one waited for the write lock.
            if let last = steps.last,
                try SQLiteStoreRewrite.isAtModel(
                    last.destinationModel,
                    configuration: Self.configuration(configuration, in: last.destinationModel),
                    storeAt: storeURL)
            {
                return nil
            }
            let copy = try SQLiteStore.makeWorkingCopy(of: storeURL)
            working = copy
            try run(
                on: copy, progress: progress, handler: handler, defersCleanup: defersCleanup,
                sqlDebugLog: sqlDebugLog, configuration: configuration)
            try SQLiteStore.shareExternalData(of: copy, with: storeURL)
            return copy
        }
        if let last = steps.last {
            SQLiteExternalDataCleanup.removeUnreferencedFiles(
                ofStoreAt: storeURL, model: last.destinationModel,
                configuration: Self.configuration(configuration, in: last.destinationModel))
        }
    }

    /// Runs the steps on the SQLite file at `storeURL`: consecutive steps the store runs itself share one
    /// transaction; a migration manager's step commits on its own (``SQLiteStoreRewrite``).
    private func run(
        on storeURL: URL, progress: Progress?, handler: ((Double, String) -> Void)?, defersCleanup: Bool,
        sqlDebugLog: SQLDebugLog?, configuration: String?
    ) throws {
        progress?.totalUnitCount = Int64(steps.count * 100)
        let count = steps.count
        func reporter(_ position: Int) -> (Double, String) -> Void {
            let step = steps[position]
            let label = "\(step.sourceName ?? "source") → \(step.destinationName ?? "destination")"
            return { fraction, what in
                let overall = (Double(position) + fraction) / Double(count)
                progress?.completedUnitCount = Int64((overall * Double(count * 100)).rounded())
                handler?(overall, "step \(position + 1)/\(count) \(label): \(what)")
            }
        }
        var batch: [SQLiteLightweightMigration] = []
        for (position, step) in steps.enumerated() {
            guard let plan = step.plan else {
                if !batch.isEmpty { try SQLiteLightweightMigration.run(batch) }
                batch = []
                let report = reporter(position)
                try SQLiteStore.migrateWithManager(
                    at: storeURL, from: step.sourceModel, to: step.destinationModel,
                    mapping: step.mappingModel, configuration: configuration, report: report)
                continue
            }
            var migration = SQLiteLightweightMigration(
                url: storeURL, plan: plan,
                destinationConfiguration: Self.configuration(configuration, in: step.destinationModel))
            migration.sqlDebugLog = sqlDebugLog
            migration.defersCleanup = defersCleanup && position == count - 1
            migration.progress = reporter(position)
            batch.append(migration)
        }
        if !batch.isEmpty { try SQLiteLightweightMigration.run(batch) }
    }

    /// The steps from `source` to `destination`: the direct one when its mapping can be inferred,
    /// else the path through `versions` with the longest steps.
    static func steps(
        from source: NSManagedObjectModel, to destination: NSManagedObjectModel,
        through versions: [NSManagedObjectModel], name: @escaping (NSManagedObjectModel) -> String?,
        sources: MappingSources
    ) throws -> [Step] {
        let direct: Result<Step, Error>
        do {
            direct = .success(try step(from: source, to: destination, name: name, sources: sources))
        } catch {
            direct = .failure(error)
        }
        if case let .success(step) = direct { return [step] }
        let start = versions.firstIndex { $0 === source || $0.versionChecksum == source.versionChecksum }
        let end = versions.firstIndex { $0.versionChecksum == destination.versionChecksum } ?? versions.count
        var nodes = [source]
        if let start, start + 1 < end { nodes += versions[(start + 1)..<end] }
        nodes.append(destination)
        var search = PathSearch(nodes: nodes, name: name, sources: sources)
        guard let path = search.path(from: 0), path.count > 1 else {
            if case let .failure(error) = direct { throw error }
            return []
        }
        return path
    }

    /// One step: with the mapping model `lookup` finds, else with the inferred one.
    static func step(
        from source: NSManagedObjectModel, to destination: NSManagedObjectModel,
        name: (NSManagedObjectModel) -> String?, sources: MappingSources
    ) throws -> Step {
        let found = sources.lookup?(source, destination)
        guard found != nil || sources.infers else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSMigrationMissingMappingModelError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "No mapping model leads from \(name(source) ?? "the store's model") to \(name(destination) ?? "the destination model") and inference is off."
                ])
        }
        let mapping = try found ?? NSMappingModel.inferredMappingModel(forSourceModel: source, destinationModel: destination)
        let plan: SQLiteMigrationPlan
        do {
            plan = try SQLiteMigrationPlan(
                source: source, sourceConfiguration: configuration(sources.configuration, in: source),
                destination: destination,
                destinationConfiguration: configuration(sources.configuration, in: destination),
                mapping: mapping)
        } catch let error as NSError where found != nil && error.code == NSMigrationMissingMappingModelError {
            return Step(
                sourceModel: source, destinationModel: destination, sourceName: name(source),
                destinationName: name(destination), mappingModel: mapping, runsInPlace: false,
                copyReason: "the mapping model runs through NSMigrationManager (\(error.localizedDescription))",
                isInferred: false, plan: nil)
        }
        let migration = SQLiteLightweightMigration(
            url: URL(fileURLWithPath: "/"), plan: plan,
            destinationConfiguration: configuration(sources.configuration, in: destination))
        var reason: String?
        if case let .failure(refusal) = migration.inPlacePlan(sqliteVersion: linkedSQLiteVersion) { reason = refusal.description }
        return Step(
            sourceModel: source, destinationModel: destination, sourceName: name(source),
            destinationName: name(destination), mappingModel: mapping, runsInPlace: reason == nil,
            copyReason: reason, isInferred: found == nil, plan: plan)
    }

    /// A function giving the name of the first of `versions` with a model's version checksum (each
    /// version's checksum computed once).
    static func versionNames(_ versions: [(name: String?, model: NSManagedObjectModel)]) -> (NSManagedObjectModel) -> String? {
        let checksums = versions.map { (name: $0.name, checksum: $0.model.versionChecksum) }
        return { candidate in
            let checksum = candidate.versionChecksum
            return checksums.first { $0.checksum == checksum }?.name
        }
    }

    /// The version of the SQLite library linked into the process (`3.45.1` → 3045001).
    static let linkedSQLiteVersion: Int = {
        (try? DatabaseQueue().read { try SQLiteLightweightMigration.sqliteVersion($0) }) ?? 0
    }()

    /// A depth-first search for a path of steps from the first node to the last, trying the farthest
    /// node first from each node and remembering dead ends.
    private struct PathSearch {
        let nodes: [NSManagedObjectModel]
        let name: (NSManagedObjectModel) -> String?
        let sources: MappingSources
        var deadEnds: Set<Int> = []

        init(nodes: [NSManagedObjectModel], name: @escaping (NSManagedObjectModel) -> String?, sources: MappingSources) {
            self.nodes = nodes
            self.name = name
            self.sources = sources
        }

        mutating func path(from index: Int) -> [Step]? {
            let last = nodes.count - 1
            if index == last { return [] }
            guard !deadEnds.contains(index) else { return nil }
            var next = last
            while next > index {
                if let step = try? ProgressiveMigration.step(from: nodes[index], to: nodes[next], name: name, sources: sources),
                    let rest = path(from: next)
                {
                    return [step] + rest
                }
                next -= 1
            }
            deadEnds.insert(index)
            return nil
        }
    }
}
