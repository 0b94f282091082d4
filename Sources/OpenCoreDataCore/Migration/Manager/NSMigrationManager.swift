/// Migrates the data of a persistent store to a new store of another model, following a mapping model.
///
/// The manager opens the source store read-only and a new destination store, then runs three passes
/// over the mapping model's entity mappings, each through the mapping's ``NSEntityMigrationPolicy``:
/// it creates the destination instances, then their relationships, then validates and saves them. The
/// source store is never modified.
///
/// Apple's `migrationProgress` is observed with Key-Value Observing, which Linux lacks: OpenCoreData
/// calls ``migrationProgressHandler`` each time the progress changes.
///
/// A migration keeps the source store's identity: the destination store gets the source store's
/// UUID (``NSStoreUUIDKey``) and every metadata key you set, while the model version keys become the
/// destination model's.
///
/// You can subclass the manager and override its methods, as in Apple's Core Data.
open class NSMigrationManager: NSObject {
    private let _sourceModel: NSManagedObjectModel
    private let _destinationModel: NSManagedObjectModel
    /// Information for your own use during the migration.
    open var userInfo: [AnyHashable: Any]?
    /// Whether a store type's own migration manager may be used; OpenCoreData always migrates with this
    /// manager, so the value only records the choice.
    open var usesStoreSpecificMigrationManager: Bool = true
    /// Called with ``migrationProgress`` each time it changes during a migration, on the thread running
    /// the migration (an OpenCoreData addition standing for Key-Value Observing): `0` when the migration
    /// starts, rising values, and `1` when it succeeds.
    open var migrationProgressHandler: ((Float) -> Void)?

    var _mappingModel = NSMappingModel()
    var _currentEntityMapping: NSEntityMapping?
    var _sourceContext: NSManagedObjectContext
    var _destinationContext: NSManagedObjectContext
    var _associations = MigrationAssociations()
    var _policies: [ObjectIdentifier: NSEntityMigrationPolicy] = [:]
    var _expressionError: (any Error)?
    /// Guards ``_cancellationState``, ``_progressState`` and ``_migratingState``, which other threads
    /// read and write (``cancelMigrationWithError(_:)`` from a progress observer, ``migrationProgress``).
    let _lock = NSLock()
    private var _cancellationState: (any Error)?
    private var _progressState: Float = 0
    private var _migratingState = false
    /// The configuration the migration reads from the source store and writes to the destination
    /// store (`nil`: every entity); set by store open for stores added with a named configuration.
    var _sourceConfiguration: String?
    var _destinationConfiguration: String?

    /// Creates a manager that migrates stores of `sourceModel` to stores of `destinationModel`.
    public init(sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) {
        _sourceModel = sourceModel
        _destinationModel = destinationModel
        _sourceContext = NSMigrationManager._makeContext()
        _destinationContext = NSMigrationManager._makeContext()
        super.init()
    }

    /// The model of the source store.
    open var sourceModel: NSManagedObjectModel { _sourceModel }
    /// The model of the destination store.
    open var destinationModel: NSManagedObjectModel { _destinationModel }

    /// Migrates the store at `sourceURL` to a store at `destinationURL`, following `mapping`.
    ///
    /// The source store is opened read-only and never modified. The destination store is created (or
    /// opened) at `destinationURL`; when the migration fails, a destination file the migration created
    /// is removed. A destination store the migration creates gets the source store's UUID and
    /// metadata keys, with the destination model's version hashes.
    ///
    /// This method calls ``migrateStore(from:sourceType:options:with:toDestinationURL:destinationType:destinationOptions:)``;
    /// a subclass that overrides that method changes both.
    ///
    /// - Throws: ``NSMigrationManagerSourceStoreError`` (134150) when the source store cannot be opened
    ///   with the source model; ``NSMigrationManagerDestinationStoreError`` (134160) when the
    ///   destination store cannot be opened or saved; ``NSEntityMigrationPolicyError`` (134170) when a
    ///   policy method throws (the policy's error under `NSUnderlyingErrorKey`); ``NSMigrationError``
    ///   (134110) when the mapping does not fit the models, a value does not fit its property, or the
    ///   migrated objects do not validate; the error given to ``cancelMigrationWithError(_:)``.
    open func migrateStore(
        from sourceURL: URL, type sourceType: NSPersistentStore.StoreType,
        options sourceOptions: [AnyHashable: Any]? = nil, mapping: NSMappingModel,
        to destinationURL: URL, type destinationType: NSPersistentStore.StoreType,
        options destinationOptions: [AnyHashable: Any]? = nil
    ) throws {
        try migrateStore(
            from: sourceURL, sourceType: sourceType.rawValue, options: sourceOptions, with: mapping,
            toDestinationURL: destinationURL, destinationType: destinationType.rawValue,
            destinationOptions: destinationOptions)
    }

    /// Migrates the store at `sourceURL` to a store at `dURL`, performing the mappings of `mappings`.
    ///
    /// - Throws: ``NSMigrationMissingMappingModelError`` (134140) when `mappings` is `nil`; otherwise the
    ///   errors of ``migrateStore(from:type:options:mapping:to:type:options:)``.
    open func migrateStore(
        from sourceURL: URL, sourceType sStoreType: String, options sOptions: [AnyHashable: Any]? = nil,
        with mappings: NSMappingModel?, toDestinationURL dURL: URL, destinationType dStoreType: String,
        destinationOptions dOptions: [AnyHashable: Any]? = nil
    ) throws {
        try _migrateStore(
            from: sourceURL, sourceType: sStoreType, options: sOptions, with: mappings,
            to: dURL, destinationType: dStoreType, destinationOptions: dOptions)
    }

