import Foundation
import OpenCoreData
import Testing

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
        try Kit.writeStore(model: model, url: url) { context in
            let ann = context.make("User", ["name": "Ann"])
            context.make("Post", ["title": "P1", "author": ann])
            context.make("Post", ["title": "P2", "author": ann])
        }
    }

    private func openContext() throws -> NSManagedObjectContext {
        try Kit.context(model: model, url: url)
    }

    /// Saves, expecting a Cocoa error of `code` whose message mentions `mentioning`, and the store's
    /// bytes unchanged.
    @discardableResult
    private func expectSaveFails(
        _ context: NSManagedObjectContext, code: Int, mentioning: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> NSError {
        let before = Kit.storeBytes(url)
        let error = try #require(throws: NSError.self, sourceLocation: sourceLocation) { try context.save() }
        #expect(error.domain == NSCocoaErrorDomain, sourceLocation: sourceLocation)
        #expect(error.code == code, sourceLocation: sourceLocation)
        #expect(error.localizedDescription.contains(mentioning), sourceLocation: sourceLocation)
        #expect(Kit.storeBytes(url) == before, sourceLocation: sourceLocation)
        return error
    }

    @Test(
        "a fault whose row is damaged reads with no values; a save of a change to it throws 259 and writes nothing; once repaired and refreshed it reads and saves"
    )
    func damagedRow() throws {
        try Kit.execute("UPDATE ZUSER SET Z_OPT = 'damaged'", on: url)
        let context = try openContext()
        try context.performAndWait {
            let post = try Kit.fetchLoaded(context, "Post", "title", "P1")
            let ann = try #require(post.value(forKey: "author") as? NSManagedObject)
            #expect(ann.isFault)
            #expect(ann.value(forKey: "name") == nil)
            #expect(!ann.isFault)
            #expect(!ann.isDeleted)
            try context.save()  // nothing changed: nothing to refuse

            ann.setValue("Anna", forKey: "name")
            post.setValue("P1 edited", forKey: "title")
            let error = try expectSaveFails(
                context, code: NSFileReadCorruptFileError,
                mentioning: ann.objectID.uriRepresentation().absoluteString)
            #expect(error.localizedDescription.contains("Z_OPT"))
            #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == NSFileReadCorruptFileError)

            try Kit.execute("UPDATE ZUSER SET Z_OPT = 1", on: url)
            context.refresh(ann, mergeChanges: false)
            #expect(ann.value(forKey: "name") as? String == "Ann")
            ann.setValue("Anna", forKey: "name")
            try context.save()
        }
        let reader = try openContext()
        let (user, post) = try reader.performAndWait {
            (
                try Kit.fetchLoaded(reader, "User", "name", "Anna").value(forKey: "name") as? String,
                try Kit.fetchLoaded(reader, "Post", "title", "P1 edited").value(forKey: "title") as? String
            )
        }
        #expect(user == "Anna")
        #expect(post == "P1 edited")
    }

    @Test(
        "a fault whose row is gone, with shouldDeleteInaccessibleFaults false, reads with no values and is not deleted; a save of a change to it throws 133000"
    )
    func goneRowKept() throws {
        let context = try openContext()
        context.shouldDeleteInaccessibleFaults = false
        try context.performAndWait {
            let post = try Kit.fetchLoaded(context, "Post", "title", "P1")
            try Kit.execute("DELETE FROM ZUSER", on: url)
            let ann = try #require(post.value(forKey: "author") as? NSManagedObject)
            #expect(ann.value(forKey: "name") == nil)
            #expect(!ann.isDeleted)
            ann.setValue("Anna", forKey: "name")
            try expectSaveFails(
                context, code: NSManagedObjectReferentialIntegrityError,
                mentioning: ann.objectID.uriRepresentation().absoluteString)
            // Let go of the change: nothing else is refused.
            context.refresh(ann, mergeChanges: false)
            post.setValue("P1 edited", forKey: "title")
            try context.save()
        }
    }

    @Test(
        "a to-many relationship the store cannot read reads as empty; a save that would write its object throws 259; once the object is loaded again, it saves"
    )
    func damagedToMany() throws {
        try Kit.execute("UPDATE ZPOST SET Z_ENT = 'damaged' WHERE ZTITLE = 'P2'", on: url)
        let context = try openContext()
        try context.performAndWait {
            let ann = try Kit.fetchLoaded(context, "User", "name", "Ann")
            #expect(ann.mutableSetValue(forKey: "posts").count == 0)
            #expect(ann.value(forKey: "name") as? String == "Ann")
            ann.setValue("Anna", forKey: "name")
            try expectSaveFails(context, code: NSFileReadCorruptFileError, mentioning: "posts")

            context.reset()
            let again = try Kit.fetchLoaded(context, "User", "name", "Ann")
            again.setValue("Anna", forKey: "name")
            try context.save()
        }
    }
}
