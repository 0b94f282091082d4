import Dispatch
import Foundation

/// A computation that another thread may run while the caller goes on with other work; the caller runs
/// it itself when no other thread has started it by the time it needs the result.
///
/// The caller never waits for a thread to become free, only for a computation already under way: on a
/// busy machine, or with a pool that has no free thread, the caller ends up running it itself. The
/// computation runs on an unknown thread, so it takes only `Sendable` values.
// @unchecked Sendable: `state` is read and changed only with `lock` held. `finished` is signalled once,
// after the worker stored the result under the lock, and waited on once, by the caller, only when the
// worker claimed the computation.
final class OffloadedComputation<Result: Sendable>: @unchecked Sendable {
    private enum State {
        /// No thread has started the computation.
        case pending(@Sendable () -> Result)
        /// A thread is running the computation.
        case running
        /// The worker's result, not yet handed to the caller.
        case finished(Result)
        /// The caller has the result.
        case delivered
    }

    private let lock = NSLock()
    private var state: State
    private let finished = DispatchSemaphore(value: 0)

    /// Offers `computation` to a thread of `queue` (the global concurrent queue unless given).
    init(on queue: DispatchQueue = .global(), _ computation: @escaping @Sendable () -> Result) {
        state = .pending(computation)
        queue.async { [self] in
            guard let computation = claim() else { return }
            let result = computation()
            lock.withLock { state = .finished(result) }
            finished.signal()
        }
    }

    /// The computation's result: computed on the calling thread when no other thread has started it,
    /// waited for otherwise. Called once.
    func result() -> Result {
        let computation: (@Sendable () -> Result)? = lock.withLock {
            switch state {
            case .pending(let computation):
                state = .delivered
                return computation
            case .running, .finished:
                return nil
            case .delivered:
                preconditionFailure("OffloadedComputation.result() called twice")
            }
        }
        if let computation { return computation() }
        finished.wait()
        return lock.withLock {
            guard case .finished(let result) = state else { preconditionFailure("the worker finished without a result") }
            state = .delivered
            return result
        }
    }

    /// Takes the computation to run it, when no thread has.
    private func claim() -> (@Sendable () -> Result)? {
        lock.withLock {
            guard case .pending(let computation) = state else { return nil }
            state = .running
            return computation
        }
    }
}
