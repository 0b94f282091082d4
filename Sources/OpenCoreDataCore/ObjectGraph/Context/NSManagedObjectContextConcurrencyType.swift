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
    /// The ways a managed object context runs its work, as values to create a context with
    /// (`NSManagedObjectContext(.privateQueue)`).
    public struct ConcurrencyType: Hashable, Sendable, RawRepresentable {
        /// The context is associated with the main queue.
        public static let mainQueue = ConcurrencyType(rawValue: .mainQueueConcurrencyType)
        /// The context creates and manages a private serial queue.
        public static let privateQueue = ConcurrencyType(rawValue: .privateQueueConcurrencyType)

        /// The concurrency type's value as ``NSManagedObjectContextConcurrencyType``.
        public var rawValue: NSManagedObjectContextConcurrencyType

        /// Creates a concurrency type from its ``NSManagedObjectContextConcurrencyType`` value.
        public init(rawValue: NSManagedObjectContextConcurrencyType) {
            self.rawValue = rawValue
        }
    }

    /// Creates a context of the given concurrency type.
    public convenience init(_ type: NSManagedObjectContext.ConcurrencyType) {
        self.init(concurrencyType: type.rawValue)
    }
}
