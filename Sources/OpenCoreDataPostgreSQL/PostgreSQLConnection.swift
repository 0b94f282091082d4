import Foundation
import Logging
import OpenCoreData
import PostgresNIO
import Synchronization

/// One connection to the server, used from the store's calling threads, which block on postgres-nio's
/// futures; the futures run on postgres-nio's shared event loop group, whose threads never block.
/// Statements take turns: a transaction holds the connection from `BEGIN` to `COMMIT` or `ROLLBACK`.
// @unchecked Sendable: `connection` is read and replaced only while holding `lock`, which also keeps one
// statement or transaction at a time on the connection.
final class PostgreSQLConnection: @unchecked Sendable {
    let location: PostgreSQLLocation
    /// Where the statements are logged, when the SQL debug log is on.
    let debugLog: SQLDebugLog?
    private let lock = NSRecursiveLock()
    private var connection: PostgresConnection?
    private let logger: Logger
    private static let connectionIDs = Mutex(0)

    /// Connects to the server; throws the connection's failure as postgres-nio reports it.
    init(location: PostgreSQLLocation, debugLog: SQLDebugLog?) throws {
        self.location = location
        self.debugLog = debugLog.flatMap { $0.level > 0 ? $0 : nil }
        var logger = Logger(label: "OpenCoreDataPostgreSQL")
        logger.logLevel = .critical
        self.logger = logger
        connection = try connect()
    }

    private func connect() throws -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(10)
        let id = Self.connectionIDs.withLock { value in
            value += 1
            return value
        }
        return try PostgresConnection.connect(
            on: PostgresConnection.defaultEventLoopGroup.any(), configuration: configuration, id: id, logger: logger
        ).wait()
    }

    /// The connection a transaction under way runs on: its statements never move to another one.
    private var pinned: PostgresConnection?

    /// The open connection, reconnecting when the last one was closed (the server restarted, the network
    /// dropped) — except inside a transaction, whose statements fail once its connection is gone.
    private func live() throws -> PostgresConnection {
        if let pinned { return pinned }
        if let connection, !connection.isClosed { return connection }
        connection = nil
        let fresh = try connect()
        connection = fresh
        return fresh
    }

    /// Runs one statement and returns its rows and the number of rows it changed; the SQL debug log shows
    /// it as a statement of `kind`.
    @discardableResult
    func run(_ sql: String, _ binds: PostgresBindings = PostgresBindings(), kind: SQLDebugLog.MessageKind = .statement) throws
        -> PostgresQueryResult
    {
        try lock.withLock {
            guard let debugLog else { return try live().query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).wait() }
            debugLog.post(kind, "CoreData: sql: \(sql)")
            let start = Date()
            let result = try live().query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).wait()
            debugLog.post(
                .timing, "CoreData: annotation: sql execution time: \(SQLDebugLog.postgreSQLSeconds(Date().timeIntervalSince(start))) for \(sql)")
            return result
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try lock.withLock {
            try run("BEGIN", kind: .transaction)
            pinned = connection
            defer { pinned = nil }
            do {
                let result = try body()
                try run("COMMIT", kind: .transaction)
                return result
            } catch {
                if let pinned, !pinned.isClosed { try? run("ROLLBACK", kind: .transaction) }
                throw error
            }
        }
    }

    /// Closes the connection.
    func close() {
        lock.withLock {
            try? connection?.close().wait()
            connection = nil
        }
    }

    deinit {
        try? connection?.close().wait()
    }
}
