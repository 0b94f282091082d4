import OpenCoreData

/// The `threadDictionary` key of a thread's cached context.
private let MagicalRecordThreadContextKey = "MagicalRecord_NSManagedObjectContextForThreadKey"

/// A thread's cached context and the cache generation it was made in.
final class ThreadContextEntry: NSObject {
    let context: NSManagedObjectContext
    let generation: Int

    init(context: NSManagedObjectContext, generation: Int) {
        self.context = context
        self.generation = generation
    }
}

/// The generation of the per-thread context cache; clearing the cache starts a new one.
// @unchecked Sendable: `value` is read and written only with `lock` held.
final class ThreadContextGeneration: @unchecked Sendable {
    static let shared = ThreadContextGeneration()
    private let lock = NSLock()
    private var value = 0

    var current: Int { lock.withLock { value } }

    func advance() { lock.withLock { value += 1 } }
}

extension NSManagedObjectContext {
    /// Returns the context of the current thread, which MagicalRecord's calls without a context use:
    /// the default context on the main thread, and elsewhere a private-queue child of the default
    /// context cached for the thread.
    ///
    /// MagicalRecord deprecates this. Swift concurrency runs a task on whichever thread is free, so a
    /// per-thread context means nothing there; pass a context (`in: localContext`) from
    /// ``MagicalRecord/save(_:)`` or `perform` instead. A background thread's context reaches the store
    /// through the default context, so the main queue must be running.
    @available(*, deprecated, message: "Pass a context explicitly; this method will be removed in MagicalRecord 3.0")
    public class func mr_contextForCurrentThread() -> NSManagedObjectContext {
        mr_currentThreadContext()
    }

    /// ``mr_contextForCurrentThread()`` without the deprecation, for the calls without a context.
    class func mr_currentThreadContext() -> NSManagedObjectContext {
        if MainQueue.isCurrent { return mr_default() }
        let generation = ThreadContextGeneration.shared.current
        let dictionary = Thread.current.threadDictionary
        if let entry = dictionary[MagicalRecordThreadContextKey] as? ThreadContextEntry, entry.generation == generation {
            return entry.context
        }
        let context = mr_context(withParent: mr_default())
        dictionary[MagicalRecordThreadContextKey] = ThreadContextEntry(context: context, generation: generation)
        return context
    }

    /// Forgets the cached contexts of every thread but the main thread.
    public class func mr_clearNonMainThreadContextsCache() {
        ThreadContextGeneration.shared.advance()
    }

    /// Resets the context of the current thread.
    public class func mr_resetContextForCurrentThread() {
        let context = mr_currentThreadContext()
        context.performAndWait { context.reset() }
    }

    /// Forgets the cached context of the current thread.
    public class func mr_clearContextForCurrentThread() {
        Thread.current.threadDictionary.removeObject(forKey: MagicalRecordThreadContextKey)
    }
}
