import Foundation
import Testing

@testable import OpenCoreDataCore

/// How long the coordinator's row cache keeps the rows its contexts read: while an object holds one.
/// A coordinator usually outlives its contexts (a container's background contexts, one context per
/// request on a server); the rows of contexts that are gone must not pile up in it.
@Suite("Row cache retention")
struct RowCacheRetentionTests {
    /// A coordinator (with nothing cached yet) on a blog store in `directory` holding `count` tags
    /// labelled t1…tN.
    private func coordinator(in directory: URL, tags count: Int) throws -> NSPersistentStoreCoordinator {
        try StoreKit.tagCoordinator(at: directory.appendingPathComponent("Blog.sqlite"), tags: count)
    }

    private func context(_ coordinator: NSPersistentStoreCoordinator) -> NSManagedObjectContext {
        let context = NSManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        context.persistentStoreCoordinator = coordinator
        return context
    }

    /// The tags with labels t`first`…t`last`, as faults.
    private func tags(_ first: Int, _ last: Int, in context: NSManagedObjectContext) throws -> [NSManagedObject] {
        let request = StoreKit.request("Tag", sort: [NSSortDescriptor(key: "label", ascending: true)])
        request.predicate = NSPredicate(format: "label IN %@", (first...last).map { "t\($0)" })
        return try context.performAndWait { try context.fetch(request) }
    }

    @Test("contexts that come and go on one coordinator leave none of their rows in its cache")
    func shortLivedContexts() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let coordinator = try coordinator(in: directory, tags: 300)
        for round in 0..<3 {
            do {
                let context = context(coordinator)
                let fetched = try tags(round * 100 + 1, round * 100 + 100, in: context)
                context.performAndWait {
                    #expect(fetched.count == 100)
                    #expect(fetched.allSatisfy { $0.value(forKey: "label") is String })
                    // The fetch into the empty cache left its rows unindexed (counting them all would index them).
                    #expect(coordinator._rowCache.unindexedFetchedRowCount == 100)
                }
            }
            #expect(coordinator._rowCache.count == 0, "round \(round)")
        }
    }

    @Test("reset() lets go of the rows of the objects it forgets")
    func resetForgetsRows() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let coordinator = try coordinator(in: directory, tags: 40)
        let context = context(coordinator)
        #expect(try tags(1, 40, in: context).count == 40)
        #expect(coordinator._rowCache.unindexedFetchedRowCount == 40)
        context.performAndWait { context.reset() }
        #expect(coordinator._rowCache.count == 0)
        // The context reads the rows again when it needs them.
        let again = try tags(1, 40, in: context)
        context.performAndWait { #expect(again.compactMap { $0.value(forKey: "label") as? String }.count == 40) }
    }

    @Test(
        "a row an object still holds stays cached when its context goes away; the others go",
        arguments: [1, 2])
    func heldRowsStay(fetches: Int) throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let coordinator = try coordinator(in: directory, tags: 20)
        var kept: [NSManagedObject] = []
        do {
            let context = context(coordinator)
            // One fetch into the empty cache leaves its rows unindexed; a second indexes them all.
            if fetches == 1 {
                kept = [try tags(1, 20, in: context)[0]]
            } else {
                kept = [try tags(1, 10, in: context)[0], try tags(11, 20, in: context)[0]]
            }
        }
        #expect(coordinator._rowCache.count == kept.count)
        for object in kept {
            let label = try #require(coordinator._rowCache.row(for: object.objectID)?.values["label"] as? String)
            #expect(label == "t1" || label == "t11")
        }
    }

    @Test("a context that goes away takes its rows with it, and leaves the rows of a context still using them")
    func rowsOfLiveContextsStay() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let coordinator = try coordinator(in: directory, tags: 100)
        // The first fetch into an empty cache leaves its rows unindexed; the second fetch's are indexed.
        let staying = context(coordinator)
        let held = try tags(1, 50, in: staying)
        do {
            let leaving = context(coordinator)
            #expect(try tags(51, 100, in: leaving).count == 50)
            #expect(coordinator._rowCache.count == 100)
        }
        #expect(coordinator._rowCache.count == 50)
        // The staying context's faults still fire from their rows.
        staying.performAndWait {
            #expect(held.compactMap { $0.value(forKey: "label") as? String }.sorted() == (1...50).map { "t\($0)" }.sorted())
        }
        withExtendedLifetime(staying) {}
    }

    @Test("a context that lets go of unreferenced objects lets go of their rows, and keeps the rows of objects the app keeps")
    func releasedObjectsForgetRows() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let coordinator = try coordinator(in: directory, tags: 30)
        let context = context(coordinator)
        context.performAndWait { context.retainsRegisteredObjects = true }
        let kept = Array(try tags(1, 30, in: context).prefix(5))
        #expect(coordinator._rowCache.count == 30)
        // Switching retention off lets go at once of the objects nothing else refers to.
        context.performAndWait { context.retainsRegisteredObjects = false }
        #expect(coordinator._rowCache.count == 5)
        context.performAndWait { #expect(kept.allSatisfy { $0.value(forKey: "label") is String }) }
    }

    @Test("a context that saved new objects and goes away leaves none of their rows; objects the app keeps read their own values")
    func savedRows() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let coordinator = try coordinator(in: directory, tags: 1)
        var kept: [NSManagedObject] = []
        do {
            let context = context(coordinator)
            try context.performAndWait {
                let tags = (1...20).map { number in
                    let tag = NSEntityDescription.insertNewObject(forEntityName: "Tag", into: context)
                    tag.setValue("new\(number)", forKey: "label")
                    return tag
                }
                try context.save()
                kept = Array(tags.prefix(3))
            }
            // (Not counted here: counting would index the save's rows, which are left unindexed.)
        }
        // A saved object keeps its values as its own snapshot, not as the cache's row.
        #expect(coordinator._rowCache.count == 0)
        #expect(kept.compactMap { $0.value(forKey: "label") as? String } == ["new1", "new2", "new3"])
        // Another context reads them from the store.
        let reader = context(coordinator)
        let read = try tags(1, 1, in: reader)
        #expect(read.count == 1)
        let again = try reader.performAndWait { try reader.existingObject(with: kept[0].objectID).value(forKey: "label") as? String }
        #expect(again == "new1")
    }
}
