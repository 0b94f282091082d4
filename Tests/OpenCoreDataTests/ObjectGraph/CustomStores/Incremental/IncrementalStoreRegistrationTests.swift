import Foundation
import Testing

@testable import OpenCoreDataCore

/// `managedObjectContextDidRegisterObjects(with:)` and `managedObjectContextDidUnregisterObjects(with:)`.
@Suite("Incremental store object registration notices")
struct IncrementalStoreRegistrationTests {
    @Test("fetched objects are reported once while in use, and reported gone on reset")
    func registerAndUnregister() throws {
        let (coordinator, store) = try JSONStoreKit.open(JSONStoreKit.url())
        try JSONStoreKit.seed(coordinator)
        let context = JSONStoreKit.context(coordinator)
        try context.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "Person")
            let people = try context.fetch(request)
            let ids = Set(people.map(\.objectID))
            #expect(Set(store.lock.withLock { store.registered }) == ids)
            _ = try context.fetch(request)
            #expect(store.lock.withLock { store.registered.count } == 3)
            context.reset()
            #expect(Set(store.lock.withLock { store.unregistered }) == ids)
        }
    }
}

/// A store class registered by name and made by the coordinator; stores that return nonsense.
@Suite("Incremental store registration and bad results", .serialized)
struct IncrementalStoreBadResultTests {
    /// A store whose `execute(_:with:)` returns what it is told to.
    final class ScriptedStore: NSIncrementalStore, @unchecked Sendable {
        nonisolated(unsafe) static var fetchResult: Any = []
        nonisolated(unsafe) static var metadataToSet: [String: Any]? = nil

        override func loadMetadata() throws {
            metadata = Self.metadataToSet ?? [NSStoreTypeKey: "Scripted", NSStoreUUIDKey: "scripted-\(UUID().uuidString)"]
        }

        override func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
            Self.fetchResult
        }
    }

    private func open(type: String) throws -> NSPersistentStoreCoordinator {
        NSPersistentStoreCoordinator.registerStoreClass(ScriptedStore.self, forStoreType: type)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: JSONStoreKit.model())
        try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: JSONStoreKit.url())
        return coordinator
    }

    @Test("the coordinator makes a registered class with init(persistentStoreCoordinator:configurationName:at:options:)")
    func registeredClassIsMade() throws {
        let (coordinator, store) = try JSONStoreKit.open(JSONStoreKit.url())
        #expect(coordinator.persistentStores.first === store)
        #expect(store.persistentStoreCoordinator === coordinator)
        #expect(NSPersistentStoreCoordinator.registeredStoreTypes[JSONFileStore.storeType] != nil)
    }

    @Test(
        "a fetch result of the wrong kind throws an error naming the store", .serialized,
        arguments: [("not an array", "a string"), ("wrong element", "element")])
    func wrongResults(_ label: String, _ kind: String) throws {
        let coordinator = try open(type: "Scripted-\(UUID().uuidString)")
        ScriptedStore.fetchResult = kind == "element" ? ["text"] : "text"
        defer { ScriptedStore.fetchResult = [] }
        let context = JSONStoreKit.context(coordinator)
        context.performAndWait {
            let error = #expect(throws: NSError.self) {
                try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "Person"))
            }
            #expect(error?.code == NSPersistentStoreOperationError)
            #expect(error?.localizedDescription.contains("ScriptedStore") == true)
        }
    }

    @Test("metadata without a UUID, or for another model, keeps the store from being added")
    func badMetadata() throws {
        defer { ScriptedStore.metadataToSet = nil }
        ScriptedStore.metadataToSet = [NSStoreTypeKey: "Scripted"]
        let missing = try #require(throws: NSError.self) { try open(type: "Scripted-\(UUID().uuidString)") }
        #expect(missing.code == NSPersistentStoreOperationError)
        ScriptedStore.metadataToSet = [
            NSStoreTypeKey: "Scripted", NSStoreUUIDKey: "x",
            NSStoreModelVersionHashesKey: ["Person": Data([1, 2, 3])],
        ]
        let other = try #require(throws: NSError.self) { try open(type: "Scripted-\(UUID().uuidString)") }
        #expect(other.code == NSPersistentStoreIncompatibleVersionHashError)
    }

    @Test("a store class that does not override the required methods throws instead of stopping")
    func unimplemented() throws {
        final class Empty: NSIncrementalStore, @unchecked Sendable {}
        let type = "Empty-\(UUID().uuidString)"
        NSPersistentStoreCoordinator.registerStoreClass(Empty.self, forStoreType: type)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: JSONStoreKit.model())
        let error = try #require(throws: NSError.self) {
            try coordinator.addPersistentStore(ofType: type, configurationName: nil, at: JSONStoreKit.url())
        }
        #expect(error.localizedDescription.contains("loadMetadata()"))
    }

    @Test("reference objects: integers keep their number, strings are kept as given")
    func referenceObjects() throws {
        let (coordinator, store) = try JSONStoreKit.open(JSONStoreKit.url())
        let entity = try #require(coordinator.managedObjectModel.entitiesByName["Tag"])
        let byString = store.newObjectID(for: entity, referenceObject: "red")
        #expect(byString == store.newObjectID(for: entity, referenceObject: "red"))
        #expect(byString != store.newObjectID(for: entity, referenceObject: "blue"))
        #expect(store.referenceObject(for: byString) as? String == "red")
        let byNumber = store.newObjectID(for: entity, referenceObject: 42)
        #expect(store.referenceObject(for: byNumber) as? NSNumber == 42)
        #expect(byNumber == store.newObjectID(for: entity, referenceObject: NSNumber(value: 42)))
        #expect(store.referenceObject(for: NSManagedObjectID(temporaryFor: entity)) is NSNull)
    }
}
