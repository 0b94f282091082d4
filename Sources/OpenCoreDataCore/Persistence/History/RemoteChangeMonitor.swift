import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Posts ``Foundation/NSNotification/Name/NSPersistentStoreRemoteChange`` for a store added with
/// ``NSPersistentStoreRemoteChangeNotificationPostOptionKey`` after every write to its file — by the store's
/// own coordinator, by another coordinator of the process, or by another process — without a daemon.
///
/// A write is a change of SQLite's `PRAGMA data_version` on a connection of the monitor's own: SQLite
/// changes it whenever another connection commits. Asking is cheap but must not be done in a busy loop,
/// so the monitor asks when the store's files say something happened:
/// - on Linux it waits on inotify for writes to the store file, its `-wal` and its `-journal` (watching
///   the folder, so that a `-wal` made or removed later is seen too); SQLite updates the WAL index (the
///   memory-mapped `-shm`, which inotify does not see) just after the last `-wal` write of a commit, so
///   after each event it asks at once and again 5, 25 and 100 ms later;
/// - elsewhere, and wherever inotify cannot watch the folder, it asks every
///   ``RemoteChangeMonitor/pollInterval`` seconds;
/// - with inotify it also asks once every ``RemoteChangeMonitor/safetyInterval`` seconds, in case an event
///   was lost.
///
/// One notification may stand for several writes made close together; its token (with history tracking)
/// is the store's latest, so that fetching the history after the last token seen reads each transaction
/// once. It is posted on the monitor's own thread, as Apple's Core Data posts it on a private one.
final class RemoteChangeMonitor: @unchecked Sendable {
    // @unchecked Sendable: `stopped` and the pipe's write end are read from other threads through
    // `state`'s lock; everything else is used only by the monitor's thread.

    /// Seconds between questions when no file events are available.
    static let pollInterval: TimeInterval = 0.1
    /// Seconds between questions while inotify reports nothing.
    static let safetyInterval: TimeInterval = 1
    /// The delays, in milliseconds, of the questions asked again after a file event.
    static let followUps: [Int32] = [5, 20, 75]

    private let url: URL
    private let storeIdentifier: String
    private let tracksHistory: Bool
    private weak var coordinator: NSPersistentStoreCoordinator?
    private let connection: DatabaseQueue
    private let state = LockedValue(State())

    private struct State {
        var stopped = false
        /// The pipe that wakes the thread to stop: read end, write end.
        var wake: (Int32, Int32)?
    }

    /// Opens the monitor's connection and starts its thread.
    ///
    /// - Throws: the error of opening a connection to the store file.
    init(store: SQLiteStore, coordinator: NSPersistentStoreCoordinator?) throws {
        url = store.fileURL
        storeIdentifier = store.identifier ?? ""
        tracksHistory = store._history != nil
        self.coordinator = coordinator
        var configuration = Configuration()
        configuration.label = "OpenCoreData.RemoteChangeMonitor"
        configuration.readonly = true
        configuration.busyMode = .timeout(SQLiteStoreFileAccess.busyTimeout)
        connection = try SQLiteStoreFileAccess.run(store.fileURL) { try DatabaseQueue(path: store.fileURL.path, configuration: configuration) }
        var fds: [Int32] = [0, 0]
        if pipe(&fds) == 0 { state.withLock { $0.wake = (fds[0], fds[1]) } }
        let baseline = try? dataVersion()
        let thread = Thread { [self] in run(baseline: baseline) }
        thread.name = "OpenCoreData.RemoteChangeMonitor"
        thread.start()
    }

