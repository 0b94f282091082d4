/// The in-memory store (``NSInMemoryStoreType``): rows kept in memory only, predicates evaluated in memory.
// @unchecked Sendable: all row state is guarded by the store's lock.
final class InMemoryStore: NSPersistentStore, @unchecked Sendable {
    /// The store's type, ``NSInMemoryStoreType``.
    override var type: String { NSInMemoryStoreType }
}
