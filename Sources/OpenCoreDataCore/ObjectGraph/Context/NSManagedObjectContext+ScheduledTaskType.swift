extension NSManagedObjectContext {
    /// When `perform(schedule:_:)` runs its block.
    public enum ScheduledTaskType: Sendable {
        /// The block runs right away when the caller is already on the context's queue, otherwise as
        /// soon as the queue is free.
        case immediate
        /// The block is added to the end of the context's queue.
        case enqueued
    }
}
