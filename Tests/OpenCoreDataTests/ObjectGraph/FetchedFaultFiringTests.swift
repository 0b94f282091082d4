import Testing

@testable import OpenCoreDataCore

/// Faults a fetch returns fire from the row the fetch read while the coordinator's row cache has not
/// changed since; whenever the store may hold something newer for them, they must read it instead.
@Suite("Fetched faults fire with current values")
struct FetchedFaultFiringTests {
    /// A saved author "Ann" (age 3) in a writer context, and a reader context holding it as a fetched fault.
    private func fetchedFault(_ stack: GraphStack) throws -> (NSManagedObjectContext, NSManagedObject, NSManagedObject, NSManagedObjectContext) {
        let writer = stack.context()
        let ann = writer.make("Author", ["name": "Ann", "age": 3])
        try writer.save()
        let reader = stack.context()
        let fault = try #require(try reader.all("Author").first)
        #expect(fault.isFault)
        return (reader, fault, ann, writer)
    }

    @Test(
        "a batch update of the fault's row (status only) is what the fault fires with",
        arguments: [
            NSBatchUpdateRequestResultType.statusOnlyResultType, .updatedObjectsCountResultType, .updatedObjectIDsResultType,
        ])
    func batchUpdate(resultType: NSBatchUpdateRequestResultType) throws {
        let stack = try GraphStack()
        let (reader, fault, _, _) = try fetchedFault(stack)
        let batch = NSBatchUpdateRequest(entityName: "Author")
        batch.propertiesToUpdate = ["name": "Batched"]
        batch.resultType = resultType
        _ = try stack.context().execute(batch)
        #expect(fault.value(forKey: "name") as? String == "Batched")
        #expect(fault.value(forKey: "age") as? Int == 3)
        _ = reader
    }

    @Test("a batch delete of the fault's row makes it fire as deleted")
    func batchDelete() throws {
        let stack = try GraphStack()
        let (reader, fault, _, _) = try fetchedFault(stack)
        _ = try stack.context().execute(NSBatchDeleteRequest(fetchRequest: NSFetchRequest<NSFetchRequestResult>(entityName: "Author")))
        #expect(fault.value(forKey: "name") == nil)
        #expect(fault.isDeleted)
        _ = reader
    }

    @Test("a fault fetched before its context pinned a generation fires with that generation's values")
    func pinnedAfterFetch() throws {
        let stack = try GraphStack()
        let (reader, fault, ann, writer) = try fetchedFault(stack)
        try reader.setQueryGenerationFrom(.current)
        ann.setValue("Anne", forKey: "name")
        try writer.save()
        let unpinned = stack.context()
        #expect(try unpinned.all("Author").first?.value(forKey: "name") as? String == "Anne")
        #expect(fault.value(forKey: "name") as? String == "Ann")
        try reader.setQueryGenerationFrom(nil)
    }

    @Test("a fault fetched while pinned fires with the pinned values after another context saves")
    func fetchedWhilePinned() throws {
        let stack = try GraphStack()
        let writer = stack.context()
        let ann = writer.make("Author", ["name": "Ann"])
        try writer.save()
        let reader = stack.context()
        try reader.setQueryGenerationFrom(.current)
        let fault = try #require(try reader.all("Author").first)
        ann.setValue("Anne", forKey: "name")
        try writer.save()
        #expect(fault.value(forKey: "name") as? String == "Ann")
    }

    @Test("a staleness interval set after the fetch reads the store, not the fetched row")
    func stalenessSetAfterFetch() throws {
        let stack = try GraphStack()
        let (reader, fault, ann, _) = try fetchedFault(stack)
        let otherCoordinator = try stack.secondCoordinator()
        let other = stack.context(otherCoordinator)
        try other.existingObject(with: ann.objectID).setValue("Anne", forKey: "name")
        try other.save()
        reader.stalenessInterval = 0
        #expect(fault.value(forKey: "name") as? String == "Anne")
    }

    /// Saves "Ann" (age 3) through the stack's coordinator and returns a second coordinator on the same
    /// file, whose row cache is empty: its first fetch is the one that fills it.
    private func coldCoordinator(_ stack: GraphStack) throws -> (NSPersistentStoreCoordinator, NSManagedObjectID) {
        let writer = stack.context()
        let ann = writer.make("Author", ["name": "Ann", "age": 3])
        writer.make("Author", ["name": "Bob", "age": 4])
        try writer.save()
        return (try stack.secondCoordinator(), ann.objectID)
    }

    @Test("a fault of a coordinator's first fetch fires with the newer row a later fetch brought into the cache")
    func firstFetchThenRefetch() throws {
        let stack = try GraphStack()
        let (cold, annID) = try coldCoordinator(stack)
        let reader = stack.context(cold)
        let faults = try reader.all("Author")
        let fault = try #require(faults.first { $0.objectID == annID })
        #expect(fault.isFault)
        // Another coordinator changes the row; a second context of the reader's coordinator fetches it.
        let writer = stack.context()
        try writer.existingObject(with: annID).setValue("Anne", forKey: "name")
        try writer.save()
        #expect(try stack.context(cold).all("Author").count == 2)
        #expect(fault.value(forKey: "name") as? String == "Anne")
        #expect(fault.value(forKey: "age") as? Int == 3)
    }