    /// The mapping model of the current (or last) migration.
    open var mappingModel: NSMappingModel { _mappingModel }
    /// The context the manager reads the source store with.
    open var sourceContext: NSManagedObjectContext { _sourceContext }
    /// The context the manager writes the destination store with.
    open var destinationContext: NSManagedObjectContext { _destinationContext }
    /// The entity mapping being migrated; an empty mapping before a migration starts.
    open var currentEntityMapping: NSEntityMapping { _currentEntityMapping ?? NSEntityMapping() }
    /// A number from 0 to 1 that tells how much of the migration is done; `1` when no migration is
    /// taking place (before the first, and after one ends, successfully or not). During a migration it
    /// starts at 0 and only rises. Any thread may read it.
    open var migrationProgress: Float { _lock.withLock { _migratingState ? _progressState : 1 } }

    /// Records that `sourceInstance` was migrated to `destinationInstance` by `entityMapping`; the
    /// relationship pass and ``destinationInstances(forEntityMappingName:sourceInstances:)`` use it.
    open func associate(
        sourceInstance: NSManagedObject, withDestinationInstance destinationInstance: NSManagedObject,
        for entityMapping: NSEntityMapping
    ) {
        _associations.associate(sourceInstance, destinationInstance, mapping: entityMapping.name ?? "")
    }

    /// The destination instances the named entity mapping created for `sourceInstances` (every
    /// instance it created when `nil`).
    open func destinationInstances(forEntityMappingName mappingName: String, sourceInstances: [NSManagedObject]?) -> [NSManagedObject] {
        _associations.destinations(mapping: mappingName, sources: sourceInstances)
    }

    /// The source instances the named entity mapping migrated to `destinationInstances` (every
    /// instance it migrated when `nil`).
    open func sourceInstances(forEntityMappingName mappingName: String, destinationInstances: [NSManagedObject]?) -> [NSManagedObject] {
        _associations.sources(mapping: mappingName, destinations: destinationInstances)
    }

    /// The source model's entity an entity mapping reads, or `nil`.
    open func sourceEntity(for mEntity: NSEntityMapping) -> NSEntityDescription? {
        mEntity.sourceEntityName.flatMap { sourceModel.entitiesByName[$0] }
    }

    /// The destination model's entity an entity mapping writes, or `nil`.
    open func destinationEntity(for mEntity: NSEntityMapping) -> NSEntityDescription? {
        mEntity.destinationEntityName.flatMap { destinationModel.entitiesByName[$0] }
    }

    /// Stops the migration in progress: it fails with `error` as soon as the current step returns, and
    /// the destination store is removed.
    ///
    /// You can call this method from any thread, for example from an observer of the migration's
    /// progress. The first cancellation's error is the one the migration throws.
    open func cancelMigrationWithError(_ error: any Error) {
        _lock.withLock { if _cancellationState == nil { _cancellationState = error } }
    }

    /// The error of a cancellation, if the migration was cancelled.
    var _cancellation: (any Error)? { _lock.withLock { _cancellationState } }

    /// Clears the associations, contexts and progress of the last migration.
    open func reset() {
        _associations = MigrationAssociations()
        _policies = [:]
        _currentEntityMapping = nil
        _expressionError = nil
        _lock.withLock {
            _cancellationState = nil
            _progressState = 0
        }
        _sourceContext = Self._makeContext()
        _destinationContext = Self._makeContext()
    }

    /// A context used on the thread running the migration (confinement, as Apple's migration contexts).
    static func _makeContext() -> NSManagedObjectContext {
        NSManagedObjectContext(concurrencyType: NSManagedObjectContextConcurrencyType(rawValue: 0) ?? .privateQueueConcurrencyType)
    }

    /// Keeps the first error a function called from an expression threw.
    func _noteExpressionError(_ error: any Error) {
        if _expressionError == nil { _expressionError = error }
    }

    /// Marks a migration as taking place, its progress 0, and tells the handler.
    func _beginProgress() {
        _lock.withLock {
            _migratingState = true
            _progressState = 0
        }
        migrationProgressHandler?(0)
    }

    /// Marks the migration as over: ``migrationProgress`` reads 1 again.
    func _endProgress() {
        _lock.withLock { _migratingState = false }
    }

    /// Sets the progress of the migration taking place (never lower than it was) and tells the handler.
    func _setProgress(_ value: Float) {
        let clamped = min(max(value, 0), 1)
        let changed = _lock.withLock {
            guard _migratingState, clamped > _progressState else { return false }
            _progressState = clamped
            return true
        }
        if changed { migrationProgressHandler?(clamped) }
    }
}

extension NSMigrationManager: KeyValueCoding {
    /// The manager's properties by name, for key paths such as `$manager.sourceContext`.
    public func value(forKey key: String) -> Any? {
        switch key {
        case "sourceContext": return sourceContext
        case "destinationContext": return destinationContext
        case "sourceModel": return sourceModel
        case "destinationModel": return destinationModel
        case "mappingModel": return mappingModel
        case "currentEntityMapping": return currentEntityMapping
        case "migrationProgress": return migrationProgress
        case "userInfo": return userInfo
        default: return nil
        }
    }
}
