import OpenCoreData

/// The `userInfo` key under which a context keeps its observations of other contexts' saves.
let MagicalRecordObservationsKey = "MagicalRecordObservations"

/// The observations of other contexts' saves a context made with `mr_observe(_:)`.
// @unchecked Sendable: `tokens` is read and written only on the observing context's queue (inside
// `performAndWait`), which serializes every access.
final class ContextObservations: @unchecked Sendable {
    var tokens: [ObjectIdentifier: any NSObjectProtocol] = [:]
}

extension NSManagedObjectContext {
    /// Merges the saves of `otherContext` into the receiver as they happen: the thread that posts a save
    /// waits while the receiver merges it on its own queue.
    ///
    /// For a main-queue receiver, the main queue must be running when another thread saves.
    public func mr_observe(_ otherContext: NSManagedObjectContext) {
        mr_addObservation(of: otherContext) { [weak self] notification in
            guard let self else { return }
            self.performAndWait { self.mergeChanges(fromContextDidSave: notification) }
        }
    }

    /// Merges the saves of `otherContext` into the receiver on the main thread, waiting for the merge
    /// when the save happens on another thread.
    public func mr_observe(onMainThread otherContext: NSManagedObjectContext) {
        mr_addObservation(of: otherContext) { [weak self] notification in
            guard let self else { return }
            if MainQueue.isCurrent {
                self.mergeChanges(fromContextDidSave: notification)
            } else {
                let box = NotificationBox(notification)
                DispatchQueue.main.sync { self.mergeChanges(fromContextDidSave: box.notification) }
            }
        }
    }

    /// Stops merging the saves of `otherContext`.
    public func mr_stopObserving(_ otherContext: NSManagedObjectContext) {
        let token = mr_onQueue { () -> (any NSObjectProtocol)? in
            guard let observations = userInfo[MagicalRecordObservationsKey] as? ContextObservations else { return nil }
            return observations.tokens.removeValue(forKey: ObjectIdentifier(otherContext))
        }
        if let token { NotificationCenter.default.removeObserver(token) }
    }

    /// Observes the did-save notifications of `otherContext` with `merge`, replacing an earlier
    /// observation of it.
    private func mr_addObservation(
        of otherContext: NSManagedObjectContext,
        _ merge: @escaping @Sendable (Notification) -> Void
    ) {
        mr_stopObserving(otherContext)
        let token = NotificationCenter.default.addObserver(
            forName: .NSManagedObjectContextDidSave, object: otherContext,
            queue: nil, using: merge)
        mr_onQueue {
            let observations = userInfo[MagicalRecordObservationsKey] as? ContextObservations ?? ContextObservations()
            observations.tokens[ObjectIdentifier(otherContext)] = token
            userInfo[MagicalRecordObservationsKey] = observations
        }
    }
}

/// A notification handed to the main queue.
// @unchecked Sendable: the notification is only read after it crosses, by the merge it was posted for,
// while the posting thread waits.
final class NotificationBox: @unchecked Sendable {
    let notification: Notification

    init(_ notification: Notification) {
        self.notification = notification
    }
}
