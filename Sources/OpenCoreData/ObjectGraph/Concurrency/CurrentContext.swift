#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The context whose `perform` or `performAndWait` block the current thread is running, for
/// ``NSFetchRequest/execute()``. Nested blocks of other contexts take over and give it back.
enum CurrentContext {
    /// A thread-specific slot holding an unretained reference to the running context.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body` with `context` as the current context of this thread.
    static func run<T>(_ context: NSManagedObjectContext, _ body: () throws -> T) rethrows -> T {
        let previous = pthread_getspecific(key)
        // Unretained: the context is kept alive by the caller for as long as its block runs.
        pthread_setspecific(key, Unmanaged.passUnretained(context).toOpaque())
        defer { pthread_setspecific(key, previous) }
        return try body()
    }

    /// The context whose block this thread is running, if any.
    static var context: NSManagedObjectContext? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<NSManagedObjectContext>.fromOpaque(pointer).takeUnretainedValue()
    }
}
