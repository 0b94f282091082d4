import OpenCoreData
import Testing

/// Counts `prepareForDeletion()` calls per object.
final class CountingDeletionObject: NSManagedObject {
    nonisolated(unsafe) static var prepared: [String: Int] = [:]

    override func prepareForDeletion() {
        super.prepareForDeletion()
        let name = value(forKey: "name") as? String ?? "?"
        Self.prepared[name, default: 0] += 1
    }
}

@Suite("Delete rules", .serialized)
struct DeleteRuleTests {
    @Test("nullify: deleting a post removes it from its author's posts at processPendingChanges and in the store", arguments: TestStoreKind.allCases)
    func nullify(kind: TestStoreKind) throws {
        let stack = try GraphRulesModel.stack(kind)
        let context = stack.context()
        let ann = context.make("User", ["name": "Ann"])
        let keep = context.make("Post", ["title": "Keep", "author": ann])
        let drop = context.make("Post", ["title": "Drop", "author": ann])
        try context.save()
        context.delete(drop)
        #expect(ann.related("posts").count == 2)
        context.processPendingChanges()
        #expect(ann.related("posts").map { $0 === keep } == [true])
        #expect(drop.isDeleted)
        try context.save()
        let fresh = stack.context()
        #expect(try fresh.all("User").first?.relatedNames("posts", "title") == ["Keep"])
        #expect(try fresh.all("Post").count == 1)
    }

    @Test("nullify on a many-to-many removes the deleted object from every partner", arguments: TestStoreKind.allCases)
    func nullifyManyToMany(kind: TestStoreKind) throws {
        let stack = try GraphRulesModel.stack(kind)
        let context = stack.context()
        let alice = context.make("Student", ["name": "Alice"])
        let bob = context.make("Student", ["name": "Bob"])
        let ios = context.make("Course", ["title": "iOS"])
        ios.mutableSetValue(forKey: "students").addObjects(from: [alice, bob])
        try context.save()
        context.delete(ios)
        try context.save()
        #expect(alice.related("courses").isEmpty && bob.related("courses").isEmpty)
        let fresh = stack.context()
        #expect(try fresh.all("Student").allSatisfy { $0.related("courses").isEmpty })
        #expect(try fresh.all("Course").isEmpty)
    }

    @Test("cascade deletes the destinations transitively, and a cycle of cascades ends", arguments: TestStoreKind.allCases)
    func cascade(kind: TestStoreKind) throws {
        let stack = try GraphRulesModel.stack(kind)
        let context = stack.context()
        let ann = context.make("User", ["name": "Ann"])
        let bob = context.make("User", ["name": "Bob"])
        let posts = (1...3).map { context.make("Post", ["title": "P\($0)", "author": ann]) }
        context.make("Post", ["title": "Bob's", "author": bob])
        // A tree whose children cascade to the parent and the parent to the children: a cycle.
        let root = context.make("Node", ["name": "root"])
        let child = context.make("Node", ["name": "child", "parent": root])
        let grandchild = context.make("Node", ["name": "grandchild", "parent": child])
        let other = context.make("Node", ["name": "other"])
        try context.save()

        context.delete(ann)
        context.delete(grandchild)
        context.processPendingChanges()
        #expect(posts.allSatisfy { $0.isDeleted })
        #expect([root, child, grandchild].allSatisfy { $0.isDeleted })
        #expect(!other.isDeleted && !bob.isDeleted)
        #expect(context.deletedObjects.count == 1 + 3 + 3)
        try context.save()

        let fresh = stack.context()
        #expect(try fresh.all("User").map { $0.value(forKey: "name") as? String } == ["Bob"])
        #expect(try fresh.all("Post").map { $0.value(forKey: "title") as? String } == ["Bob's"])
        #expect(try fresh.all("Node").map { $0.value(forKey: "name") as? String } == ["other"])
    }

