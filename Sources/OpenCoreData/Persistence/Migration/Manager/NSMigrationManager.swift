/// Migrates the data of a persistent store to a new store of another model, following a mapping model.
///
/// The manager opens the source store read-only and a new destination store, then runs three passes
/// over the mapping model's entity mappings, each through the mapping's ``NSEntityMigrationPolicy``:
/// it creates the destination instances, then their relationships, then validates and saves them. The
/// source store is never modified.
///
/// Apple's `migrationProgress` is observed with Key-Value Observing, which Linux lacks: OpenCoreData
/// calls ``migrationProgressHandler`` each time the progress changes.
open class NSMigrationManager: NSObject {
    /// The model of the source store.
    public let sourceModel: NSManagedObjectModel
    /// The model of the destination store.
    public let destinationModel: NSManagedObjectModel
    /// Information for your own use during the migration.
    open var userInfo: [AnyHashable: Any]?
    /// Whether a store type's own migration manager may be used; OpenCoreData always migrates with this
    /// manager, so the value only records the choice.
    open var usesStoreSpecificMigrationManager: Bool = true
    /// Called with ``migrationProgress`` each time it changes, on the thread running the migration (an
    /// OpenCoreData addition standing for Key-Value Observing).
    open var migrationProgressHandler: ((Float) -> Void)?

    var _mappingModel = NSMappingModel()
    var _currentEntityMapping: NSEntityMapping?
    var _sourceContext: NSManagedObjectContext
    var _destinationContext: NSManagedObjectContext
    var _associations = MigrationAssociations()
    var _policies: [ObjectIdentifier: NSEntityMigrationPolicy] = [:]
    var _cancellation: (any Error)?
    var _expressionError: (any Error)?
    var _progress: Float = 0

    /// Creates a manager that migrates stores of `sourceModel` to stores of `destinationModel`.
    public init(sourceModel: NSManagedObjectModel, destinationModel: NSManagedObjectModel) {
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        _sourceContext = NSMigrationManager._makeContext()
        _destinationContext = NSMigrationManager._makeContext()
        super.init()
    }

    /// The mapping model of the current (or last) migration.
    open var mappingModel: NSMappingModel { _mappingModel }
    /// The context the manager reads the source store with.
    open var sourceContext: NSManagedObjectContext { _sourceContext }
    /// The context the manager writes the destination store with.
    open var destinationContext: NSManagedObjectContext { _destinationContext }
    /// The entity mapping being migrated; an empty mapping before a migration starts.
    open var currentEntityMapping: NSEntityMapping { _currentEntityMapping ?? NSEntityMapping() }
    /// How much of the migration is done, from 0 to 1.
    open var migrationProgress: Float { _progress }

    /// Records that `sourceInstance` was migrated to `destinationInstance` by `entityMapping`; the
    /// relationship pass and ``destinationInstances(forEntityMappingName:sourceInstances:)`` use it.
    open func associate(sourceInstance: NSManagedObject, withDestinationInstance destinationInstance: NSManagedObject,
                        for entityMapping: NSEntityMapping) {
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
    open func cancelMigrationWithError(_ error: any Error) {
        _cancellation = error
    }

    /// Clears the associations, contexts and progress of the last migration.
    open func reset() {
        _associations = MigrationAssociations()
        _policies = [:]
        _currentEntityMapping = nil
        _cancellation = nil
        _expressionError = nil
        _progress = 0
        _sourceContext = Self._makeContext()
        _destinationContext = Self._makeContext()
    }

    /// A context used on the thread running the migration (confinement, as Apple's migration contexts).
    static func _makeContext() -> NSManagedObjectContext {
        NSManagedObjectContext(concurrencyType: NSManagedObjectContext.ConcurrencyType(rawValue: 0) ?? .privateQueueConcurrencyType)
    }

    /// Keeps the first error a function called from an expression threw.
    func _noteExpressionError(_ error: any Error) {
        if _expressionError == nil { _expressionError = error }
    }

    /// Sets the progress and tells the handler.
    func _setProgress(_ value: Float) {
        let clamped = min(max(value, 0), 1)
        guard clamped != _progress else { return }
        _progress = clamped
        migrationProgressHandler?(clamped)
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
