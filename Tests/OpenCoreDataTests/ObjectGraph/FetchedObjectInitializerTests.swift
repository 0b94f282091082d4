import OpenCoreData
import Testing

/// A Tag subclass whose stored property is initialized with another managed object of the same entity
/// (a scratch copy), before `NSManagedObject`'s initializer runs: Swift runs stored-property
/// initializers first.
final class ScratchTag: NSManagedObject {
    nonisolated(unsafe) static var scratchEntity: NSEntityDescription?
    let scratch: NSManagedObject? = ScratchTag.scratchEntity.map { NSManagedObject(entity: $0, insertInto: nil) }
}

/// A Tag subclass whose initializer hands its superclass an equal entity from another copy of the model.
final class RemodeledTag: NSManagedObject {
    nonisolated(unsafe) static var ownEntity: NSEntityDescription?
    required init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        super.init(entity: RemodeledTag.ownEntity ?? entity, insertInto: context)
    }
}

/// A Tag subclass that sets a value in its initializer, as some subclasses do instead of using
/// `awakeFromInsert()`.
final class StampedTag: NSManagedObject {
    required init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        super.init(entity: entity, insertInto: context)
        setValue("from init", forKey: "name")
    }
}

/// A Tag subclass whose initializer, once, fetches every tag of a context: the objects of the fetch
/// that created it are registered inside that fetch.
final class FetchingTag: NSManagedObject {
    nonisolated(unsafe) static var contextToFetch: NSManagedObjectContext?
    nonisolated(unsafe) static var innerFetch: [NSManagedObject] = []
    required init(entity: NSEntityDescription, insertInto context: NSManagedObjectContext?) {
        super.init(entity: entity, insertInto: context)
        if let reader = FetchingTag.contextToFetch {
            FetchingTag.contextToFetch = nil
            FetchingTag.innerFetch = (try? reader.fetch(NSFetchRequest<NSManagedObject>(entityName: "Tag"))) ?? []
        }
    }
}

/// Objects a fetch creates run their class's `init(entity:insertInto:)`; whatever that initializer
/// does, the object must end up with its row's ID and values, and objects the initializer makes must
/// stay new objects.
@Suite("Initializers of fetched objects", .serialized)
struct FetchedObjectInitializerTests {
    @Test("an object created by a stored-property initializer of a fetched object is a new object; the fetched one keeps its row's ID")
    func objectCreatedDuringInit() throws {
        let model = BlogModel.make()
        let tagEntity = try #require(model.entitiesByName["Tag"])
        tagEntity.managedObjectClassName = NSStringFromClass(ScratchTag.self)
        let stack = try GraphStack(model: model)
        let writer = stack.context()
        ScratchTag.scratchEntity = nil
        let saved = writer.make("Tag", ["name": "swift"])
        try writer.save()

        ScratchTag.scratchEntity = tagEntity
        defer { ScratchTag.scratchEntity = nil }
        let reader = stack.context()
        let fetched = try #require(try reader.all("Tag").first as? ScratchTag)
        #expect(fetched.objectID == saved.objectID)
        #expect(!fetched.objectID.isTemporaryID)
        #expect(fetched.value(forKey: "name") as? String == "swift")
        #expect(reader.object(with: saved.objectID) === fetched)
        let scratch = try #require(fetched.scratch)
        #expect(scratch.objectID.isTemporaryID)
        #expect(scratch.managedObjectContext == nil)
    }

    @Test("a fetched object whose initializer passes an equal entity of another model copy keeps its row's ID and values")
    func initializerSubstitutesEntity() throws {
        let model = BlogModel.make()
        model.entitiesByName["Tag"]?.managedObjectClassName = NSStringFromClass(RemodeledTag.self)
        let stack = try GraphStack(model: model)
        let writer = stack.context()
        let saved = writer.make("Tag", ["name": "swift"])
        try writer.save()

        let copy = BlogModel.make()
        copy.entitiesByName["Tag"]?.managedObjectClassName = NSStringFromClass(RemodeledTag.self)
        RemodeledTag.ownEntity = copy.entitiesByName["Tag"]
        defer { RemodeledTag.ownEntity = nil }
        let reader = stack.context()
        let fetched = try #require(try reader.all("Tag").first)
        #expect(fetched.objectID == saved.objectID)
        #expect(fetched.value(forKey: "name") as? String == "swift")
    }

    @Test("a value an initializer sets on a fetched object is no change: the row's values replace it", arguments: [true, false])
    func initializerSetsValue(asFaults: Bool) throws {
        let model = BlogModel.make()
        model.entitiesByName["Tag"]?.managedObjectClassName = NSStringFromClass(StampedTag.self)
        let stack = try GraphStack(model: model)
        let writer = stack.context()
        let saved = writer.make("Tag", ["name": "swift"])
        #expect(saved.value(forKey: "name") as? String == "swift")
        try writer.save()

        let reader = stack.context()
        let request = NSFetchRequest<NSManagedObject>(entityName: "Tag")
        request.returnsObjectsAsFaults = asFaults
        let fetched = try #require(try reader.fetch(request).first)
        #expect(fetched.isFault == asFaults)
        #expect(fetched.changedValues().isEmpty)
        #expect(fetched.changedValuesForCurrentEvent().isEmpty)
        #expect(!fetched.hasPersistentChangedValues)
        #expect(fetched.value(forKey: "name") as? String == "swift")
        #expect(fetched.changedValues().isEmpty)
        #expect(!reader.hasChanges)
    }

    @Test("a fetched object whose initializer fetches the same rows in the same context: each row still has one object", arguments: [true, false])
    func initializerFetchesSameRows(asFaults: Bool) throws {
        let model = BlogModel.make()
        model.entitiesByName["Tag"]?.managedObjectClassName = NSStringFromClass(FetchingTag.self)
        let stack = try GraphStack(model: model)
        let writer = stack.context()
        for name in ["a", "b", "c"] { _ = writer.make("Tag", ["name": name]) }
        try writer.save()

        let reader = stack.context()
        FetchingTag.contextToFetch = reader
        defer {
            FetchingTag.contextToFetch = nil
            FetchingTag.innerFetch = []
        }
        let request = NSFetchRequest<NSManagedObject>(entityName: "Tag")
        request.returnsObjectsAsFaults = asFaults
        let outer = try reader.fetch(request)
        let inner = FetchingTag.innerFetch
        #expect(outer.count == 3)
        #expect(inner.count == 3)
        #expect(Set(outer.map(ObjectIdentifier.init)) == Set(inner.map(ObjectIdentifier.init)))
        #expect(reader.registeredObjects.count == 3)
        for object in outer {
            #expect(reader.registeredObject(for: object.objectID) === object)
            #expect(object.managedObjectContext === reader)
            #expect(["a", "b", "c"].contains(object.value(forKey: "name") as? String ?? ""))
        }
    }
}
