import Dispatch

/// Running work on the coordinator's own serial queue.
extension NSPersistentStoreCoordinator {
    /// The coordinator's serial queue, shared by every coordinator method that takes a block.
    private static let _queues = CoordinatorQueues()

    private var _queue: DispatchQueue {
        Self._queues.queue(for: self)
    }

    /// Runs a block on the coordinator's queue, asynchronously.
    public func perform(_ block: @escaping @Sendable () -> Void) {
        _queue.async(execute: block)
    }

    /// Runs a block on the coordinator's queue and waits for it to finish. Calls made from a block
    /// already running on that queue run at once.
    public func performAndWait(_ block: () -> Void) {
        let queue = _queue
        if DispatchQueue.getSpecific(key: CoordinatorQueues.key) == ObjectIdentifier(self) {
            block()
            return
        }
        withoutActuallyEscaping(block) { escapable in
            let work = UncheckedSendableBox(escapable)
            queue.sync { work.value() }
        }
    }

    /// Runs a block on the coordinator's queue, waits for it to finish and returns its result or
    /// rethrows its error.
    public func performAndWait<T>(_ block: () throws -> T) rethrows -> T {
        try _performAndWait(block, rescue: { throw $0 })
    }

    /// Runs a block on the coordinator's queue and returns its result, or throws its error, when it ends.
    public func perform<T>(_ block: @escaping @Sendable () throws -> T) async rethrows -> T {
        try await _perform(block, rescue: { throw $0 })
    }

    // `rescue` rethrows the block's error: a `rethrows` function may throw only through a closure it was given.
    private func _performAndWait<T>(_ block: () throws -> T, rescue: (any Error) throws -> T) rethrows -> T {
        var result: Result<T, any Error>?
        performAndWait { () -> Void in result = Result { try block() } }
        switch result {
        case .success(let value): return value
        case .failure(let error): return try rescue(error)
        case nil: preconditionFailure("performAndWait finished without running its block")
        }
    }

    private func _perform<T>(
        _ block: @escaping @Sendable () throws -> T,
        rescue: (any Error) throws -> T
    ) async rethrows -> T {
        let outcome: UncheckedSendableBox<Result<T, any Error>> = await withCheckedContinuation { continuation in
            perform { continuation.resume(returning: UncheckedSendableBox(Result { try block() })) }
        }
        switch outcome.value {
        case .success(let value): return value
        case .failure(let error): return try rescue(error)
        }
    }
}

/// One serial queue per coordinator, created on first use.
// @unchecked Sendable: the table is only touched while holding `lock`; the queues are thread-safe.
private final class CoordinatorQueues: @unchecked Sendable {
    static let key = DispatchSpecificKey<ObjectIdentifier>()
    private let lock = NSLock()
    private var queues: [ObjectIdentifier: (coordinator: Weak, queue: DispatchQueue)] = [:]

    /// A reference to a coordinator that does not keep it alive.
    struct Weak {
        @NonRetaining var value: NSPersistentStoreCoordinator?
    }

    func queue(for coordinator: NSPersistentStoreCoordinator) -> DispatchQueue {
        lock.withLock {
            queues = queues.filter { $0.value.coordinator.value != nil }
            let id = ObjectIdentifier(coordinator)
            if let entry = queues[id], entry.coordinator.value === coordinator { return entry.queue }
            let queue = DispatchQueue(label: "OpenCoreData.NSPersistentStoreCoordinator")
            queue.setSpecific(key: Self.key, value: id)
            queues[id] = (Weak(value: coordinator), queue)
            return queue
        }
    }
}
