import OpenCoreData
import Testing

/// Two contexts edit the same object; the second save meets an optimistic-locking conflict that its
/// merge policy resolves (or, by default, reports). The cases follow the second seed: property-level
/// policies (store-trump, object-trump) keep the other side's non-conflicting changes, whole-object
/// policies (overwrite, rollback) replace everything.
@Suite("Merge policies")
struct MergePolicyTests {
    /// A store holding one post saved as (title "Original", body "Body", views 1), a context that read
    /// it, and a second context that changed it since.
    struct TwoEditors {
        let stack: GraphStack
        let mine: NSManagedObjectContext
        let post: NSManagedObject

        /// Saves the post, lets `mine` read it, then applies `theirs` in another context and saves that.
        init(_ kind: TestStoreKind = .sqlite, theirs: (NSManagedObject) -> Void) throws {
            stack = try GraphStack(kind)
            let setup = stack.context()
            setup.make("Post", ["title": "Original", "body": "Body", "views": 1])
            try setup.save()

            mine = stack.context()
            post = try #require(try mine.all("Post").first)
            #expect(post.value(forKey: "title") as? String == "Original")

            let other = stack.context()
            let theirCopy = try #require(try other.all("Post").first)
            theirs(theirCopy)
            try other.save()
        }

        /// The post's values as a fresh context reads them from the store.
        func stored() throws -> [String: Any] {
            let rows = try stack.storedValues("Post")
            #expect(rows.count == 1)
            return try #require(rows.first)
        }
    }

    @Test(
        "the default policy is NSErrorMergePolicy: the save fails with 133020 and NSMergeConflicts, nothing is written, changes stay",
        arguments: TestStoreKind.allCases)
    func errorPolicy(kind: TestStoreKind) throws {
        let editors = try TwoEditors(kind) { $0.setValue("Theirs", forKey: "title") }
        #expect((editors.mine.mergePolicy as? NSMergePolicy) === NSMergePolicy.error)
        editors.post.setValue("Mine", forKey: "title")
        let error = try #require(throws: NSError.self) { try editors.mine.save() }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSManagedObjectMergeError)
        let conflicts = try #require(error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])
        #expect(conflicts.count == 1)
        let conflict = try #require(conflicts.first)
        #expect(conflict.sourceObject === editors.post)
        #expect(conflict.oldVersionNumber == 1)
        #expect(conflict.newVersionNumber == 2)
        // Apple's Core Data: objectSnapshot is what the failing context read, cachedSnapshot what the
        // coordinator holds now; both contexts share the coordinator, so persistedSnapshot is nil.
        #expect(conflict.objectSnapshot?["title"] as? String == "Original")
        #expect(conflict.cachedSnapshot?["title"] as? String == "Theirs")
        #expect(conflict.persistedSnapshot == nil)
        #expect(try editors.stored()["title"] as? String == "Theirs")
        #expect(editors.post.value(forKey: "title") as? String == "Mine")
        #expect(editors.mine.hasChanges)
    }

    @Test("a conflicting property: store-trump keeps the store's value, object-trump keeps mine", arguments: TestStoreKind.allCases)
    func conflictingProperty(kind: TestStoreKind) throws {
        for (policy, expected) in [(NSMergeByPropertyStoreTrumpMergePolicy, "Theirs"), (NSMergeByPropertyObjectTrumpMergePolicy, "Mine")] {
            let editors = try TwoEditors(kind) { $0.setValue("Theirs", forKey: "title") }
            editors.mine.mergePolicy = policy
            editors.post.setValue("Mine", forKey: "title")
            try editors.mine.save()
            #expect(try editors.stored()["title"] as? String == expected)
            #expect(editors.post.value(forKey: "title") as? String == expected)
            #expect(!editors.mine.hasChanges)
        }
    }

    @Test("non-conflicting changes: property-level policies merge both sides", arguments: TestStoreKind.allCases)
    func propertyLevelMergesBothSides(kind: TestStoreKind) throws {
        for policy in [NSMergePolicy.mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump] {
            let editors = try TwoEditors(kind) { $0.setValue("Theirs", forKey: "title") }
            editors.mine.mergePolicy = policy
            editors.post.setValue("My body", forKey: "body")
            try editors.mine.save()
            let stored = try editors.stored()
            #expect(stored["title"] as? String == "Theirs", "\(policy)")
            #expect(stored["body"] as? String == "My body", "\(policy)")
            #expect(editors.post.value(forKey: "title") as? String == "Theirs")
        }
    }

    @Test("non-conflicting changes: overwrite writes my whole object, losing their change", arguments: TestStoreKind.allCases)
    func overwriteReplacesWholeObject(kind: TestStoreKind) throws {
        let editors = try TwoEditors(kind) { $0.setValue("Theirs", forKey: "title") }
        editors.mine.mergePolicy = NSOverwriteMergePolicy
        editors.post.setValue("My body", forKey: "body")
        try editors.mine.save()
        let stored = try editors.stored()
        #expect(stored["title"] as? String == "Original")
        #expect(stored["body"] as? String == "My body")
    }

    @Test("non-conflicting changes: rollback discards all of mine, keeping theirs", arguments: TestStoreKind.allCases)
    func rollbackDiscardsMine(kind: TestStoreKind) throws {
        let editors = try TwoEditors(kind) { $0.setValue("Theirs", forKey: "title") }
        editors.mine.mergePolicy = NSRollbackMergePolicy
        editors.post.setValue("My body", forKey: "body")
        try editors.mine.save()
        let stored = try editors.stored()
        #expect(stored["title"] as? String == "Theirs")
        #expect(stored["body"] as? String == "Body")
        #expect(editors.post.value(forKey: "body") as? String == "Body")
        #expect(editors.post.value(forKey: "title") as? String == "Theirs")
        #expect(!editors.mine.hasChanges)
    }

