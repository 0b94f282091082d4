/// The context on whose behalf the current thread is calling the coordinator, so that a custom store
/// (which Apple's API hands the requesting context) can be given it: the context sets it around its
/// fetches, faults, relationship reads and saves.
enum StoreRequestor {
    private static var slot: ThreadPointerSlot {
        @inline(__always) get { ThreadPointerSlot(.storeRequestor) }
    }

    /// Runs `body` with `context` as the context asking the stores.
    @inline(__always)
    static func run<T>(_ context: NSManagedObjectContext, _ body: () throws -> T) rethrows -> T {
        // Unretained: the caller keeps the context alive while `body` runs.
        try slot.with(Unmanaged.passUnretained(context).toOpaque(), body)
    }

    /// The context asking the stores on this thread, if any.
    static var context: NSManagedObjectContext? {
        guard let pointer = slot.pointer else { return nil }
        return Unmanaged<NSManagedObjectContext>.fromOpaque(pointer).takeUnretainedValue()
    }
}
