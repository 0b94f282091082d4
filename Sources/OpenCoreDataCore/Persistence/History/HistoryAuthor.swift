/// Who writes: what a store with history tracking records of the context behind a save or a batch
/// request.
///
/// The context sets it for the extent of its write (``HistoryAuthor/$current``), and the SQLite store
/// reads it on the calling thread before its write transaction starts; writes made without one (a
/// coordinator's own, such as `migratePersistentStore`'s copy) record no author and no context name.
struct HistoryAuthor: Sendable {
    /// The context's ``NSManagedObjectContext/transactionAuthor``.
    var author: String?
    /// The context's ``NSManagedObjectContext/name``.
    var contextName: String?
    /// Whether the write is recorded at all: `false` for the writes a migration makes, which are not the
    /// user's transactions.
    var records = true

    /// The author of the write under way on this thread or task, `nil` outside one.
    @TaskLocal static var current: HistoryAuthor?

    /// The author of migrations' writes: nothing is recorded.
    static let migration = HistoryAuthor(author: nil, contextName: nil, records: false)

    /// The bundle identifier transactions of this process record: its main bundle's, or its process name
    /// where it has none (a Linux program usually has none).
    static let bundleID: String = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName

    /// The process name transactions of this process record.
    static let processID: String = ProcessInfo.processInfo.processName
}
