/// The type of a SQLite store.
public let NSSQLiteStoreType = "SQLite"
/// The type of an in-memory store.
public let NSInMemoryStoreType = "InMemory"
/// The type of a binary store.
public let NSBinaryStoreType = "Binary"

extension NSPersistentStore {
    /// A type of persistent store.
    public struct StoreType: RawRepresentable, Hashable, Sendable {
        /// The store type's name, for example ``NSSQLiteStoreType``.
        public let rawValue: String

        /// Creates a store type from its name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// A store kept in a SQLite file.
        public static let sqlite = StoreType(rawValue: NSSQLiteStoreType)
        /// A store kept in memory only.
        public static let inMemory = StoreType(rawValue: NSInMemoryStoreType)
        /// A store kept in a binary file.
        public static let binary = StoreType(rawValue: NSBinaryStoreType)
    }
}
