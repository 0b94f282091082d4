import COpenCoreDataRuntime

#if OCD_PLAIN_SWIFT || OCD_NO_C_THREAD_SLOTS
import Foundation

/// With C thread-local slots off (``RuntimeTechniques/cThreadSlots``): one POSIX thread-specific key
/// per slot, made once for the process.
private let posixThreadSlotKeys: [pthread_key_t] = (0..<Int(OCD_THREAD_SLOT_COUNT)).map { _ in
    var key = pthread_key_t()
    let status = pthread_key_create(&key, nil)
    precondition(status == 0, "pthread_key_create failed (\(status))")
    return key
}
#endif

/// A pointer each thread keeps for itself, set for the length of a call.
///
/// The slot never owns what it points to: whoever sets it keeps the pointee alive while the call runs.
/// Slots are C thread-local variables (`ocd_threadSlots`): reading or setting one is a load or a store,
/// where a POSIX thread-specific key costs a call into the C library. The program has a few of them,
/// each named by a case of ``Use``; a slot is a constant, so reaching one needs no lazily initialized
/// global (whose guard every object made for a row would pass through).
struct ThreadPointerSlot: Sendable {
    /// What each of the program's slots is for; the raw value is the slot's index.
    enum Use: Int {
        /// The context whose block the thread is running (`CurrentContext`).
        case currentContext = 0
        /// The row identity an object being made for a row takes (`FetchedObjectConstruction`).
        case pendingIdentity = 1
        /// Set while the thread, running main-queue work, waits in `performAndWait` of another
        /// context (`MainQueueHold`).
        case mainQueueHeld = 2
        /// The context on whose behalf the thread is asking the coordinator's stores (`StoreRequestor`).
        case storeRequestor = 3
    }

    private let index: Int

    /// The slot for `use`; every thread starts with no pointer in it.
    @inline(__always)
    init(_ use: Use) {
        index = use.rawValue
        assert(index < Int(OCD_THREAD_SLOT_COUNT), "more thread pointer slots than OCD_THREAD_SLOT_COUNT")
    }

    /// The pointer this thread's innermost ``with(_:_:)`` call put in the slot, or `nil`.
    @inline(__always)
    var pointer: UnsafeMutableRawPointer? {
        Self.read(index)
    }

    /// Runs `body` with `pointer` in this thread's slot, then puts back what the slot held before.
    @inline(__always)
    func with<T>(_ pointer: UnsafeRawPointer, _ body: () throws -> T) rethrows -> T {
        let outer = Self.read(index)
        Self.write(index, UnsafeMutableRawPointer(mutating: pointer))
        defer { Self.write(index, outer) }
        return try body()
    }

    /// Empties this thread's slot until the enclosing ``with(_:_:)`` call returns.
    @inline(__always)
    func clear() {
        Self.write(index, nil)
    }

    /// This thread's pointer in slot `index`.
    @inline(__always)
    private static func read(_ index: Int) -> UnsafeMutableRawPointer? {
        #if OCD_PLAIN_SWIFT || OCD_NO_C_THREAD_SLOTS
        pthread_getspecific(posixThreadSlotKeys[index])
        #else
        ocd_threadSlot(index)
        #endif
    }

    /// Puts `pointer` in this thread's slot `index`.
    @inline(__always)
    private static func write(_ index: Int, _ pointer: UnsafeMutableRawPointer?) {
        #if OCD_PLAIN_SWIFT || OCD_NO_C_THREAD_SLOTS
        pthread_setspecific(posixThreadSlotKeys[index], pointer)
        #else
        ocd_setThreadSlot(index, pointer)
        #endif
    }
}
