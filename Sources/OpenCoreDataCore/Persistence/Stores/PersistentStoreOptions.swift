// Keys of the options dictionary passed when adding a persistent store, with Apple's names and values.

/// The option whose value, a Boolean, opens the store read-only.
public let NSReadOnlyPersistentStoreOption = "NSReadOnlyPersistentStoreOption"
/// The option whose value, a number of seconds, is how long to wait for a locked store file.
public let NSPersistentStoreTimeoutOption = "NSPersistentStoreTimeoutOption"
/// The option whose value, a dictionary from pragma name to value, sets SQLite pragmas when the store
/// opens (for example `["journal_mode": "WAL"]`).
public let NSSQLitePragmasOption = "NSSQLitePragmasOption"
/// The option whose value, a Boolean, runs SQLite's `ANALYZE` when the store is opened.
public let NSSQLiteAnalyzeOption = "NSSQLiteAnalyzeOption"
/// The option whose value, a Boolean, vacuums the store file when the store is opened.
public let NSSQLiteManualVacuumOption = "NSSQLiteManualVacuumOption"
/// The option whose value, a Boolean, asks for the store to be migrated when its model changed.
public let NSMigratePersistentStoresAutomaticallyOption = "NSMigratePersistentStoresAutomaticallyOption"
/// The option whose value, a Boolean, opens the store without comparing its entity version hashes with
/// the model's: the store opens although they differ, and no migration is attempted.
public let NSIgnorePersistentStoreVersioningOption = "NSIgnorePersistentStoreVersioningOption"
/// The option whose value, a Boolean, asks for a mapping model to be inferred during migration.
public let NSInferMappingModelAutomaticallyOption = "NSInferMappingModelAutomaticallyOption"
/// The option whose value, a Boolean, turns on persistent history tracking.
public let NSPersistentHistoryTrackingKey = "NSPersistentHistoryTrackingKey"
/// The option whose value, a Boolean, turns on remote change notifications.
public let NSPersistentStoreRemoteChangeNotificationPostOptionKey = "NSPersistentStoreRemoteChangeNotificationOptionKey"
/// The option whose value, a file protection type, protects the store file.
public let NSPersistentStoreFileProtectionKey = "NSPersistentStoreFileProtectionKey"
/// The option whose value, a Boolean, removes a store's file when it is removed from its coordinator.
public let NSPersistentStoreRemoveUbiquitousMetadataOption = "NSPersistentStoreRemoveUbiquitousMetadataOption"
/// The option whose value, a Boolean, forces the destination of a migration to be replaced.
public let NSPersistentStoreForceDestroyOption = "NSPersistentStoreForceDestroyOption"

/// The option whose value, a number, is the largest number of connections a SQLite store keeps open
/// for reading (accepted; OpenCoreData's SQLite store sizes its reader pool itself).
public let NSPersistentStoreConnectionPoolMaxSizeKey = "NSPersistentStoreConnectionPoolMaxSize"
/// The option whose value, a set of classes, lists the classes a binary store may decode (accepted;
/// OpenCoreData has no binary store).
public let NSBinaryStoreSecureDecodingClasses = "NSBinaryStoreSecureDecodingClasses"
/// The option whose value, a Boolean, lets a binary store decode values without secure coding
/// (accepted; OpenCoreData has no binary store).
public let NSBinaryStoreInsecureDecodingCompatibilityOption = "NSBinaryStoreInsecureDecodingCompatibilityOption"

/// Reading option values as Core Data reads them: numbers, Booleans or strings.
enum PersistentStoreOptions {
    /// The Boolean value of an option, `nil` when absent or not a Boolean.
    static func bool(_ value: Any?) -> Bool? {
        switch value {
        case let value as Bool: return value
        case let value as NSNumber: return value.boolValue
        case let value as String: return ["1", "yes", "true"].contains(value.lowercased())
        default: return nil
        }
    }

    /// The number value of an option, `nil` when absent or not a number.
    static func double(_ value: Any?) -> Double? {
        switch value {
        case let value as NSNumber: return value.doubleValue
        case let value as Double: return value
        case let value as Int: return Double(value)
        case let value as String: return Double(value)
        default: return nil
        }
    }
}
