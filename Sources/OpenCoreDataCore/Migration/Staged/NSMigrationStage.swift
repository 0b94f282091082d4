/// A step of a staged migration.
// @unchecked Sendable: a stage is configured before the migration starts and only read while it runs.
open class NSMigrationStage: NSObject, @unchecked Sendable {
    /// A label that describes the stage, for logs and errors.
    open var label: String!

    /// Creates a stage.
    public override init() {
        super.init()
    }
}

/// A stage that migrates a store between the listed model versions with lightweight migration.
open class NSLightweightMigrationStage: NSMigrationStage, @unchecked Sendable {
    // @unchecked Sendable: the checksums are set once in the initializer.
    private let _versionChecksums: [String]

    /// Creates a stage for the model versions with these version checksums, oldest first.
    public init(_ versionChecksums: [String]) {
        _versionChecksums = versionChecksums
        super.init()
    }

    /// The version checksums of the model versions the stage covers.
    open var versionChecksums: [String] {
        _versionChecksums
    }
}

/// A stage that migrates a store from one model version to the next, calling your handlers before
/// and after the lightweight migration between them.
open class NSCustomMigrationStage: NSMigrationStage, @unchecked Sendable {
    // @unchecked Sendable: the models are set once; the handlers are set before the migration starts.
    private let _currentModel: NSManagedObjectModelReference
    private let _nextModel: NSManagedObjectModelReference

    /// Called before the stage migrates, with the store open at ``currentModel`` in the manager's
    /// container.
    open var willMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?
    /// Called after the stage migrated, with the store open at ``nextModel`` in the manager's container.
    open var didMigrateHandler: ((NSStagedMigrationManager, NSCustomMigrationStage) throws -> Void)?

    /// Creates a stage migrating from one model version to the next.
    public init(migratingFrom currentModel: NSManagedObjectModelReference, to nextModel: NSManagedObjectModelReference) {
        _currentModel = currentModel
        _nextModel = nextModel
        super.init()
    }

    /// The model version the stage migrates from.
    open var currentModel: NSManagedObjectModelReference {
        _currentModel
    }

    /// The model version the stage migrates to.
    open var nextModel: NSManagedObjectModelReference {
        _nextModel
    }
}
