import OpenCoreData
import Testing

/// `NSPersistentStoreCoordinatorStoresDidChange` and `NSPersistentStoreCoordinatorWillRemoveStore`:
/// observers learn which stores a coordinator gained, lost or replaced.
@Suite("Store change notifications")
struct StoreChangeNotificationTests {
    static func model() -> NSManagedObjectModel {
        let model = NSManagedObjectModel()
        model.entities = [ModelKit.entity("Item", [ModelKit.attribute("name", .stringAttributeType)])]
        return model
    }

    static func stores(_ note: Notification, _ key: String) -> [NSPersistentStore] {
        (note.userInfo?[key] as? [NSPersistentStore]) ?? []
    }

    @Test("adding and removing a store posts StoresDidChange naming it; removing posts WillRemoveStore first")
    func addAndRemove() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let recorder = NotificationRecorder([.NSPersistentStoreCoordinatorStoresDidChange], object: coordinator)
        let store = try coordinator.addPersistentStore(type: .sqlite, at: directory.appendingPathComponent("A.sqlite"))
        let added = recorder.named(.NSPersistentStoreCoordinatorStoresDidChange)
        try #require(added.count == 1)
        #expect(added[0].object as AnyObject? === coordinator)
        #expect(Self.stores(added[0], NSAddedPersistentStoresKey).map(ObjectIdentifier.init) == [ObjectIdentifier(store)])
        #expect(added[0].userInfo?[NSRemovedPersistentStoresKey] == nil)

        let removal = NotificationRecorder([.NSPersistentStoreCoordinatorWillRemoveStore], object: store)
        let storeCountAtWillRemove = LockedCount()
        let observer = NotificationCenter.default.addObserver(
            forName: .NSPersistentStoreCoordinatorWillRemoveStore,
            object: store, queue: nil
        ) { _ in
            storeCountAtWillRemove.set(coordinator.persistentStores.count)
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        recorder.clear()
        try coordinator.remove(store)
        #expect(removal.named(.NSPersistentStoreCoordinatorWillRemoveStore).count == 1)
        #expect(storeCountAtWillRemove.value == 1)  // still in the coordinator when announced
        let removed = recorder.named(.NSPersistentStoreCoordinatorStoresDidChange)
        try #require(removed.count == 1)
        #expect(Self.stores(removed[0], NSRemovedPersistentStoresKey).map(ObjectIdentifier.init) == [ObjectIdentifier(store)])
        #expect(removed[0].userInfo?[NSAddedPersistentStoresKey] == nil)

        // A store that is not in the coordinator: an error and no notification.
        recorder.clear()
        #expect(throws: NSError.self) { try coordinator.remove(store) }
        #expect(recorder.notifications.isEmpty)
        #expect(removal.named(.NSPersistentStoreCoordinatorWillRemoveStore).count == 1)
    }

    @Test("a store that fails to open posts nothing")
    func failedAddPostsNothing() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Broken.sqlite")
        try Data("not a database, just text long enough to be read as a header".utf8).write(to: url)
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let recorder = NotificationRecorder([.NSPersistentStoreCoordinatorStoresDidChange], object: coordinator)
        #expect(throws: NSError.self) { try coordinator.addPersistentStore(type: .sqlite, at: url) }
        #expect(recorder.notifications.isEmpty)
    }

    @Test("migrating a store posts one StoresDidChange with the new store added, the old removed and both as changed")
    func migrate() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let coordinator = NSPersistentStoreCoordinator(managedObjectModel: Self.model())
        let old = try coordinator.addPersistentStore(type: .sqlite, at: directory.appendingPathComponent("Old.sqlite"))
        let recorder = NotificationRecorder([.NSPersistentStoreCoordinatorStoresDidChange], object: coordinator)
        let removal = NotificationRecorder([.NSPersistentStoreCoordinatorWillRemoveStore], object: old)
        let new = try coordinator.migratePersistentStore(
            old, to: directory.appendingPathComponent("New.sqlite"),
            options: nil, type: .sqlite)
        let notes = recorder.named(.NSPersistentStoreCoordinatorStoresDidChange)
        try #require(notes.count == 1)
        #expect(Self.stores(notes[0], NSAddedPersistentStoresKey).map(ObjectIdentifier.init) == [ObjectIdentifier(new)])
        #expect(Self.stores(notes[0], NSRemovedPersistentStoresKey).map(ObjectIdentifier.init) == [ObjectIdentifier(old)])
        #expect(
            Self.stores(notes[0], NSUUIDChangedPersistentStoresKey).map(ObjectIdentifier.init)
                == [ObjectIdentifier(old), ObjectIdentifier(new)])
        #expect(removal.named(.NSPersistentStoreCoordinatorWillRemoveStore).count == 1)
    }
}

/// An integer set from a notification observer and read by the test.
final class LockedCount: @unchecked Sendable {
    // @unchecked Sendable: `stored` is only touched while holding `lock`.
    private let lock = NSLock()
    private var stored: Int?
    func set(_ value: Int) { lock.withLock { stored = value } }
    var value: Int? { lock.withLock { stored } }
}
