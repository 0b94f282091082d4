import OpenCoreData

/// Records the notifications one object posts under some names, for the multi-context tests.
final class NotificationRecorder: @unchecked Sendable {
    // @unchecked Sendable: `received` is only touched while holding `lock`; the observers are removed in deinit.
    private let lock = NSLock()
    private var received: [Notification] = []
    private var observers: [NSObjectProtocol] = []

    init(_ names: [Notification.Name], object: AnyObject?) {
        for name in names {
            let observer = NotificationCenter.default.addObserver(forName: name, object: object, queue: nil) { [weak self] note in
                guard let self else { return }
                self.lock.withLock { self.received.append(note) }
            }
            observers.append(observer)
        }
    }

    deinit {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
    }

    /// Every notification received so far, in order.
    var notifications: [Notification] {
        lock.withLock { received }
    }

    /// The notifications of one name.
    func named(_ name: Notification.Name) -> [Notification] {
        notifications.filter { $0.name == name }
    }

    /// Forgets what was received.
    func clear() {
        lock.withLock { received = [] }
    }
}

extension Notification {
    /// The managed objects under a key of the notification's `userInfo`.
    func objects(_ key: String) -> Set<NSManagedObject> {
        userInfo?[key] as? Set<NSManagedObject> ?? []
    }

    /// The object IDs under a key of the notification's `userInfo`.
    func objectIDs(_ key: String) -> Set<NSManagedObjectID> {
        userInfo?[key] as? Set<NSManagedObjectID> ?? []
    }
}

extension NSManagedObject {
    /// A string attribute's value, read through Key-Value Coding.
    func string(_ key: String) -> String? {
        value(forKey: key) as? String
    }
}

/// Waits, polling, until a condition holds or about ten seconds passed; returns whether it held.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<1000 {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 10_000_000)
    }
    return condition()
}
