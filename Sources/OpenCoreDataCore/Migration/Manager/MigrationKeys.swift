/// The variables a value expression of a property mapping, or a source expression of an entity
/// mapping, can read during a migration (`$manager`, `$source`, …).

/// The key of the migration manager (`$manager` in an expression).
public let NSMigrationManagerKey = "manager"
/// The key of the source object (`$source` in an expression).
public let NSMigrationSourceObjectKey = "source"
/// The key of the destination object (`$destination` in an expression).
public let NSMigrationDestinationObjectKey = "destination"
/// The key of the entity mapping (`$entityMapping` in an expression).
public let NSMigrationEntityMappingKey = "entityMapping"
/// The key of the property mapping (`$propertyMapping` in an expression).
public let NSMigrationPropertyMappingKey = "propertyMapping"
/// The key of the entity migration policy (`$entityPolicy` in an expression).
public let NSMigrationEntityPolicyKey = "entityPolicy"
