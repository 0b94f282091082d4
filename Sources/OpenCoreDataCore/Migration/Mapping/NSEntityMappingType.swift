/// The kinds of entity mapping in a mapping model.
public enum NSEntityMappingType: UInt, Sendable {
    /// The mapping's kind is not known; a custom entity migration policy does the work.
    case undefinedEntityMappingType = 0x00
    /// A custom entity migration policy creates and relates the destination instances.
    case customEntityMappingType = 0x01
    /// The destination entity is new: it has no source instances.
    case addEntityMappingType = 0x02
    /// The source entity is gone: its instances are not migrated.
    case removeEntityMappingType = 0x03
    /// The destination entity is the source entity unchanged: instances are copied as they are.
    case copyEntityMappingType = 0x04
    /// The destination entity is the source entity changed: instances are transformed through the
    /// property mappings.
    case transformEntityMappingType = 0x05
}
