import Foundation
import Logging

/// A destination for SQL debug messages that keeps them in memory, so that code (tests above all) can
/// read what one coordinator's stores ran: how many statements a fetch issued, with which values.
///
/// ```swift
/// let recorder = SQLDebugLogRecorder()
/// coordinator.sqlDebugLog = recorder.log(level: 1)
/// try coordinator.addPersistentStore(type: .sqlite, at: url)
/// _ = try context.fetch(request)
/// print(recorder.statements)   // ["SELECT 0, t0.Z_PK, …"]
/// ```
///
/// A recorder may be written to from any thread.
// @unchecked Sendable: `_entries` is only read and written under `lock`.
public final class SQLDebugLogRecorder: @unchecked Sendable {
    /// One recorded message.
    public struct Entry: Sendable, CustomStringConvertible {
        /// The kind of message.
        public let kind: SQLDebugLog.MessageKind
        /// The message as logged, for example `CoreData: sql: SELECT …`.
        public let message: String

        /// The message.
        public var description: String { message }
    }

    private let lock = NSLock()
    private var _entries: [Entry] = []

    /// Creates an empty recorder.
    public init() {}

    /// A logger whose messages this recorder keeps (messages without a SQL debug `kind` are kept as
    /// annotations).
    public var logger: Logger {
        let recorder = self
        return Logger(label: SQLDebugLog.label) { _ in Handler(recorder: recorder) }
    }

    /// A SQL debug log at a level that writes into this recorder.
    public func log(level: Int) -> SQLDebugLog {
        SQLDebugLog(level: level, logger: logger)
    }

    /// Every message recorded so far, oldest first.
    public var entries: [Entry] {
        lock.withLock { _entries }
    }

    /// The text of every message recorded so far, oldest first.
    public var messages: [String] {
        entries.map(\.message)
    }

    /// The SQL of the data statements recorded so far (kind ``SQLDebugLog/MessageKind/statement``),
    /// without the `CoreData: sql: ` prefix: transaction and connection statements are not included.
    public var statements: [String] {
        entries.filter { $0.kind == .statement }.map { entry in
            let prefix = "CoreData: sql: "
            return entry.message.hasPrefix(prefix) ? String(entry.message.dropFirst(prefix.count)) : entry.message
        }
    }

    /// Forgets every message recorded so far.
    public func removeAll() {
        lock.withLock { _entries.removeAll() }
    }

    fileprivate func append(_ entry: Entry) {
        lock.withLock { _entries.append(entry) }
    }

    /// The swift-log handler feeding a recorder.
    private struct Handler: LogHandler {
        let recorder: SQLDebugLogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            var kind = SQLDebugLog.MessageKind.annotation
            if case let .string(raw)? = event.metadata?["kind"] ?? metadata["kind"],
                let recorded = SQLDebugLog.MessageKind(rawValue: raw)
            {
                kind = recorded
            }
            recorder.append(Entry(kind: kind, message: event.message.description))
        }
    }
}
