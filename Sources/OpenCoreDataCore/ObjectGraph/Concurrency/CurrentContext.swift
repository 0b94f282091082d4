/// The context whose `perform` or `performAndWait` block the current thread is running, for
/// ``NSFetchRequest/execute()``. Nested blocks of other contexts take over and give it back.
enum CurrentContext {
    /// An unretained reference to the running context.
    private static var slot: ThreadPointerSlot {
        @inline(__always) get { ThreadPointerSlot(.currentContext) }
    }

    /// Runs `body` with `context` as the current context of this thread.
    static func run<T>(_ context: NSManagedObjectContext, _ body: () throws -> T) rethrows -> T {
        // Unretained: the context is kept alive by the caller for as long as its block runs.
        try slot.with(Unmanaged.passUnretained(context).toOpaque(), body)
    }

    /// The context whose block this thread is running, if any.
    static var context: NSManagedObjectContext? {
        guard let pointer = slot.pointer else { return nil }
        return Unmanaged<NSManagedObjectContext>.fromOpaque(pointer).takeUnretainedValue()
    }
}
