import OpenCoreData
import Testing

/// A main-queue context changed on the main thread announces the change at the end of the main queue's
/// turn, without an explicit `processPendingChanges()`, as Apple's Core Data does at the end of the run
/// loop's turn.
@Suite("Main-queue change announcements", .serialized)
struct MainQueueChangeAnnouncementTests {
    @MainActor
    @Test("a change made on the main thread posts ObjectsDidChange at the end of the turn, the object under NSUpdatedObjectsKey")
    func endOfTurn() async throws {
        let stack = try GraphStack(.sqlite)
        let writer = stack.context()
        writer.make("Tag", ["name": "before"])
        try writer.save()

        let context = NSManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.persistentStoreCoordinator = stack.coordinator
        let tag = try #require(try context.all("Tag").first)
        let recorder = NotificationRecorder([.NSManagedObjectContextObjectsDidChange], object: context)
        tag.setValue("after", forKey: "name")
        #expect(recorder.notifications.isEmpty)
        // Sleeping lets the main queue finish its turn.
        for _ in 0..<500 where recorder.notifications.isEmpty {
            try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(recorder.notifications.count == 1)
        #expect(recorder.notifications.first?.objects(NSUpdatedObjectsKey) == [tag])
    }
}
