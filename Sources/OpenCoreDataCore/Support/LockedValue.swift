import Foundation

/// A value that threads share, read and changed only with its lock held.
// @unchecked Sendable: every access to `stored` goes through `lock`. An `NSLock` rather than a `Mutex`:
// ThreadSanitizer, which CI runs on the concurrency tests, sees the ordering an `NSLock` gives, and not
// the ordering of `Mutex`'s futex-based lock.
package final class LockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    package init(_ value: Value) {
        stored = value
    }

    /// The value; each read and each write takes the lock once.
    package var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Calls `body` with the value, which it may change, while holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&stored) }
    }
}
