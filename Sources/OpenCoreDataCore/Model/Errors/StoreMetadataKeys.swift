// Keys of a persistent store's metadata dictionary, with Apple's names and values.

/// The type of the store (for example, `"SQLite"`).
public let NSStoreTypeKey = "NSStoreType"
/// The store's unique identifier.
public let NSStoreUUIDKey = "NSStoreUUID"
/// The entity version hashes of the model that wrote the store: a dictionary from entity name to `Data`.
public let NSStoreModelVersionHashesKey = "NSStoreModelVersionHashes"
/// The version identifiers of the model that wrote the store.
public let NSStoreModelVersionIdentifiersKey = "NSStoreModelVersionIdentifiers"
/// The version checksum of the model that wrote the store; see ``NSManagedObjectModel/versionChecksum``.
public let NSStoreModelVersionChecksumKey = "NSStoreModelVersionChecksumKey"
/// The key of a store's metadata holding the version checksum of the model the store was last saved
/// with (``NSManagedObjectModel/versionChecksum``); the same key as ``NSStoreModelVersionChecksumKey``.
public let NSPersistentStoreModelVersionChecksumKey = NSStoreModelVersionChecksumKey
/// The operating system version the store is compatible with.
public let NSPersistentStoreOSCompatibility = "NSPersistentStoreOSCompatibility"

/// The version of the hashing scheme of `NSStoreModelVersionHashes` (Core Data's current scheme is 3).
let _NSStoreModelVersionHashesVersionKey = "NSStoreModelVersionHashesVersion"
/// The SHA-512 digest of the entity names and hashes; see `NSManagedObjectModel._versionHashesDigest`.
let _NSStoreModelVersionHashesDigestKey = "NSStoreModelVersionHashesDigest"
/// The key, in a store's metadata, for the version of the Core Data framework that wrote the store.
public let NSPersistenceFrameworkVersionKey = "NSPersistenceFrameworkVersion"
/// The same key, under the name the metadata code uses.
let _NSPersistenceFrameworkVersionKey = NSPersistenceFrameworkVersionKey
/// The hashing scheme version OpenCoreData's version hashes follow.
let _NSStoreModelVersionHashesVersion = 3

/// The version of Core Data whose stores OpenCoreData writes: the `NSPersistenceFrameworkVersion` it
/// records in a store's metadata, that of the Core Data of iOS and macOS 26 whose file format new stores follow.
public let NSCoreDataVersionNumber: Double = 1518
