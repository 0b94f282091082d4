import Foundation
import Testing
import OpenCoreData

/// Firing a fault through an accessor, which cannot throw, when the store cannot give the object's row
/// or to-many relationship: the object reads with no values (the relationship empty), the process goes
/// on, and a save that would write the object throws the error and leaves the store as it was.
@Suite("Faults whose rows cannot be loaded", .serialized)
final class FaultFailureTests {
    private typealias Kit = RobustnessKit
    private let directory = TemporaryDirectory()
    private let model = GraphRulesModel.make()
    private let url: URL

    /// A store with User Ann and her posts P1 and P2.
    init() throws {
        url = directory.file("Faults.sqlite")
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        try context.performAndWait {
            let ann = context.make("User", ["name": "Ann"])
            context.make("Post", ["title": "P1", "author": ann])
            context.make("Post", ["title": "P2", "author": ann])
            try context.save()
        }
        try coordinator.remove(store)
    }

    private func openContext() throws -> NSManagedObjectContext {
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(type: .sqlite, at: url)
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// The one object of `entity` whose `key` is `value`, fetched with its values.
    private func fetch(_ context: NSManagedObjectContext, _ entity: String, _ key: String, _ value: String) throws -> NSManagedObject {
        let request = NSFetchRequest<NSManagedObject>(entityName: entity)
        request.predicate = NSPredicate(format: "%K == %@", key, value)
        request.returnsObjectsAsFaults = false
        return try #require(try context.fetch(request).first)
    }

    @Test("a fault whose row is damaged reads with no values; a save of a change to it throws 259 and writes nothing; once repaired and refreshed it reads and saves")
    func damagedRow() throws {
        try Kit.execute("UPDATE ZUSER SET Z_OPT = 'damaged'", on: url)
        let context = try openContext()
        try context.performAndWait {
            let post = try fetch(context, "Post", "title", "P1")
            let ann = try #require(post.value(forKey: "author") as? NSManagedObject)
            #expect(ann.isFault)
            #expect(ann.value(forKey: "name") == nil)
            #expect(!ann.isFault)
            #expect(!ann.isDeleted)
            try context.save() // nothing changed: nothing to refuse

            let before = Kit.storeBytes(url)
            ann.setValue("Anna", forKey: "name")
            post.setValue("P1 edited", forKey: "title")
            let error = try #require(throws: NSError.self) { try context.save() }
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSFileReadCorruptFileError)
            #expect(error.localizedDescription.contains(ann.objectID.uriRepresentation().absoluteString))
            #expect(error.localizedDescription.contains("Z_OPT"))
            #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == NSFileReadCorruptFileError)
            #expect(Kit.storeBytes(url) == before)

            try Kit.execute("UPDATE ZUSER SET Z_OPT = 1", on: url)
            context.refresh(ann, mergeChanges: false)
            #expect(ann.value(forKey: "name") as? String == "Ann")
            ann.setValue("Anna", forKey: "name")
            try context.save()
        }
        let reader = try openContext()
        let (user, post) = try reader.performAndWait {
            (try fetch(reader, "User", "name", "Anna").value(forKey: "name") as? String,
             try fetch(reader, "Post", "title", "P1 edited").value(forKey: "title") as? String)
        }
        #expect(user == "Anna")
        #expect(post == "P1 edited")
    }

    @Test("a fault whose row is gone, with shouldDeleteInaccessibleFaults false, reads with no values and is not deleted; a save of a change to it throws 133000")
    func goneRowKept() throws {
        let context = try openContext()
        context.shouldDeleteInaccessibleFaults = false
        try context.performAndWait {
            let post = try fetch(context, "Post", "title", "P1")
            try Kit.execute("DELETE FROM ZUSER", on: url)
            let ann = try #require(post.value(forKey: "author") as? NSManagedObject)
            #expect(ann.value(forKey: "name") == nil)
            #expect(!ann.isDeleted)
            let before = Kit.storeBytes(url)
            ann.setValue("Anna", forKey: "name")
            let error = try #require(throws: NSError.self) { try context.save() }
            #expect(error.code == NSManagedObjectReferentialIntegrityError)
            #expect(error.localizedDescription.contains(ann.objectID.uriRepresentation().absoluteString))
            #expect(Kit.storeBytes(url) == before)
            // Let go of the change: nothing else is refused.
            context.refresh(ann, mergeChanges: false)
            post.setValue("P1 edited", forKey: "title")
            try context.save()
        }
    }

    @Test("a to-many relationship the store cannot read reads as empty; a save that would write its object throws 259; once the object is loaded again, it saves")
    func damagedToMany() throws {
        try Kit.execute("UPDATE ZPOST SET Z_ENT = 'damaged' WHERE ZTITLE = 'P2'", on: url)
        let context = try openContext()
        try context.performAndWait {
            let ann = try fetch(context, "User", "name", "Ann")
            #expect(ann.mutableSetValue(forKey: "posts").count == 0)
            #expect(ann.value(forKey: "name") as? String == "Ann")
            let before = Kit.storeBytes(url)
            ann.setValue("Anna", forKey: "name")
            let error = try #require(throws: NSError.self) { try context.save() }
            #expect(error.code == NSFileReadCorruptFileError)
            #expect(error.localizedDescription.contains("posts"))
            #expect(Kit.storeBytes(url) == before)

            context.reset()
            let again = try fetch(context, "User", "name", "Ann")
            again.setValue("Anna", forKey: "name")
            try context.save()
        }
    }
}
