#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pointer each thread keeps for itself (a POSIX thread-specific key), set for the length of a call.
///
/// The slot never owns what it points to: whoever sets it keeps the pointee alive while the call runs.
struct ThreadPointerSlot: Sendable {
    private let key: pthread_key_t

    /// Creates a slot; every thread starts with no pointer in it. Slots live as long as the program.
    init() {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        self.key = key
    }

    /// The pointer this thread's innermost ``with(_:_:)`` call put in the slot, or `nil`.
    @inline(__always)
    var pointer: UnsafeMutableRawPointer? {
        pthread_getspecific(key)
    }

    /// Runs `body` with `pointer` in this thread's slot, then puts back what the slot held before.
    @inline(__always)
    func with<T>(_ pointer: UnsafeRawPointer, _ body: () throws -> T) rethrows -> T {
        let outer = pthread_getspecific(key)
        pthread_setspecific(key, pointer)
        defer { pthread_setspecific(key, outer) }
        return try body()
    }

    /// Empties this thread's slot until the enclosing ``with(_:_:)`` call returns.
    @inline(__always)
    func clear() {
        pthread_setspecific(key, nil)
    }
}
