import Foundation
import Testing

@testable import OpenCoreDataCore

/// A transformer that gives the stored bytes as they are, standing in for an app's own.
final class StoredBytesTransformer: ValueTransformer {
    override class func allowsReverseTransformation() -> Bool { true }
    override func transformedValue(_ value: Any?) -> Any? { value }
    override func reverseTransformedValue(_ value: Any?) -> Any? { value }
}

/// Opening a store with the model it keeps of itself (`Z_MODELCACHE`), without the app's model file:
/// `NSManagedObjectModel(cachedInStoreAt:)` and `load(cachedInStoreAt:)` on the Apple-written fixture stores.
@Suite("Stores opened with their cached model")
struct CachedModelStoreTests {
    @Test(
        "the cached model opens its store without migration and every row reads through key-value coding",
        arguments: CompiledFixtures.cachedStores)
    func opensAndReadsEveryRow(_ fixture: CompiledFixtures.CachedStore) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try fixture.copy(into: directory)
        // The app's transformers, which the cache names: values read as the bytes stored.
        for name in ["CoverTransformer", "ContentTransformer"] {
            ValueTransformer.setValueTransformer(StoredBytesTransformer(), forName: NSValueTransformerName(rawValue: name))
        }
        let model = try NSManagedObjectModel.load(cachedInStoreAt: url)
        let hashes = try CompiledFixtures.cacheAndHashes(of: fixture).hashes
        #expect(model.entityVersionHashesByName == hashes)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(
            type: .sqlite, at: url,
            options: [
                NSMigratePersistentStoresAutomaticallyOption: false, NSInferMappingModelAutomaticallyOption: false,
            ])
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        var rows = 0, values = 0
        try context.performAndWait {
            for entity in model.entities where entity.superentity == nil {
                let request = NSFetchRequest<NSManagedObject>(entityName: entity.name ?? "")
                for object in try context.fetch(request) {
                    #expect(type(of: object) == NSManagedObject.self)
                    rows += 1
                    for (name, property) in object.entity.propertiesByName where !(property is NSFetchedPropertyDescription) {
                        let value = object.value(forKey: name)
                        if let relationship = property as? NSRelationshipDescription, relationship.isToMany {
                            #expect(value is NSSet || value is NSOrderedSet, "\(entity.name ?? "").\(name)")
                        }
                        if value != nil { values += 1 }
                    }
                }
            }
        }
        #expect(rows > 0)
        #expect(values > 0)
    }

    @Test("the cached model's entities map to NSManagedObject whatever classes the cache names")
    func entitiesArePlainObjects() throws {
        let store = try #require(CompiledFixtures.cachedStores.first { $0.file == "SampleModel2_V1.sqlite" })
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try store.copy(into: directory)
        let model = try #require(NSManagedObjectModel(cachedInStoreAt: url))
        #expect(model.entities.allSatisfy { $0.managedObjectClassName == "NSManagedObject" })
        #expect(model.entities.compactMap(\.name) == ["Author", "Book", "Feedback", "GraphicNovel", "Page", "Writer"])
    }

    @Test("a store without a cache, a file that is no store and a missing file give nil, or their errors")
    func errors() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let old = directory.appendingPathComponent("Recipes.sqlite")
        try FileManager.default.copyItem(at: Fixtures.stores.appendingPathComponent("magicalpanda__MagicalRecord__Recipes/Recipes.sqlite"), to: old)
        #expect(NSManagedObjectModel(cachedInStoreAt: old) == nil)
        #expect(throws: NSError.self) { try NSManagedObjectModel.load(cachedInStoreAt: old) }
        #expect(Self.code { try NSManagedObjectModel.load(cachedInStoreAt: old) } == NSCoreDataError)
        let text = directory.appendingPathComponent("notes.sqlite")
        try Data("not a database at all, but long enough to look like a file header".utf8).write(to: text)
        #expect(Self.code { try NSManagedObjectModel.load(cachedInStoreAt: text) } == NSFileReadCorruptFileError)
        #expect(
            Self.code { try NSManagedObjectModel.load(cachedInStoreAt: directory.appendingPathComponent("none.sqlite")) }
                == NSFileReadNoSuchFileError)
    }

    /// The code of the `NSError` `body` throws, or `nil`.
    static func code(_ body: () throws -> Any) -> Int? {
        do {
            _ = try body()
            return nil
        } catch {
            return (error as NSError).code
        }
    }
}
