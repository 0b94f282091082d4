import Testing

@testable import OpenCoreDataCore

/// `NSPersistentStoreCoordinator.registeredStoreTypes` and `registerStoreClass(_:forStoreType:)`.
@Suite("Store type registry", .serialized)
struct StoreTypeRegistryTests {
    /// A store class only registered, never added.
    final class NamedStore: NSPersistentStore, @unchecked Sendable {}

    @Test("the built-in types are registered with their classes")
    func builtIn() throws {
        let types: [String: NSValue] = NSPersistentStoreCoordinator.registeredStoreTypes
        #expect(types.keys.contains(NSSQLiteStoreType))
        #expect(types.keys.contains(NSInMemoryStoreType))
        let sqlite: AnyClass = try #require(types[NSSQLiteStoreType].flatMap(NSPersistentStoreCoordinator.storeClass(of:)))
        #expect(ObjectIdentifier(sqlite) == ObjectIdentifier(SQLiteStore.self))
        let inMemory: AnyClass = try #require(types[NSInMemoryStoreType].flatMap(NSPersistentStoreCoordinator.storeClass(of:)))
        #expect(ObjectIdentifier(inMemory) == ObjectIdentifier(InMemoryStore.self))
    }

    @Test("a registered class is listed under its type until registered as nil")
    func registerAndRemove() throws {
        let type = "NamedStore-\(UUID().uuidString)"
        NSPersistentStoreCoordinator.registerStoreClass(NamedStore.self, forStoreType: type)
        let value = try #require(NSPersistentStoreCoordinator.registeredStoreTypes[type])
        let listed: AnyClass = try #require(NSPersistentStoreCoordinator.storeClass(of: value))
        #expect(ObjectIdentifier(listed) == ObjectIdentifier(NamedStore.self))
        NSPersistentStoreCoordinator.registerStoreClass(nil, type: NSPersistentStore.StoreType(rawValue: type))
        #expect(NSPersistentStoreCoordinator.registeredStoreTypes[type] == nil)
    }

    @Test("adding a store of a type with no OpenCoreData implementation throws 134000")
    func unknownTypeThrows() throws {
        let type = "NamedStore-\(UUID().uuidString)"
        NSPersistentStoreCoordinator.registerStoreClass(NamedStore.self, forStoreType: type)
        defer { NSPersistentStoreCoordinator.registerStoreClass(nil, forStoreType: type) }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: StoreKit.blogModel())
        let error = try #require(throws: NSError.self) {
            try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: nil)
        }
        #expect(error.code == NSPersistentStoreInvalidTypeError)
    }
}
