import Foundation
import OpenCoreData
import Testing

/// A fetch whose predicate or sort descriptors name a key the entity does not have — a predicate built
/// from text a user typed, say — throws `NSPersistentStoreUnsupportedRequestTypeError` (134091) from
/// every store, also when it is evaluated in memory over the context's unsaved objects, where reading
/// the key would stop the program.
@Suite("Fetch requests naming keys the entity does not have")
struct FetchRequestKeyPathTests {
    /// A context on a store of `type` holding User Ann with post P1, and unsaved User Bob with post P2.
    private static func context(_ type: NSPersistentStore.StoreType, in directory: TemporaryDirectory) throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: GraphRulesModel.make())
        try coordinator.addPersistentStore(type: type, at: directory.file("Keys.sqlite"))
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            context.make("Post", ["title": "P1", "author": context.make("User", ["name": "Ann"])])
            try context.save()
            context.make("Post", ["title": "P2", "author": context.make("User", ["name": "Bob"])])
        }
        return context
    }

    private static func request(_ format: String?, sortedBy key: String? = nil) throws -> NSFetchRequest<NSManagedObject> {
        let request = NSFetchRequest<NSManagedObject>(entityName: "User")
        request.predicate = try format.map { try NSPredicate(validatingFormat: $0, argumentArray: nil) }
        request.sortDescriptors = key.map { [NSSortDescriptor(key: $0, ascending: true)] }
        return request
    }

    @Test(
        "an unknown key in the predicate or a sort descriptor throws 134091 naming it, with unsaved objects or without",
        arguments: [NSPersistentStore.StoreType.sqlite, .inMemory], [true, false])
    func unknownKeysThrow(type: NSPersistentStore.StoreType, includesPendingChanges: Bool) throws {
        let directory = TemporaryDirectory()
        let context = try Self.context(type, in: directory)
        let requests = [
            (try Self.request("nickname == 'A'"), "nickname"),
            (try Self.request("name == 'Ann' OR posts.subtitle == 'x'"), "subtitle"),
            (try Self.request("ANY posts.author.age > 3"), "age"),
            (try Self.request(nil, sortedBy: "rank"), "rank"),
        ]
        try context.performAndWait {
            for (request, key) in requests {
                request.includesPendingChanges = includesPendingChanges
                let error = try #require(throws: NSError.self) { try context.fetch(request) }
                #expect(error.domain == NSCocoaErrorDomain)
                #expect(error.code == NSPersistentStoreUnsupportedRequestTypeError)
                #expect(error.localizedDescription.contains(key))
                if request.predicate != nil { #expect(throws: NSError.self) { try context.count(for: request) } }
            }
        }
    }

    @Test(
        "key paths through relationships, collection operators and self still fetch, over stored and unsaved objects",
        arguments: [NSPersistentStore.StoreType.sqlite, .inMemory])
    func knownKeysFetch(type: NSPersistentStore.StoreType) throws {
        let directory = TemporaryDirectory()
        let context = try Self.context(type, in: directory)
        let found = try context.performAndWait {
            try [
                "ANY posts.title BEGINSWITH 'P'", "posts.@count == 1 AND SELF.name != 'Ann'",
                "SUBQUERY(posts, $p, $p.title == 'P1').@count > 0",
            ].map { format in
                try context.fetch(try Self.request(format, sortedBy: "name")).compactMap { $0.value(forKey: "name") as? String }
            }
        }
        #expect(found == [["Ann", "Bob"], ["Bob"], ["Ann"]])
    }
}
