extension NSManagedObjectContext {
    /// The ways a managed object context runs its work.
    public enum ConcurrencyType: UInt, Sendable {
        /// The context is used only on the thread that created it (deprecated on Apple platforms).
        @available(*, deprecated, message: "Use another concurrency type")
        case confinementConcurrencyType = 0
        /// The context creates and manages a private serial queue; work reaches it through
        /// `perform(_:)` and `performAndWait(_:)`.
        case privateQueueConcurrencyType = 1
        /// The context is associated with the main queue.
        case mainQueueConcurrencyType = 2
    }

    /// When `perform(schedule:_:)` runs its block.
    public enum ScheduledTaskType: Sendable {
        /// The block runs right away when the caller is already on the context's queue, otherwise as
        /// soon as the queue is free.
        case immediate
        /// The block is added to the end of the context's queue.
        case enqueued
    }
}
