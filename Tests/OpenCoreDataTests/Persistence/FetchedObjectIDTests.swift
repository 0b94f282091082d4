import Dispatch
import Foundation
import Testing

@testable import OpenCoreDataCore

/// The object IDs of fetched objects, which a fetch makes only when something asks for one: every read
/// of `objectID` gives the same ID, equal to the ID the store's row has by any other route, and the
/// context finds the object by it.
@Suite("Fetched object IDs")
struct FetchedObjectIDTests {
    /// A fresh context on the fetching model's store with `users` users (every tenth an Admin).
    private func fetchedUsers(_ users: Int) throws -> (GraphStack, NSManagedObjectContext, [NSManagedObject]) {
        let stack = try FetchingModel.stack(users: users, admins: true)
        let context = try stack.freshContext()
        let request = NSFetchRequest<NSManagedObject>(entityName: "User")
        request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        let objects = try context.performAndWait { try context.fetch(request) }
        return (stack, context, objects)
    }

    @Test("a fetched object's ID is made on the first read, and every later read gives that same ID")
    func madeOnceOnRequest() throws {
        let (stack, context, users) = try fetchedUsers(20)
        _ = stack
        try context.performAndWait {
            #expect(users.count == 20)
            #expect(users.allSatisfy { $0._objectIDIfMade == nil }, "a fetch made IDs nobody asked for")
            // Reading values does not make one either.
            #expect(users.allSatisfy { $0.value(forKey: "age") != nil || $0.entity.name == "Admin" })
            #expect(users.allSatisfy { $0._objectIDIfMade == nil })
            for user in users {
                let id = user.objectID
                #expect(user.objectID === id)
                #expect(!id.isTemporaryID)
                #expect(id.entity === user.entity)
                #expect(id.persistentStore === context.persistentStoreCoordinator?.persistentStores.first)
                // The ID names the row: by URI, in this context and another.
                let uri = id.uriRepresentation()
                let again = try #require(context.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: uri))
                #expect(again == id && again.hash == id.hash)
                #expect(context.object(with: again) === user)
                #expect(try context.existingObject(with: again) === user)
            }
        }
    }

    @Test("a fetch through a parent entity gives each row's object an ID of the row's own entity")
    func subentityRows() throws {
        let (stack, context, users) = try fetchedUsers(30)
        _ = stack
        context.performAndWait {
            let admins = users.filter { $0.entity.name == "Admin" }
            #expect(admins.count == 3)
            #expect(admins.allSatisfy { $0.objectID.entity.name == "Admin" })
            #expect(users.filter { $0.entity.name == "User" }.allSatisfy { $0.objectID.entity.name == "User" })
        }
    }

    @Test("the context finds a fetched object by an ID made elsewhere before the object made its own")
    func lookupBeforeMaking() throws {
        let (stack, context, users) = try fetchedUsers(12)
        let other = stack.context()
        let ids = try other.performAndWait {
            let request = NSFetchRequest<NSManagedObject>(entityName: "User")
            request.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
            return try other.fetch(request).map(\.objectID)
        }
        context.performAndWait {
            #expect(users.allSatisfy { $0._objectIDIfMade == nil })
            for (user, id) in zip(users, ids) {
                #expect(context.object(with: id) === user)
                #expect(context.registeredObject(for: id) === user)
            }
            // A second fetch in the same context returns the same objects, found by their rows.
            let again = (try? context.fetch(NSFetchRequest<NSManagedObject>(entityName: "User"))) ?? []
            #expect(Set(again.map(ObjectIdentifier.init)) == Set(users.map(ObjectIdentifier.init)))
            #expect(users.map(\.objectID) == ids)
        }
    }

    @Test("an object's ID read on many threads at once is one ID (CI repeats this under ThreadSanitizer: ocd selftest concurrency-stress)")
    func concurrentFirstReads() throws {
        let (stack, context, users) = try fetchedUsers(200)
        _ = stack
        // IDs may be passed between threads; reading a managed object's `objectID` off its queue is
        // allowed, as in Core Data.
        let boxes = UnsafeSendable(users)
        let seen = UnsafeMutableSendableBuffer(count: 4 * users.count)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for (index, user) in boxes.value.enumerated() {
                seen.store(ObjectIdentifier(user.objectID), at: thread * boxes.value.count + index)
            }
        }
        for index in users.indices {
            let first = seen.load(at: index)
            #expect((1..<4).allSatisfy { seen.load(at: $0 * users.count + index) == first })
            #expect(ObjectIdentifier(users[index].objectID) == first)
        }
        seen.deallocate()
        context.performAndWait { #expect(users.allSatisfy { $0._objectIDIfMade != nil }) }
    }
}

/// A value handed to other threads by a test that reads only what may be read from any thread.
private struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A buffer of object identifiers that threads of a test write at positions of their own.
private struct UnsafeMutableSendableBuffer: @unchecked Sendable {
    private let base: UnsafeMutablePointer<ObjectIdentifier?>

    init(count: Int) {
        base = .allocate(capacity: count)
        base.initialize(repeating: nil, count: count)
    }

    func store(_ value: ObjectIdentifier, at index: Int) { base[index] = value }
    func load(at index: Int) -> ObjectIdentifier? { base[index] }
    func deallocate() { base.deallocate() }
}
