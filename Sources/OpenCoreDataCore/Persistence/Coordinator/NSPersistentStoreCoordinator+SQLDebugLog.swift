/// The SQL debug log of a coordinator's SQLite stores.
extension NSPersistentStoreCoordinator {
    /// The SQL debug log of the SQLite stores added to this coordinator from now on.
    ///
    /// When `nil` (the default), stores use the log that the process's launch arguments or environment
    /// ask for (``SQLDebugLog/process``), which is usually none. Setting it lets one coordinator's
    /// statements be captured without configuring swift-log for the whole process, for example with a
    /// ``SQLDebugLogRecorder``. A store reads this when it is added: set it before adding stores.
    public var sqlDebugLog: SQLDebugLog? {
        get { _lock.withLock { _sqlDebugLog } }
        set { _lock.withLock { _sqlDebugLog = newValue } }
    }
}