    /// Stops the thread (it exits at its next wake-up, which this causes) and closes the connection.
    func stop() {
        let wake = state.withLock { state -> Int32? in
            guard !state.stopped else { return nil }
            state.stopped = true
            return state.wake?.1
        }
        if let wake {
            var byte: UInt8 = 1
            _ = write(wake, &byte, 1)
        }
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    /// `PRAGMA data_version` on the monitor's connection.
    private func dataVersion() throws -> Int64 {
        try connection.inDatabase { try Int64.fetchOne($0, sql: "PRAGMA data_version") ?? 0 }
    }

    /// The thread's loop: wait for a file event (or the poll interval), ask, post.
    private func run(baseline: Int64?) {
        var last = baseline
        let watcher = FileEventWatcher(url: url)
        let wakeFD = state.withLock { $0.wake?.0 }
        defer {
            watcher?.close()
            try? connection.close()
            state.withLock { state in
                if let (read, write) = state.wake {
                    Glibc_close(read)
                    Glibc_close(write)
                    state.wake = nil
                }
            }
        }
        var followUps: ArraySlice<Int32> = []
        while !isStopped && coordinator != nil {
            let timeout: Int32
            if let next = followUps.first {
                timeout = next
            } else {
                timeout = Int32(((watcher == nil ? Self.pollInterval : Self.safetyInterval) * 1000).rounded())
            }
            let event = Self.wait(watcher: watcher?.descriptor, wake: wakeFD, timeout: timeout)
            if isStopped { return }
            switch event {
            case .file:
                let relevant = watcher?.drain() ?? true
                if relevant { followUps = ArraySlice(Self.followUps) } else { continue }
            case .timeout:
                if !followUps.isEmpty { followUps.removeFirst() }
            case .wake:
                return
            }
            guard let version = try? dataVersion() else { continue }
            if version != last {
                last = version
                post()
            }
        }
    }

    /// What ended a wait.
    private enum WaitResult { case file, timeout, wake }

    /// Waits for the inotify descriptor, the wake pipe or the timeout, with `poll(2)`.
    private static func wait(watcher: Int32?, wake: Int32?, timeout: Int32) -> WaitResult {
        var descriptors: [pollfd] = []
        if let watcher { descriptors.append(pollfd(fd: watcher, events: Int16(POLLIN), revents: 0)) }
        if let wake { descriptors.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0)) }
        let count = descriptors.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), timeout) }
        guard count > 0 else { return .timeout }
        if let wake, descriptors.contains(where: { $0.fd == wake && $0.revents != 0 }) { return .wake }
        return .file
    }

    /// Posts the notification, with the store's current token when it tracks history.
    private func post() {
        guard let coordinator else {
            stop()
            return
        }
        var userInfo: [AnyHashable: Any] = [NSPersistentStoreURLKey: url, NSStoreUUIDKey: storeIdentifier]
        if tracksHistory, let number = try? lastTransactionNumber() {
            userInfo[NSPersistentHistoryTokenKey] = NSPersistentHistoryToken(transactionNumbers: [storeIdentifier: number])
        }
        NotificationCenter.default.post(name: .NSPersistentStoreRemoteChange, object: coordinator, userInfo: userInfo)
    }

    /// The store's last transaction number, read on the monitor's connection.
    private func lastTransactionNumber() throws -> Int64? {
        try connection.read { db in
            guard try db.tableExists(SQLiteHistorySchema.transactionTable) else { return nil }
            let recorded =
                try Int64.fetchOne(
                    db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?",
                    arguments: [SQLiteHistorySchema.transactionEntity]) ?? 0
            let largest = try Int64.fetchOne(db, sql: "SELECT max(Z_PK) FROM ATRANSACTION") ?? 0
            return max(recorded, largest)
        }
    }
}

/// `close(2)`, named apart from the methods called `close`.
private func Glibc_close(_ descriptor: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(descriptor)
    #elseif canImport(Darwin)
    _ = Darwin.close(descriptor)
    #endif
}

/// Events on the files of one store, from inotify watching its folder; absent where inotify is not.
private final class FileEventWatcher {
    let descriptor: Int32
    /// The names whose writes count: the store file, its `-wal` and its `-journal`.
    private let names: Set<String>

    init?(url: URL) {
        #if os(Linux)
        let descriptor = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        guard descriptor >= 0 else { return nil }
        let mask = UInt32(IN_MODIFY) | UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_MOVED_TO) | UInt32(IN_CLOSE_WRITE)
        guard inotify_add_watch(descriptor, url.deletingLastPathComponent().path, mask) >= 0 else {
            Glibc_close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        let name = url.lastPathComponent
        names = [name, name + "-wal", name + "-journal"]
        #else
        return nil
        #endif
    }

    /// Reads every pending event; whether one was about the store's files.
    func drain() -> Bool {
        #if os(Linux)
        var relevant = false
        let size = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, size)
            guard count > 0 else { break }
            var offset = 0
            // struct inotify_event { int wd; uint32_t mask; uint32_t cookie; uint32_t len; char name[]; }
            let header = 16
            while offset + header <= count {
                let length = Int(buffer.load(fromByteOffset: offset + 12, as: UInt32.self))
                let mask = buffer.load(fromByteOffset: offset + 4, as: UInt32.self)
                if mask & UInt32(IN_Q_OVERFLOW) != 0 { relevant = true }
                if length > 0 {
                    let start = buffer.advanced(by: offset + header).assumingMemoryBound(to: CChar.self)
                    let name = String(cString: start)
                    if names.contains(name) { relevant = true }
                }
                offset += header + length
            }
        }
        return relevant
        #else
        return true
        #endif
    }

    func close() {
        Glibc_close(descriptor)
    }
}