    @Test("cascade from an object inserted and deleted before saving deletes its new destinations too")
    func cascadeUnsaved() throws {
        let stack = try GraphRulesModel.stack(.sqlite)
        let context = stack.context()
        let ann = context.make("User", ["name": "Ann"])
        let post = context.make("Post", ["title": "P", "author": ann])
        context.delete(ann)
        try context.save()
        #expect(post.managedObjectContext == nil)
        #expect(try stack.context().all("Post").isEmpty)
        #expect(!context.hasChanges)
    }

    @Test("deny: the save fails with 1600 while the relationship is not empty and succeeds once it is", arguments: TestStoreKind.allCases)
    func deny(kind: TestStoreKind) throws {
        let stack = try GraphRulesModel.stack(kind)
        let context = stack.context()
        let writer = context.make("Writer", ["name": "Rowling"])
        let book = context.make("Volume", ["title": "HP1", "writer": writer])
        try context.save()
        context.delete(writer)
        #expect {
            try context.save()
        } throws: { error in
            let error = error as NSError
            return error.domain == NSCocoaErrorDomain && error.code == NSValidationRelationshipDeniedDeleteError
                && error.userInfo[NSValidationKeyErrorKey] as? String == "volumes"
                && (error.userInfo[NSValidationObjectErrorKey] as? NSManagedObject) === writer
        }
        #expect(writer.isDeleted)
        #expect(book.toOne("writer") === writer)
        #expect(try stack.context().all("Writer").count == 1)
        // Deleting the book too nullifies it out of the writer's volumes: the save goes through.
        context.delete(book)
        try context.save()
        let fresh = stack.context()
        #expect(try fresh.all("Writer").isEmpty && fresh.all("Volume").isEmpty)
    }

    @Test("no action leaves the destinations pointing at the deleted object", arguments: TestStoreKind.allCases)
    func noAction(kind: TestStoreKind) throws {
        let stack = try GraphRulesModel.stack(kind)
        let context = stack.context()
        let shelf = context.make("Shelf", ["name": "S"])
        let item = context.make("Item", ["name": "I", "shelf": shelf])
        try context.save()
        context.delete(shelf)
        context.processPendingChanges()
        #expect(item.toOne("shelf") === shelf)
        #expect(!item.isUpdated)
        try context.save()
        #expect(try stack.context().all("Shelf").isEmpty)
    }

    @Test("prepareForDeletion runs at every delete(_:) of an object (twice for ann), once for a cascaded one")
    func prepareForDeletionOnce() throws {
        let model = GraphRulesModel.make()
        for name in ["User", "Post"] {
            model.entitiesByName[name]?.managedObjectClassName = String(reflecting: CountingDeletionObject.self)
        }
        let post = try #require(model.entitiesByName["Post"])
        post.properties += [ModelKit.attribute("name", .stringAttributeType)]
        let stack = try GraphStack(.sqlite, model: model)
        let context = stack.context()
        CountingDeletionObject.prepared = [:]
        let ann = context.make("User", ["name": "ann"])
        context.make("Post", ["title": "t", "name": "post", "author": ann])
        try context.save()
        context.delete(ann)
        context.delete(ann)
        context.processPendingChanges()
        context.processPendingChanges()
        try context.save()
        #expect(CountingDeletionObject.prepared == ["ann": 2, "post": 1])
    }

    @Test("deleting an object twice, or one that belongs to no context, does nothing more")
    func deleteTwiceAndUnregistered() throws {
        let stack = try GraphRulesModel.stack(.sqlite)
        let context = stack.context()
        let ann = context.make("User", ["name": "Ann"])
        try context.save()
        context.delete(ann)
        context.delete(ann)
        #expect(context.deletedObjects.count == 1)
        try context.save()
        context.delete(ann)
        #expect(!context.hasChanges)
        let loose = NSManagedObject(entity: try #require(stack.model.entitiesByName["User"]), insertInto: nil)
        context.delete(loose)
        #expect(!context.hasChanges)
        try context.save()
    }
}