    @Test("a coordinator's first fetch caches its rows: another context's fault fires from them, not from the store")
    func firstFetchCachesRows() throws {
        let stack = try GraphStack()
        let (cold, annID) = try coldCoordinator(stack)
        let reader = stack.context(cold)
        #expect(try reader.all("Author").count == 2)
        let writer = stack.context()
        try writer.existingObject(with: annID).setValue("Anne", forKey: "name")
        try writer.save()
        // The default staleness interval (-1) takes the cached row, as Core Data's row cache does.
        let other = stack.context(cold)
        #expect(other.object(with: annID).value(forKey: "name") as? String == "Ann")
        other.stalenessInterval = 0
        other.refreshAllObjects()
        #expect(other.object(with: annID).value(forKey: "name") as? String == "Anne")
    }

    @Test("a coordinator's first fetch's faults fire with what a later save through the same coordinator wrote")
    func firstFetchThenSave() throws {
        let stack = try GraphStack()
        let (cold, annID) = try coldCoordinator(stack)
        let reader = stack.context(cold)
        let faults = try reader.all("Author", sortedBy: "name")
        #expect(faults.count == 2 && faults.allSatisfy(\.isFault))
        let writer = stack.context(cold)
        try writer.existingObject(with: annID).setValue("Anne", forKey: "name")
        let bob = try #require(try writer.all("Author", predicate: NSPredicate(format: "name == %@", "Bob")).first)
        writer.delete(bob)
        try writer.save()
        #expect(faults[0].value(forKey: "name") as? String == "Anne")
        #expect(faults[1].value(forKey: "name") == nil)
        #expect(faults[1].isDeleted)
    }

    @Test("a child context's objects read the parent's unsaved values, not a row fetched by the parent")
    func childSeesParentChanges() throws {
        let stack = try GraphStack()
        let (reader, fault, _, _) = try fetchedFault(stack)
        let child = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        child.parent = reader
        let childFault = try child.performAndWait { try #require(try child.all("Author").first) }
        fault.setValue("Parent's", forKey: "name")
        let name = child.performAndWait { childFault.value(forKey: "name") as? String }
        #expect(name == "Parent's")
    }
}

/// An author class whose `awakeFromFetch()` lets go of the context its fault fires in, as an app that
/// keeps its only reference to a context in a holder it clears may.
class ContextReleasingAuthor: NSManagedObject {
    nonisolated(unsafe) static var holder: NSManagedObjectContext?
    nonisolated(unsafe) static var awakened: [String] = []

    override func awakeFromFetch() {
        super.awakeFromFetch()
        Self.holder = nil
        Self.awakened.append(primitiveValue(forKey: "name") as? String ?? "?")
    }
}

/// A subclass that inherits the override.
final class InheritingContextReleasingAuthor: ContextReleasingAuthor {}

@Suite("Fetched faults whose awakeFromFetch lets go of their context", .serialized)
struct FetchedFaultContextReleaseTests {
    @Test(
        "awakeFromFetch runs when a fetched fault fires, and may let go of the context's last owner",
        arguments: [
            NSStringFromClass(ContextReleasingAuthor.self), NSStringFromClass(InheritingContextReleasingAuthor.self),
            NSStringFromClass(NSManagedObject.self),
        ])
    func awakeLetsGoOfContext(className: String) throws {
        let model = BlogModel.make()
        model.entitiesByName["Author"]?.managedObjectClassName = className
        let stack = try GraphStack(model: model)
        let writer = stack.context()
        writer.make("Author", ["name": "Ann", "age": 3])
        try writer.save()
        ContextReleasingAuthor.awakened = []
        var fault: NSManagedObject?
        do {
            let reader = stack.context()
            ContextReleasingAuthor.holder = reader
            let fetched = try #require(try reader.all("Author").first)
            fault = fetched
        }
        let author = try #require(fault)
        #expect(author.isFault)
        #expect(author.value(forKey: "name") as? String == "Ann")
        #expect(author.value(forKey: "age") as? Int == 3)
        // The fault fires with the context retained only for classes whose awakeFromFetch is their own.
        // The vtable lookup finds exactly those classes where it is on; where it is off (the plain build)
        // every class counts as overriding, and the awakening below is the same.
        let overrides = className != NSStringFromClass(NSManagedObject.self)
        if RuntimeTechniques.vtableLookup {
            #expect(ManagedObjectOverrides.of(type(of: author)).contains(.awakeFromFetch) == overrides)
        }
        if overrides {
            #expect(ContextReleasingAuthor.awakened == ["Ann"])
            #expect(ContextReleasingAuthor.holder == nil)
        } else {
            #expect(ContextReleasingAuthor.awakened.isEmpty)
            ContextReleasingAuthor.holder = nil
        }
    }
}
