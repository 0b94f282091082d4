import OpenCoreData
import Testing

/// Deleting objects whose *related* rows another program damaged or removed: the delete rules
/// (nullify, cascade, deny) read those rows, and the save reports what it cannot read instead of
/// stopping the process; a failed save leaves the store byte for byte as it was.
@Suite("Bad input: delete rules over damaged related rows", .serialized)
struct DeleteRulesOverDamagedRowsTests {
    private typealias Kit = RobustnessKit

    /// A SQLite store of ``GraphRulesModel`` holding
    /// - User Ann with posts P1, P2 (cascade; each post's author nullifies);
    /// - Courses iOS (students Alice, Bob) and Art (student Alice), nullify both ways;
    /// - Writer W with volumes V1, V2 (deny; each volume's writer nullifies);
    /// - Person Pat with passport N1 (one-to-one, nullify both ways);
    /// - Nodes root > child > grandchild > leaf (children and parent cascade),
    /// written, closed, and then changed by `damage` (SQL run through a connection of its own).
    private struct DamagedStore {
        let directory = TemporaryDirectory()
        let model = GraphRulesModel.make()
        let url: URL

        init(_ damage: [String]) throws {
            url = directory.file("Rules.sqlite")
            try Kit.writeStore(model: model, url: url) { context in
                let ann = context.make("User", ["name": "Ann"])
                context.make("Post", ["title": "P1", "author": ann])
                context.make("Post", ["title": "P2", "author": ann])
                let alice = context.make("Student", ["name": "Alice"])
                let bob = context.make("Student", ["name": "Bob"])
                context.make("Course", ["title": "iOS"]).mutableSetValue(forKey: "students").addObjects(from: [alice, bob])
                context.make("Course", ["title": "Art"]).mutableSetValue(forKey: "students").add(alice)
                let writer = context.make("Writer", ["name": "W"])
                context.make("Volume", ["title": "V1", "writer": writer])
                context.make("Volume", ["title": "V2", "writer": writer])
                let pat = context.make("Person", ["name": "Pat"])
                context.make("Passport", ["number": "N1", "holder": pat])
                var parent: NSManagedObject?
                for name in ["root", "child", "grandchild", "leaf"] { parent = context.make("Node", ["name": name, "parent": parent]) }
            }
            for sql in damage { try Kit.execute(sql, on: url) }
        }

        /// A new coordinator and context on the damaged store.
        func context() throws -> NSManagedObjectContext {
            try Kit.context(model: model, url: url)
        }

        /// Deletes the object `entity.key == value` and saves, expecting a Cocoa error of `code` whose
        /// message contains `mentioning`; checks that the store's bytes did not change, and that the
        /// context can roll back and read on. Returns the error.
        @discardableResult
        func expectDeleteFails(
            _ entity: String, _ key: String, _ value: String, code: Int, mentioning: [String],
            configure: (NSManagedObjectContext) -> Void = { _ in },
            processFirst: Bool = false,
            sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> NSError {
            let context = try context()
            configure(context)
            // (Opening a store read-write writes its connection's first pages to the -wal; the save must add nothing.)
            let before = Kit.storeBytes(url)
            let error = try context.performAndWait {
                let object = try Kit.fetchLoaded(context, entity, key, value)
                context.delete(object)
                if processFirst { context.processPendingChanges() }
                let error = try #require(throws: NSError.self, sourceLocation: sourceLocation) { try context.save() }
                #expect(context.hasChanges, "a failed save keeps the changes", sourceLocation: sourceLocation)
                context.rollback()
                #expect(!object.isDeleted, sourceLocation: sourceLocation)
                return error
            }
            Kit.expectCocoaError(error, "delete \(entity) \(value)", sourceLocation: sourceLocation)
            #expect(error.code == code, "\(error.code): \(error.localizedDescription)", sourceLocation: sourceLocation)
            for text in mentioning {
                #expect(error.localizedDescription.contains(text), "\(error.localizedDescription)", sourceLocation: sourceLocation)
            }
            #expect(Kit.storeBytes(url) == before, "the store is unchanged", sourceLocation: sourceLocation)
            return error
        }
    }

    @Test("cascade: a destination row whose Z_ENT is text fails the save with 259 naming the file and column")
    func cascadeOverUnreadableDestination() throws {
        let store = try DamagedStore(["UPDATE ZPOST SET Z_ENT = 'x' WHERE ZTITLE = 'P2'"])
        try store.expectDeleteFails("User", "name", "Ann", code: NSFileReadCorruptFileError, mentioning: [store.url.path, "Z_ENT"])
    }

    @Test("cascade: the same failure when pending changes were processed before the save")
    func cascadeProcessedBeforeSave() throws {
        let store = try DamagedStore(["UPDATE ZPOST SET Z_ENT = 'x' WHERE ZTITLE = 'P2'"])
        try store.expectDeleteFails(
            "User", "name", "Ann", code: NSFileReadCorruptFileError, mentioning: [store.url.path],
            processFirst: true)
    }

