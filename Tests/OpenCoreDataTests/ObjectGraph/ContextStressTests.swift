import OpenCoreData
import Testing

/// What one worker committed: the posts it owns that exist after its last successful save, with their
/// view counts, and how many times it incremented the shared counter.
private struct CommittedWork: Sendable {
    var posts: [String: Int64] = [:]
    var increments = 0
}

@Suite("Many contexts working at once", .tags(.stress))
struct ContextStressTests {
    /// Worker contexts, rounds each worker runs at least, and how long they keep going.
    private static let workers = 4
    private static let minimumRounds = 25
    private static let duration: TimeInterval = 3

    @Test(
        "private contexts insert, update, delete and fetch the same entities at once, merging each other's saves; the store holds exactly the committed work"
    )
    func concurrentWork() async throws {
        let stack = try GraphStack()
        let setup = stack.context()
        let counterID = try setup.performAndWait {
            let counter = setup.make("Author", ["name": "counter", "age": Int16(0)])
            try setup.save()
            return counter.objectID
        }
        let deadline = Date().addingTimeInterval(Self.duration)

        let results = try await withThrowingTaskGroup(of: CommittedWork.self) { group in
            for worker in 0..<Self.workers {
                let context = stack.context()
                context.name = "worker \(worker)"
                context.automaticallyMergesChangesFromParent = true
                group.addTask {
                    try await Self.work(worker, context: context, counterID: counterID, deadline: deadline)
                }
            }
            var all: [CommittedWork] = []
            for try await result in group { all.append(result) }
            return all
        }

        let reader = stack.context()
        let (stored, counter) = try reader.performAndWait {
            let posts = try reader.all("Post")
            var stored: [String: Int64] = [:]
            for post in posts {
                let title = post.string("title") ?? ""
                #expect(stored[title] == nil, "duplicate post \(title)")
                stored[title] = post.value(forKey: "views") as? Int64
            }
            let counter = try reader.existingObject(with: counterID).value(forKey: "age") as? Int16
            return (stored, counter)
        }
        var expected: [String: Int64] = [:]
        for result in results { expected.merge(result.posts) { $1 } }
        #expect(stored == expected)
        #expect(Int(counter ?? -1) == results.reduce(0) { $0 + $1.increments })
        #expect(results.allSatisfy { $0.increments > 0 })
    }

    @Test(
        "private contexts that fetch no rows at the same moment share no written state (CI repeats this under ThreadSanitizer: ocd selftest concurrency-stress)"
    )
    func concurrentEmptyFetches() async throws {
        let stack = try GraphStack()
        let fetched = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<Self.workers {
                let context = stack.context()
                group.addTask {
                    var total = 0
                    for _ in 0..<200 {
                        // Each fetch begins with an empty context, as a new context's first fetch does.
                        total += try await context.perform {
                            defer { context.reset() }
                            return try context.all("Post").count
                                + context.all("Post", predicate: NSPredicate(format: "views > 0")).count
                        }
                    }
                    return total
                }
            }
            var total = 0
            for try await count in group { total += count }
            return total
        }
        #expect(fetched == 0)
    }

    /// One worker's rounds: insert two posts, bump the views of one of its posts, delete one, fetch
    /// everyone's posts, and increment the shared counter (retrying on optimistic-locking conflicts).
    private static func work(
        _ worker: Int, context: NSManagedObjectContext, counterID: NSManagedObjectID,
        deadline: Date
    ) async throws -> CommittedWork {
        var committed = CommittedWork()
        var round = 0
        while round < minimumRounds || Date() < deadline {
            let current = round
            let before = committed
            committed = try await context.perform {
                var next = before
                let mine = try context.all("Post", predicate: NSPredicate(format: "title BEGINSWITH %@", "w\(worker)-"))
                for index in 0..<2 {
                    let title = "w\(worker)-\(current)-\(index)"
                    context.make("Post", ["title": title, "views": Int64(0)])
                    next.posts[title] = 0
                }
                if let post = mine.first(where: { !$0.isDeleted }), let title = post.string("title") {
                    let views = (post.value(forKey: "views") as? Int64 ?? 0) + 1
                    post.setValue(views, forKey: "views")
                    next.posts[title] = views
                }
                if current % 3 == 2, let victim = mine.last(where: { !$0.isDeleted }), let title = victim.string("title") {
                    context.delete(victim)
                    next.posts[title] = nil
                }
                try context.save()
                _ = try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Post"))
                _ = try context.all("Post", predicate: NSPredicate(format: "views > 0")).map { $0.value(forKey: "views") }
                return next
            }
            if try await incrementCounter(context, counterID) { committed.increments += 1 }
            round += 1
        }
        return committed
    }

    /// Adds one to the shared counter; on a conflict, refreshes and tries again. Returns whether the
    /// increment was saved.
    private static func incrementCounter(_ context: NSManagedObjectContext, _ counterID: NSManagedObjectID) async throws -> Bool {
        for _ in 0..<200 {
            let saved = try await context.perform { () throws -> Bool in
                let counter = try context.existingObject(with: counterID)
                let age = counter.value(forKey: "age") as? Int16 ?? 0
                counter.setValue(age + 1, forKey: "age")
                do {
                    try context.save()
                    return true
                } catch let error as NSError where error.code == NSManagedObjectMergeError {
                    context.rollback()
                    context.refresh(counter, mergeChanges: false)
                    return false
                }
            }
            if saved { return true }
        }
        return false
    }
}