    @Test("a conflicting property: overwrite keeps mine, rollback keeps theirs")
    func wholeObjectPoliciesOnConflictingProperty() throws {
        for (policy, expected) in [(NSMergePolicy.overwrite, "Mine"), (.rollback, "Theirs")] {
            let editors = try TwoEditors { $0.setValue("Theirs", forKey: "title") }
            editors.mine.mergePolicy = policy
            editors.post.setValue("Mine", forKey: "title")
            try editors.mine.save()
            #expect(try editors.stored()["title"] as? String == expected, "\(policy)")
        }
    }

    @Test("after a resolved conflict the object saves again without a spurious conflict")
    func versionsStayInStep() throws {
        let editors = try TwoEditors { $0.setValue("Theirs", forKey: "title") }
        editors.mine.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
        editors.post.setValue("Mine", forKey: "title")
        try editors.mine.save()
        editors.mine.mergePolicy = NSErrorMergePolicy
        editors.post.setValue(7, forKey: "views")
        try editors.mine.save()
        let stored = try editors.stored()
        #expect(stored["views"] as? Int == 7)
        #expect(stored["title"] as? String == "Mine")
    }

    @Test("a resolved conflict and the save's other changes are written together, once")
    func resolvedSaveIsWhole() throws {
        let editors = try TwoEditors { $0.setValue("Theirs", forKey: "title") }
        editors.mine.mergePolicy = NSMergePolicy.mergeByPropertyStoreTrump
        editors.post.setValue("Mine", forKey: "title")
        editors.mine.make("Post", ["title": "Second"])
        editors.mine.make("Author", ["name": "Ann"])
        try editors.mine.save()
        #expect(try editors.stack.storedValues("Post", sortedBy: "title").compactMap { $0["title"] as? String } == ["Second", "Theirs"])
        #expect(try editors.stack.storedValues("Author").count == 1)
    }

    @Test("an object whose row another context deleted leaves the context under a merging policy; the error policy reports it")
    func deletedRow() throws {
        let editors = try TwoEditors { $0.managedObjectContext?.delete($0) }
        editors.post.setValue("Mine", forKey: "title")
        let error = try #require(throws: NSError.self) { try editors.mine.save() }
        let conflict = try #require((error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [NSMergeConflict])?.first)
        #expect(conflict.newVersionNumber == 0)
        #expect(conflict.persistedSnapshot == nil)

        editors.mine.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
        editors.mine.make("Author", ["name": "Ann"])
        try editors.mine.save()
        #expect(editors.post.managedObjectContext == nil)
        #expect(try editors.stack.storedValues("Post").isEmpty)
        #expect(try editors.stack.storedValues("Author").count == 1)
    }

    @Test("deleting an object another context changed: a merging policy deletes it")
    func deleteAfterTheirChange() throws {
        let editors = try TwoEditors { $0.setValue("Theirs", forKey: "title") }
        editors.mine.delete(editors.post)
        #expect(throws: NSError.self) { try editors.mine.save() }
        editors.mine.mergePolicy = NSMergePolicy.mergeByPropertyStoreTrump
        try editors.mine.save()
        #expect(try editors.stack.storedValues("Post").isEmpty)
    }

    @Test("two coordinators on one SQLite file: the Z_OPT check still finds the conflict and the policy resolves it")
    func twoCoordinators() throws {
        let stack = try GraphStack()
        let setup = stack.context()
        setup.make("Post", ["title": "Original", "body": "Body"])
        try setup.save()
        let mine = stack.context()
        let post = try #require(try mine.all("Post").first)
        _ = post.value(forKey: "title")
        let other = stack.context(try stack.secondCoordinator())
        try #require(try other.all("Post").first).setValue("Theirs", forKey: "title")
        try other.save()

        mine.mergePolicy = NSMergePolicy.mergeByPropertyObjectTrump
        post.setValue("My body", forKey: "body")
        try mine.save()
        let secondReader = stack.context(try stack.secondCoordinator())
        let stored = try #require(try secondReader.all("Post").first)
        #expect(stored.value(forKey: "title") as? String == "Theirs")
        #expect(stored.value(forKey: "body") as? String == "My body")
    }

    @Test("the policy constants, class properties and init(merge:) agree")
    func policyObjects() {
        let pairs: [(AnyObject, NSMergePolicy, NSMergePolicyType)] = [
            (NSErrorMergePolicy, .error, .errorMergePolicyType),
            (NSMergeByPropertyStoreTrumpMergePolicy, .mergeByPropertyStoreTrump, .mergeByPropertyStoreTrumpMergePolicyType),
            (NSMergeByPropertyObjectTrumpMergePolicy, .mergeByPropertyObjectTrump, .mergeByPropertyObjectTrumpMergePolicyType),
            (NSOverwriteMergePolicy, .overwrite, .overwriteMergePolicyType),
            (NSRollbackMergePolicy, .rollback, .rollbackMergePolicyType),
        ]
        for (constant, classProperty, type) in pairs {
            #expect((constant as? NSMergePolicy)?.mergeType == type)
            #expect(classProperty.mergeType == type)
            #expect(NSMergePolicy(merge: type).mergeType == type)
        }
        #expect(NSMergePolicyType.rollbackMergePolicyType.rawValue == 4)
    }
}
