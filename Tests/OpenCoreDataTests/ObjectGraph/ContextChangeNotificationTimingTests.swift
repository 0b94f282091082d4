import OpenCoreData
import Testing

/// When a context announces its changes without an explicit `processPendingChanges()`, as Apple's Core
/// Data does: at the end of a `perform` block; a change made in `performAndWait` is flushed by the next
/// `perform` block, with exactly one notification.
@Suite("Change notification timing", .serialized)
struct ContextChangeNotificationTimingTests {
    @Test("a change made inside perform posts NSManagedObjectContextObjectsDidChange when the block ends")
    func performPostsAtEnd() async throws {
        let stack = try GraphStack(.sqlite)
        let context = stack.context()
        let recorder = NotificationRecorder([.NSManagedObjectContextObjectsDidChange], object: context)
        let postedInside = await context.perform {
            context.make("Tag", ["name": "t"])
            return recorder.notifications.count
        }
        #expect(postedInside == 0)
        let seen = await eventually { recorder.notifications.count == 1 }
        #expect(seen)
        #expect(recorder.notifications.first?.objects(NSInsertedObjectsKey).count == 1)
    }

    @Test("a change made in performAndWait is flushed by the next perform block, which posts exactly one notification")
    func performAndWaitFlushedByNextPerform() async throws {
        let stack = try GraphStack(.sqlite)
        let context = stack.context()
        let recorder = NotificationRecorder([.NSManagedObjectContextObjectsDidChange], object: context)
        context.performAndWait { _ = context.make("Tag", ["name": "t"]) }
        #expect(recorder.notifications.isEmpty)
        await context.perform {}
        let seen = await eventually { recorder.notifications.count == 1 }
        #expect(seen)
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(recorder.notifications.count == 1)
        #expect(recorder.notifications.last?.objects(NSInsertedObjectsKey).count == 1)
    }
}
