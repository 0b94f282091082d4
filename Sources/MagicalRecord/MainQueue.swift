import Dispatch
import OpenCoreData

/// Whether code runs on the main queue, which is what MagicalRecord means by "the main thread".
///
/// On Linux the main queue may be drained by a worker thread (after `dispatchMain()` the main thread
/// parks, as it does under Swift Testing), so the queue is recognized by a queue-specific mark as well
/// as by the thread.
enum MainQueue {
    /// The mark set on the main queue.
    private static let key: DispatchSpecificKey<UInt8> = {
        let key = DispatchSpecificKey<UInt8>()
        DispatchQueue.main.setSpecific(key: key, value: 1)
        return key
    }()

    /// Whether the calling code runs on the main queue (or the main thread).
    static var isCurrent: Bool {
        Thread.isMainThread || DispatchQueue.getSpecific(key: key) != nil
    }
}