    @Test("cascade: a damaged row three cascades away fails the save with 259")
    func cascadeChainOverUnreadableRow() throws {
        let store = try DamagedStore(["UPDATE ZNODE SET Z_ENT = 'x' WHERE ZNAME = 'leaf'"])
        try store.expectDeleteFails("Node", "name", "root", code: NSFileReadCorruptFileError, mentioning: [store.url.path, "Z_ENT"])
    }

    @Test("nullify, many-to-many: a partner whose Z_ENT names no entity fails the save with 259")
    func nullifyOverUnknownEntity() throws {
        let store = try DamagedStore(["UPDATE ZSTUDENT SET Z_ENT = 99 WHERE ZNAME = 'Bob'"])
        try store.expectDeleteFails("Course", "title", "iOS", code: NSFileReadCorruptFileError, mentioning: [store.url.path])
    }

    @Test("nullify: a partner's inverse relationship holding a damaged row fails the save with 259")
    func nullifyThroughDamagedInverse() throws {
        let store = try DamagedStore(["UPDATE ZCOURSE SET Z_ENT = 'x' WHERE ZTITLE = 'Art'"])
        try store.expectDeleteFails("Course", "title", "iOS", code: NSFileReadCorruptFileError, mentioning: [store.url.path])
    }

    @Test("nullify, to-one: a destination whose row cannot be read (Z_OPT is text) fails the save with 259")
    func nullifyOverUnreadableToOne() throws {
        let store = try DamagedStore(["UPDATE ZWRITER SET Z_OPT = 'x'"])
        try store.expectDeleteFails("Volume", "title", "V1", code: NSFileReadCorruptFileError, mentioning: [store.url.path, "Z_OPT"])
    }

    @Test("nullify, one-to-one: a destination whose foreign key holds text fails the save with 259")
    func nullifyOverTextForeignKey() throws {
        let store = try DamagedStore(["UPDATE ZPASSPORT SET ZHOLDER = 'somebody'"])
        try store.expectDeleteFails("Person", "name", "Pat", code: NSFileReadCorruptFileError, mentioning: [store.url.path])
    }

    @Test("deny: a destination row whose Z_ENT is text fails the save with 259, not a denied delete")
    func denyOverUnreadableDestination() throws {
        let store = try DamagedStore(["UPDATE ZVOLUME SET Z_ENT = 'x' WHERE ZTITLE = 'V2'"])
        try store.expectDeleteFails("Writer", "name", "W", code: NSFileReadCorruptFileError, mentioning: [store.url.path])
    }

    @Test("nullify: a related row another program deleted fails the save with 133000 when inaccessible faults are kept")
    func nullifyOverMissingRow() throws {
        let store = try DamagedStore(["DELETE FROM ZUSER"])
        let error = try store.expectDeleteFails(
            "Post", "title", "P1", code: NSManagedObjectReferentialIntegrityError,
            mentioning: ["User"], configure: { $0.shouldDeleteInaccessibleFaults = false })
        #expect((error.userInfo[NSAffectedObjectsErrorKey] as? [NSManagedObjectID])?.count == 1)
    }

    @Test("nullify: a related row another program deleted reads as deleted by default, and the delete saves")
    func nullifyOverMissingRowDeletesInaccessibleFault() throws {
        let store = try DamagedStore(["DELETE FROM ZUSER"])
        let context = try store.context()
        try context.performAndWait {
            let post = try Kit.fetchLoaded(context, "Post", "title", "P1")
            let author = try #require(post.value(forKey: "author") as? NSManagedObject)
            context.delete(post)
            try context.save()
            // The author's fault could not be fulfilled: it reads as deleted, and the rule left it alone.
            #expect(author.isDeleted)
            let request = NSFetchRequest<NSManagedObject>(entityName: "Post")
            #expect(try context.fetch(request).compactMap { $0.value(forKey: "title") as? String } == ["P2"])
        }
    }

    @Test("nullify: a to-one foreign key naming no row does not stop the delete")
    func nullifyOverDanglingForeignKey() throws {
        let store = try DamagedStore(["UPDATE ZPOST SET ZAUTHOR = 999 WHERE ZTITLE = 'P1'"])
        let context = try store.context()
        try context.performAndWait {
            context.delete(try Kit.fetchLoaded(context, "Post", "title", "P1"))
            try context.save()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Post")
            #expect(try context.fetch(request).compactMap { $0.value(forKey: "title") as? String } == ["P2"])
            #expect(try context.fetch(NSFetchRequest<NSManagedObject>(entityName: "User")).count == 1)
        }
    }

    @Test("nullify, many-to-many: a join row naming no row does not stop the delete")
    func nullifyOverDanglingJoinRow() throws {
        // Course is entity 1 and Student entity 12 of the model (entities are numbered by name).
        let store = try DamagedStore(["INSERT INTO Z_1STUDENTS (Z_1COURSES, Z_12STUDENTS) SELECT Z_PK, 999 FROM ZCOURSE WHERE ZTITLE = 'iOS'"])
        let context = try store.context()
        try context.performAndWait {
            context.delete(try Kit.fetchLoaded(context, "Student", "name", "Bob"))
            try context.save()
            let ios = try Kit.fetchLoaded(context, "Course", "title", "iOS")
            #expect(ios.relatedNames("students") == ["Alice"])
        }
    }
}
