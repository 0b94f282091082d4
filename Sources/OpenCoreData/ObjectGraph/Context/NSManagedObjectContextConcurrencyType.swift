/// The ways a managed object context runs its work.
public enum NSManagedObjectContextConcurrencyType: UInt, Sendable {
    /// The context is used only on the thread that created it (deprecated on Apple platforms).
    @available(*, deprecated, message: "Use another concurrency type")
    case confinementConcurrencyType = 0
    /// The context creates and manages a private serial queue; work reaches it through
    /// `perform(_:)` and `performAndWait(_:)`.
    case privateQueueConcurrencyType = 1
    /// The context is associated with the main queue.
    case mainQueueConcurrencyType = 2
}

extension NSManagedObjectContext {
    /// Another name for ``NSManagedObjectContextConcurrencyType``, the type of ``concurrencyType``.
    public typealias ConcurrencyType = NSManagedObjectContextConcurrencyType
}
