import OpenCoreData
import Testing

/// `NSMergePolicy` subclasses resolve conflicts their own way: the save hands them the conflicts,
/// tries again with what they decided, and still writes everything or nothing.
@Suite("Merge policy subclasses")
struct MergePolicySubclassTests {
    /// Adds both sides' increments of `views`, then lets object-trump settle the rest.
    final class CountingPolicy: NSMergePolicy, @unchecked Sendable {
        nonisolated(unsafe) var seen: [NSMergeConflict] = []

        init() { super.init(merge: .mergeByPropertyObjectTrumpMergePolicyType) }

        override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
            seen += list
            for conflict in list {
                // What the context read, and what the coordinator (or, when newer, the store) holds now.
                let read = (conflict.objectSnapshot?["views"] as? NSNumber)?.intValue ?? 0
                let stored = ((conflict.persistedSnapshot ?? conflict.cachedSnapshot)?["views"] as? NSNumber)?.intValue ?? 0
                let mine = (conflict.sourceObject.value(forKey: "views") as? NSNumber)?.intValue ?? 0
                conflict.sourceObject.setValue(stored + (mine - read), forKey: "views")
            }
            try super.resolve(optimisticLockingConflicts: list)
        }
    }

    /// Records what it is given and refuses, through the error policy.
    final class RefusingPolicy: NSMergePolicy, @unchecked Sendable {
        nonisolated(unsafe) var lists: [[Any]] = []

        init() { super.init(merge: .errorMergePolicyType) }

        override func resolve(mergeConflicts list: [Any]) throws {
            lists.append(list)
            try super.resolve(mergeConflicts: list)
        }
    }

    /// Renames the inserted duplicates of a constraint instead of merging them.
    final class RenamingPolicy: NSMergePolicy, @unchecked Sendable {
        init() { super.init(merge: .errorMergePolicyType) }

        override func resolve(constraintConflicts list: [NSConstraintConflict]) throws {
            for conflict in list {
                for (index, object) in conflict.conflictingObjects.enumerated() where object.objectID.isTemporaryID {
                    let name = object.value(forKey: "name") as? String ?? ""
                    object.setValue("\(name) (\(index + 2))", forKey: "name")
                }
            }
        }
    }

    /// Sets a value and returns without calling `super`.
    final class SilentPolicy: NSMergePolicy, @unchecked Sendable {
        init() { super.init(merge: .errorMergePolicyType) }

        override func resolve(optimisticLockingConflicts list: [NSMergeConflict]) throws {
            for conflict in list { conflict.sourceObject.setValue("Decided", forKey: "title") }
        }
    }

    /// A post saved with views 1, read by `mine`, then changed elsewhere by `theirs`.
    private func editors(theirs: (NSManagedObject) -> Void) throws -> (GraphStack, NSManagedObjectContext, NSManagedObject) {
        let stack = try GraphStack()
        let setup = stack.context()
        setup.make("Post", ["title": "Original", "body": "Body", "views": 1])
        try setup.save()
        let mine = stack.context()
        let post = try #require(try mine.all("Post").first)
        _ = post.value(forKey: "views")
        let other = stack.context()
        theirs(try #require(try other.all("Post").first))
        try other.save()
        return (stack, mine, post)
    }

    @Test("an overriding resolve(optimisticLockingConflicts:) combines both sides' counters and super finishes the merge")
    func countingPolicy() throws {
        let (stack, mine, post) = try editors {
            $0.setValue(5, forKey: "views")
            $0.setValue("Theirs", forKey: "title")
        }
        let policy = CountingPolicy()
        mine.mergePolicy = policy
        post.setValue(3, forKey: "views")
        try mine.save()
        #expect(policy.seen.count == 1)
        #expect(policy.seen.first?.sourceObject === post)
        let stored = try #require(try stack.storedValues("Post").first)
        #expect(stored["views"] as? Int == 7)
        #expect(stored["title"] as? String == "Theirs")
    }

    @Test("resolve(mergeConflicts:) receives the conflicts; super with the error type fails the save")
    func refusingPolicy() throws {
        let (stack, mine, post) = try editors { $0.setValue("Theirs", forKey: "title") }
        let policy = RefusingPolicy()
        mine.mergePolicy = policy
        post.setValue("Mine", forKey: "title")
        let error = try #require(throws: NSError.self) { try mine.save() }
        #expect(error.code == NSManagedObjectMergeError)
        #expect(policy.lists.count == 1)
        #expect((policy.lists.first?.first as? NSMergeConflict)?.sourceObject === post)
        #expect(try stack.storedValues("Post").first?["title"] as? String == "Theirs")
    }

    @Test("a policy that returns without calling super: the object's current state wins")
    func silentPolicy() throws {
        let (stack, mine, post) = try editors {
            $0.setValue("Theirs", forKey: "title")
            $0.setValue("Their body", forKey: "body")
        }
        mine.mergePolicy = SilentPolicy()
        post.setValue(2, forKey: "views")
        try mine.save()
        let stored = try #require(try stack.storedValues("Post").first)
        #expect(stored["title"] as? String == "Decided")
        #expect(stored["body"] as? String == "Their body")
        #expect(stored["views"] as? Int == 2)
    }

    @Test("an overriding resolve(constraintConflicts:) renames the duplicate and the save stores both")
    func renamingPolicy() throws {
        let stack = try GraphStack(model: ConstraintModel.make())
        let setup = stack.context()
        setup.make("Tag", ["name": "swift"])
        try setup.save()
        let context = stack.context()
        context.mergePolicy = RenamingPolicy()
        let tag = context.make("Tag", ["name": "swift"])
        try context.save()
        #expect(tag.value(forKey: "name") as? String == "swift (2)")
        let names = try stack.storedValues("Tag", sortedBy: "name").compactMap { $0["name"] as? String }
        #expect(names == ["swift", "swift (2)"])
    }
}
