import COpenCoreDataRuntime
import Synchronization

/// A pointer each thread keeps for itself, set for the length of a call.
///
/// The slot never owns what it points to: whoever sets it keeps the pointee alive while the call runs.
/// Slots are C thread-local variables (`ocd_threadSlots`): reading or setting one is a load or a store,
/// where a POSIX thread-specific key costs a call into the C library. The program has a few of them,
/// each taken by one `static let`.
struct ThreadPointerSlot: Sendable {
    /// The slots handed out so far.
    private static let taken = Atomic<Int>(0)
    private let index: Int

    /// Takes one of the program's slots; every thread starts with no pointer in it. Slots live as long
    /// as the program.
    init() {
        index = Self.taken.add(1, ordering: .relaxed).oldValue
        precondition(index < Int(OCD_THREAD_SLOT_COUNT), "more thread pointer slots than OCD_THREAD_SLOT_COUNT")
    }

    /// The pointer this thread's innermost ``with(_:_:)`` call put in the slot, or `nil`.
    @inline(__always)
    var pointer: UnsafeMutableRawPointer? {
        ocd_threadSlot(index)
    }

    /// Runs `body` with `pointer` in this thread's slot, then puts back what the slot held before.
    @inline(__always)
    func with<T>(_ pointer: UnsafeRawPointer, _ body: () throws -> T) rethrows -> T {
        let outer = ocd_threadSlot(index)
        ocd_setThreadSlot(index, UnsafeMutableRawPointer(mutating: pointer))
        defer { ocd_setThreadSlot(index, outer) }
        return try body()
    }

    /// Empties this thread's slot until the enclosing ``with(_:_:)`` call returns.
    @inline(__always)
    func clear() {
        ocd_setThreadSlot(index, nil)
    }
}
