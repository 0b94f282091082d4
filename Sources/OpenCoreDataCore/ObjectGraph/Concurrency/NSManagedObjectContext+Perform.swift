import Dispatch

extension NSManagedObjectContext {
    /// Runs a block on the context's queue, asynchronously.
    ///
    /// When the block ends, the context processes its pending changes (as Apple's Core Data does), so
    /// a change made in the block — or left by an earlier `performAndWait` — is announced with
    /// `NSManagedObjectContextObjectsDidChange` without a run loop or an explicit
    /// ``processPendingChanges()``.
    public func perform(_ block: @escaping () -> Void) {
        let work = QueueWork(block)
        queue.async { [self] in
            CurrentContext.run(self, work.value)
            processPendingChanges()
        }
    }

    /// Runs a block on the context's queue and waits for it to finish.
    ///
    /// The call is re-entrant: from code already running on the context's queue the block runs at once.
    public func performAndWait(_ block: () -> Void) {
        if isOnContextQueue {
            CurrentContext.run(self, block)
            return
        }
        withoutActuallyEscaping(block) { escapable in
            let work = QueueWork(escapable)
            MainQueueHold.whileWaiting {
                queue.sync { CurrentContext.run(self, work.value) }
            }
        }
    }

    /// Runs a throwing block on the context's queue, waits for it, and returns its value or rethrows its error.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        try _performAndWaitHelper(block, rescue: { throw $0 })
    }

    private func _performAndWaitHelper<T>(_ block: () throws -> T, rescue: (Error) throws -> T) rethrows -> T {
        var result: Result<T, Error>?
        performAndWait { () -> Void in
            result = Result { try block() }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error): return try rescue(error)
        case nil: preconditionFailure("performAndWait finished without running its block")
        }
    }

    /// Runs a block on the context's queue and returns its value; the caller suspends until it finishes.
    ///
    /// With `.immediate` (the default) the block runs at once when the caller is already on the
    /// context's queue; with `.enqueued` it always waits its turn on the queue. A block that waited its
    /// turn is followed by ``processPendingChanges()``, as ``perform(_:)`` is.
    public func perform<T>(schedule: ScheduledTaskType = .immediate, _ block: @escaping () throws -> T) async rethrows -> T {
        try await _performAsyncHelper(schedule: schedule, block, rescue: { throw $0 })
    }

    private func _performAsyncHelper<T>(
        schedule: ScheduledTaskType, _ block: @escaping () throws -> T,
        rescue: (Error) throws -> T
    ) async rethrows -> T {
        let outcome: ResultBox<T>
        if schedule == .immediate, isOnContextQueue {
            outcome = ResultBox()
            outcome.result = Result { try CurrentContext.run(self, block) }
        } else {
            let work = QueueWork(block)
            outcome = await withCheckedContinuation { (continuation: CheckedContinuation<ResultBox<T>, Never>) in
                queue.async { [self] in
                    let box = ResultBox<T>()
                    box.result = Result { try CurrentContext.run(self, work.value) }
                    processPendingChanges()
                    continuation.resume(returning: box)
                }
            }
        }
        switch outcome.result {
        case .success(let value): return value
        case .failure(let error): return try rescue(error)
        case nil: preconditionFailure("perform finished without running its block")
        }
    }

    /// Whether the calling code runs on the context's queue.
    var isOnContextQueue: Bool {
        switch concurrencyType {
        case .privateQueueConcurrencyType:
            return DispatchQueue.getSpecific(key: queueKey) == ObjectIdentifier(self)
        case .mainQueueConcurrencyType:
            // On Linux the main queue may be drained by a worker thread (after `dispatchMain()` the main
            // thread parks), so the queue is recognized by a queue-specific mark, not by the thread.
            // A thread that holds the main queue while it waits for another context's block (run on this
            // thread by `queue.sync`) is still the main queue's: a child reaching its main-queue parent
            // from such a block runs there, as on Apple platforms, instead of waiting for itself.
            return Thread.isMainThread || DispatchQueue.getSpecific(key: MainQueueMark.key) != nil || MainQueueHold.isHeld
        default:
            return true
        }
    }
}

/// Carries a block's result from the context's queue to the caller.
// @unchecked Sendable: written once on the context's queue before the continuation resumes, read only
// after it resumed; the continuation orders the two.
final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}

/// A block handed to the context's queue.
// @unchecked Sendable: the block is run exactly once, on the context's queue, which is the only place
// its non-Sendable captures (managed objects, the context's state) may be used — the queue contract.
struct QueueWork<Block>: @unchecked Sendable {
    let value: Block
    init(_ value: Block) { self.value = value }
}

/// Notes that the current thread, running main-queue work, waits in another context's `performAndWait`.
///
/// `queue.sync` runs the other context's block on the waiting thread, where the main queue's mark is not
/// visible (a queue-specific value is read from the queue running the block). Without the note, a private
/// child whose parent is a main-queue context, called with `performAndWait` from the main queue, would
/// wait for the main queue its own caller holds whenever a worker thread drains the main queue (after
/// `dispatchMain()`, under Swift Testing); on the main thread itself `Thread.isMainThread` already says so.
enum MainQueueHold {
    private static var slot: ThreadPointerSlot {
        @inline(__always) get { ThreadPointerSlot(.mainQueueHeld) }
    }

    /// Whether the thread holds the main queue while it waits for another context.
    static var isHeld: Bool {
        slot.pointer != nil
    }

    /// Runs `body` (a wait for another context's queue), noting that the thread holds the main queue
    /// when it runs main-queue work.
    static func whileWaiting<T>(_ body: () throws -> T) rethrows -> T {
        guard !isHeld, !Thread.isMainThread, DispatchQueue.getSpecific(key: MainQueueMark.key) != nil else {
            return try body()
        }
        // Any non-nil pointer marks the slot; nothing reads through it.
        return try slot.with(UnsafeRawPointer(bitPattern: 1)!, body)
    }
}

/// Marks the main queue so that work running on it is recognized on any thread.
enum MainQueueMark {
    /// The key set on the main queue; reading it installs the mark once.
    static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
}
