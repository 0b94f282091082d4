import Logging

/// The SQL debug log of SQLite stores: Core Data's `-com.apple.CoreData.SQLDebug` setting, written
/// through swift-log.
///
/// Turn it on for a whole process the way Core Data users do, with the launch argument
/// `-com.apple.CoreData.SQLDebug 1` (up to `4`), or with the environment variable
/// `OPENCOREDATA_SQL_DEBUG=1`. The levels are Core Data's:
///
/// | level | what is logged |
/// | --- | --- |
/// | 1 | each SQL statement the store runs (`CoreData: sql: SELECT …`), the row count and time of each fetch, count, fault and relationship fault |
/// | 2 | also transaction and connection statements (`BEGIN`, `COMMIT`, `PRAGMA`), each statement's execution time, the time of each save |
/// | 3 | also each statement with its bound values |
/// | 4 | also the query plan (`EXPLAIN QUERY PLAN`) of each fetch |
///
/// Messages go to a `Logger` labelled ``label`` (`com.apple.CoreData.SQLDebug`) made by swift-log's
/// `LoggingSystem`, so an app that bootstraps swift-log before opening its stores receives them in its
/// own handler. Level 1 messages are logged at `info`, level 2 at `debug`, levels 3 and 4 at `trace`;
/// each carries the metadata `kind` (a ``MessageKind`` raw value).
///
/// To capture one coordinator's statements (in tests running in parallel, say), set the
/// coordinator's ``NSPersistentStoreCoordinator/sqlDebugLog`` before adding its stores, for example to
/// ``SQLDebugLogRecorder/log(level:)``.
public struct SQLDebugLog: Sendable {
    /// The label of the process-wide logger: `com.apple.CoreData.SQLDebug`.
    public static let label = "com.apple.CoreData.SQLDebug"

    /// The launch argument that turns the log on, followed by the level: `-com.apple.CoreData.SQLDebug`.
    public static let launchArgument = "-com.apple.CoreData.SQLDebug"

    /// The environment variable that turns the log on, holding the level: `OPENCOREDATA_SQL_DEBUG`.
    public static let environmentVariable = "OPENCOREDATA_SQL_DEBUG"

    /// The highest level; higher levels in settings log as much as this one.
    public static let maximumLevel = 4

    /// The kinds of message the log writes, each shown from a level on.
    public enum MessageKind: String, Sendable, CaseIterable {
        /// A SQL statement the store runs on its data (`CoreData: sql: …`); level 1.
        case statement
        /// The time and row count of a fetch, a count or a fault, or the opening of a store file; level 1.
        case annotation
        /// A transaction statement (`BEGIN`, `COMMIT`, `ROLLBACK`, savepoints); level 2.
        case transaction
        /// A statement that sets up or checks a connection (`PRAGMA`, schema probes); level 2.
        case connection
        /// The execution time of one statement, or of a whole save; level 2.
        case timing
        /// A statement with its bound values written in; level 3.
        case boundValues
        /// One line of the query plan of a fetch; level 4.
        case queryPlan

        /// The first level that shows messages of this kind.
        public var level: Int {
            switch self {
            case .statement, .annotation: 1
            case .transaction, .connection, .timing: 2
            case .boundValues: 3
            case .queryPlan: 4
            }
        }

        /// The swift-log level messages of this kind are logged at.
        public var loggerLevel: Logger.Level {
            Self.loggerLevel(forDebugLevel: level)
        }

        /// The swift-log level of a SQL debug level: `info` for 1, `debug` for 2, `trace` above.
        static func loggerLevel(forDebugLevel level: Int) -> Logger.Level {
            switch level {
            case ...1: .info
            case 2: .debug
            default: .trace
            }
        }
    }

    /// The level, from 0 (nothing is logged) to ``maximumLevel``.
    public let level: Int

    /// The logger the messages go to.
    public let logger: Logger

    /// Creates a log at a level writing to a logger.
    ///
    /// A level of 0 or less logs nothing; levels above ``maximumLevel`` log as much as it. The
    /// logger's `logLevel` is lowered, where needed, so that the messages of `level` pass it.
    public init(level: Int, logger: Logger = Logger(label: SQLDebugLog.label)) {
        let level = Swift.min(Swift.max(level, 0), Self.maximumLevel)
        var logger = logger
        let needed = MessageKind.loggerLevel(forDebugLevel: level)
        if level > 0, needed < logger.logLevel { logger.logLevel = needed }
        self.level = level
        self.logger = logger
    }

    /// Creates the log that launch arguments and an environment ask for, or `nil` when they leave it off.
    ///
    /// See ``level(arguments:environment:)``.
    public init?(arguments: [String], environment: [String: String]) {
        guard let level = Self.level(arguments: arguments, environment: environment) else { return nil }
        self.init(level: level)
    }

    /// The level that launch arguments and an environment ask for, or `nil` when the log stays off.
    ///
    /// The launch argument ``launchArgument`` followed by a whole number is read first, then the
    /// environment variable ``environmentVariable``. A level of 0, a negative or non-numeric value, or
    /// the launch argument without a value leaves the log off; levels above ``maximumLevel`` count as it.
    public static func level(arguments: [String], environment: [String: String]) -> Int? {
        if let index = arguments.lastIndex(of: launchArgument) {
            let next = arguments.index(after: index)
            let value = next < arguments.endIndex ? arguments[next] : ""
            if let level = parse(value) { return level }
        }
        if let value = environment[environmentVariable], let level = parse(value) {
            return level
        }
        return nil
    }

    /// A level written as a positive whole number, capped at ``maximumLevel``.
    private static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        guard let level = Int(trimmed) else { return maximumLevel }
        return level > 0 ? Swift.min(level, maximumLevel) : nil
    }

    /// The log this process's launch arguments and environment ask for (read once, when first used),
    /// or `nil` when they leave it off.
    public static var process: SQLDebugLog? { processLog }

    private static let processLog = SQLDebugLog(
        arguments: CommandLine.arguments,
        environment: ProcessInfo.processInfo.environment)

    /// Whether messages of a kind are shown at this log's level.
    public func shows(_ kind: MessageKind) -> Bool {
        level >= kind.level
    }

    /// Writes a message of a kind when this log's level shows it.
    func write(_ kind: MessageKind, _ message: @autoclosure () -> String) {
        guard shows(kind) else { return }
        logger.log(
            level: kind.loggerLevel, Logger.Message(stringLiteral: message()),
            metadata: ["kind": .string(kind.rawValue)])
    }
}
