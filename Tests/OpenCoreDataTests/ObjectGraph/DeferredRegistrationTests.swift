import Foundation
import OpenCoreData
import Testing

/// A store of `count` `Note` objects (`rank` = 0, 1, …), and a new coordinator on it whose row cache is
/// empty.
private func savedNotes(count: Int) throws -> (GraphStack, NSPersistentStoreCoordinator) {
    let model = NSManagedObjectModel()
    model.entities = [ModelKit.entity("Note", [ModelKit.attribute("rank", .integer64AttributeType)])]
    let stack = try GraphStack(model: model)
    let writer = stack.context()
    for rank in 0..<count { _ = writer.make("Note", ["rank": Int64(rank)]) }
    try writer.save()
    return (stack, try stack.secondCoordinator())
}

/// Every note, by rank.
private func allNotes() -> NSFetchRequest<NSManagedObject> {
    let request = NSFetchRequest<NSManagedObject>(entityName: "Note")
    request.sortDescriptors = [NSSortDescriptor(key: "rank", ascending: true)]
    return request
}

/// The first thing a test does with a context after its first fetch: each of these looks fetched objects up
/// by ID (or lists them) and must find the fetched instances.
enum FirstRegistryUse: String, CaseIterable, Sendable {
    case objectWithID, registeredObjectForID, existingObjectWithID, registeredObjects, secondFetch, saveOfAChange
}

@Suite("Objects of a first fetch, registered before they are indexed by ID")
struct DeferredRegistrationTests {
    @Test(
        "each object of a fetch into an empty context is the one every lookup by ID finds afterwards, with an empty or a filled row cache",
        arguments: FirstRegistryUse.allCases, [false, true])
    func lookupsFindTheFetchedObjects(firstUse: FirstRegistryUse, cacheFilled: Bool) throws {
        let (stack, coordinator) = try savedNotes(count: 300)
        if cacheFilled {
            // Another context's fetch leaves the rows in the coordinator's cache.
            _ = try stack.context(coordinator).fetch(allNotes())
        }
        let context = stack.context(coordinator)
        let objects = try context.fetch(allNotes())
        #expect(objects.count == 300)
        switch firstUse {
        case .objectWithID:
            #expect(objects.allSatisfy { context.object(with: $0.objectID) === $0 })
        case .registeredObjectForID:
            #expect(objects.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
        case .existingObjectWithID:
            #expect(try objects.allSatisfy { try context.existingObject(with: $0.objectID) === $0 })
        case .registeredObjects:
            #expect(context.registeredObjects == Set(objects))
        case .secondFetch:
            let again = try context.fetch(allNotes())
            #expect(again.count == 300)
            #expect(zip(objects, again).allSatisfy { $0 === $1 })
        case .saveOfAChange:
            objects[7].setValue(Int64(-7), forKey: "rank")
            try context.save()
            #expect(context.registeredObject(for: objects[7].objectID) === objects[7])
        }
        // Whatever came first, the registry now knows each fetched object, once.
        #expect(context.registeredObjects.count == 300)
        #expect(objects.allSatisfy { context.registeredObject(for: $0.objectID) === $0 && $0.managedObjectContext === context })
        #expect(
            objects.enumerated().allSatisfy { index, object in
                object.value(forKey: "rank") as? Int64 == (index == 7 && firstUse == .saveOfAChange ? -7 : Int64(index))
            })
    }

    @Test("objects of a fetch lose their context when it goes away, though nothing looked them up")
    func contextGoesAway() throws {
        let (stack, coordinator) = try savedNotes(count: 100)
        var objects: [NSManagedObject] = []
        weak var gone: NSManagedObjectContext?
        do {
            let context = stack.context(coordinator)
            gone = context
            objects = try context.fetch(allNotes())
            #expect(objects.allSatisfy { $0.managedObjectContext === context })
        }
        #expect(gone == nil)
        #expect(objects.allSatisfy { $0.managedObjectContext == nil })
    }

    @Test("reset() right after a fetch takes its objects out of the context; the next fetch makes new ones")
    func resetAfterFetch() throws {
        let (stack, coordinator) = try savedNotes(count: 100)
        let context = stack.context(coordinator)
        let objects = try context.fetch(allNotes())
        context.reset()
        #expect(objects.allSatisfy { $0.managedObjectContext == nil })
        #expect(context.registeredObjects.isEmpty)
        let again = try context.fetch(allNotes())
        #expect(again.count == 100)
        #expect(zip(objects, again).allSatisfy { $0 !== $1 && $0.objectID == $1.objectID })
        #expect(again.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
    }

    @Test("a fetched object deleted and saved leaves the registry; its neighbours stay, and a later fetch returns them")
    func deleteAfterFetch() throws {
        let (stack, coordinator) = try savedNotes(count: 40)
        let context = stack.context(coordinator)
        let objects = try context.fetch(allNotes())
        let deleted = objects[20]
        context.delete(deleted)
        try context.save()
        #expect(context.registeredObject(for: deleted.objectID) == nil)
        #expect(deleted.managedObjectContext == nil)
        let again = try context.fetch(allNotes())
        #expect(again.count == 39)
        #expect(again.allSatisfy { object in objects.contains { $0 === object } })
        #expect(context.registeredObjects.count == 39)
    }

    @Test("two fetches in a row, the first never looked up, give one object per row")
    func overlappingFetches() throws {
        let (stack, coordinator) = try savedNotes(count: 60)
        let context = stack.context(coordinator)
        let lower = NSFetchRequest<NSManagedObject>(entityName: "Note")
        lower.predicate = NSPredicate(format: "rank < 40")
        let upper = NSFetchRequest<NSManagedObject>(entityName: "Note")
        upper.predicate = NSPredicate(format: "rank >= 20")
        let first = try context.fetch(lower)
        let second = try context.fetch(upper)
        #expect(first.count == 40)
        #expect(second.count == 40)
        let firstByID = Dictionary(uniqueKeysWithValues: first.map { ($0.objectID, $0) })
        let shared = second.filter { firstByID[$0.objectID] != nil }
        #expect(shared.count == 20)
        #expect(shared.allSatisfy { firstByID[$0.objectID] === $0 })
        #expect(context.registeredObjects.count == 60)
    }
}
