/// How the instances of one source entity become instances of one destination entity during migration.
open class NSEntityMapping: NSObject, @unchecked Sendable {
    // @unchecked Sendable: an entity mapping is configured before a migration starts and only read
    // while it runs; Apple documents mapping models as not to be changed during a migration.

    /// The mapping's name, unique within its mapping model (Xcode names them `SourceToDestination`).
    open var name: String!
    /// The kind of mapping.
    open var mappingType: NSEntityMappingType = .undefinedEntityMappingType
    /// The name of the source entity; `nil` for an added entity.
    open var sourceEntityName: String?
    /// The version hash of the source entity.
    open var sourceEntityVersionHash: Data?
    /// The name of the destination entity; `nil` for a removed entity.
    open var destinationEntityName: String?
    /// The version hash of the destination entity.
    open var destinationEntityVersionHash: Data?
    /// The mappings of the destination entity's attributes.
    open var attributeMappings: [NSPropertyMapping]?
    /// The mappings of the destination entity's relationships.
    open var relationshipMappings: [NSPropertyMapping]?
    /// The expression that fetches the source instances to migrate; a filter predicate such as
    /// `$source.height < 100` limits them.
    open var sourceExpression: NSExpression?
    /// Information about the mapping for your own use.
    open var userInfo: [AnyHashable: Any]?
    /// The name of the `NSEntityMigrationPolicy` subclass that migrates the instances.
    open var entityMigrationPolicyClassName: String?

    /// Creates an empty entity mapping.
    public override init() {
        super.init()
    }

    /// A description of the mapping: its name, kind and entities.
    open override var description: String {
        "\(name ?? "(unnamed)") (\(mappingType)): \(sourceEntityName ?? "—") → \(destinationEntityName ?? "—")"
    }
}
