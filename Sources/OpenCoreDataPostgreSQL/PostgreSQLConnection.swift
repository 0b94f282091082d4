import Foundation
import Logging
import OpenCoreData
import PostgresNIO
import Synchronization

/// The store's connections to the server: a pool of at most `size`, opened as requests need them and used
/// from the store's calling threads, which block on postgres-nio's futures; the futures run on
/// postgres-nio's shared event loop group, whose threads never block.
///
/// A statement takes a free connection and gives it back; a request that finds every connection busy waits
/// for one. A transaction holds one connection from `BEGIN` to `COMMIT` or `ROLLBACK`, and every statement
/// its thread runs in between goes to that connection. A connection the server closed (it restarted, the
/// network dropped) is opened again: a statement outside a transaction that meets the closed connection
/// runs once more on a new one; a transaction whose connection closes fails, and the server rolls it back.
// @unchecked Sendable: `connections`, `busy` and `held` are read and written only while holding
// `condition`'s lock; a connection marked busy is used by the one thread that marked it.
final class PostgreSQLConnection: @unchecked Sendable {
    let location: PostgreSQLLocation
    /// Where the statements are logged, when the SQL debug log is on.
    let debugLog: SQLDebugLog?
    /// The most connections open at once.
    let size: Int
    private let condition = NSCondition()
    private var connections: [PostgresConnection?]
    private var busy: [Bool]
    /// The connection each thread's transaction under way holds, by thread.
    private var held: [UInt: Int] = [:]
    private let logger: Logger
    private let tls: PostgresConnection.Configuration.TLS
    private static let connectionIDs = Mutex(0)

    /// Opens the first connection; throws its failure as postgres-nio reports it.
    init(location: PostgreSQLLocation, size: Int, debugLog: SQLDebugLog?) throws {
        self.location = location
        self.size = max(1, size)
        self.debugLog = debugLog.flatMap { $0.level > 0 ? $0 : nil }
        var logger = Logger(label: "OpenCoreDataPostgreSQL")
        logger.logLevel = .critical
        self.logger = logger
        tls = try location.tls.configuration(for: location)
        connections = Array(repeating: nil, count: self.size)
        busy = Array(repeating: false, count: self.size)
        connections[0] = try connect()
    }

    private func connect() throws -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: tls)
        configuration.options.connectTimeout = .seconds(10)
        configuration.options.additionalStartupParameters = [("application_name", location.applicationName)]
        // The name to verify the certificate against and to send in SNI; an IP address is no SNI name
        // (NIOSSL refuses it), and without one NIOSSL checks the certificate's IP addresses against the
        // server's address instead.
        if location.tls.verifiesHost, !PostgreSQLTLSMode.isIPAddress(location.host) { configuration.options.tlsServerName = location.host }
        let id = Self.connectionIDs.withLock { value in
            value += 1
            return value
        }
        return try PostgresConnection.connect(
            on: PostgresConnection.defaultEventLoopGroup.any(), configuration: configuration, id: id, logger: logger
        ).wait()
    }

    /// Takes a free connection (waiting for one when all are busy), or the one the thread's transaction
    /// holds; a slot without an open connection gets a new one.
    private func acquire() throws -> (index: Int, connection: PostgresConnection, pinned: Bool) {
        condition.lock()
        if let index = held[Self.thread] {
            let connection = connections[index]
            condition.unlock()
            guard let connection else { throw ChannelError.ioOnClosedChannel }
            return (index, connection, true)
        }
        // An open idle connection first, then a slot without one.
        var index: Int?
        while index == nil {
            index =
                busy.indices.first { !busy[$0] && connections[$0].map { !$0.isClosed } == true }
                ?? busy.indices.first { !busy[$0] }
            if index == nil { condition.wait() }
        }
        let slot = index!
        busy[slot] = true
        let existing = connections[slot]
        condition.unlock()
        if let existing, !existing.isClosed { return (slot, existing, false) }
        do {
            // Not waited for: closing a connection the server is ending need not complete soon.
            if let existing { Self.closeUnwaited(existing) }
            let connection = try connect()
            condition.withLock { connections[slot] = connection }
            return (slot, connection, false)
        } catch {
            condition.withLock {
                connections[slot] = nil
                busy[slot] = false
                condition.signal()
            }
            throw error
        }
    }

    /// The calling thread.
    private static var thread: UInt { UInt(pthread_self()) }

    private func release(_ index: Int) {
        condition.withLock {
            busy[index] = false
            condition.signal()
        }
    }

    /// Whether an error says the connection is gone, so that the statement can run again on a new one.
    static func isConnectionLost(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return error is ChannelError || error is IOError }
        if [.serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .connectionError].contains(error.code) { return true }
        // 57P01 admin_shutdown, 57P02 crash_shutdown: the server ended the session.
        if let state = error.serverInfo?[.sqlState], state == "57P01" || state == "57P02" { return true }
        return false
    }

    /// Runs one statement and returns its rows and the number of rows it changed; the SQL debug log shows
    /// it as a statement of `kind`.
    @discardableResult
    func run(_ sql: String, _ binds: PostgresBindings = PostgresBindings(), kind: SQLDebugLog.MessageKind = .statement) throws
        -> PostgresQueryResult
    {
        debugLog?.post(kind, "CoreData: sql: \(sql)")
        let start = Date()
        var taken = try acquire()
        var result: PostgresQueryResult
        do {
            result = try taken.connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).wait()
        } catch  where !taken.pinned && Self.isConnectionLost(error) {
            // The server closed the connection since its last statement: once more on a new one.
            discard(taken.index)
            release(taken.index)
            taken = try acquire()
            do {
                result = try taken.connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger).wait()
            } catch {
                release(taken.index)
                throw error
            }
        } catch {
            if !taken.pinned { release(taken.index) }
            throw error
        }
        if !taken.pinned { release(taken.index) }
        debugLog?.post(
            .timing, "CoreData: annotation: sql execution time: \(SQLDebugLog.postgreSQLSeconds(Date().timeIntervalSince(start))) for \(sql)")
        return result
    }

    /// Runs `body` in one transaction on one connection: committed when it returns, rolled back when it
    /// throws.
    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        let thread = Self.thread
        if condition.withLock({ held[thread] != nil }) { return try body() }
        var index = try acquire().index
        func begin() throws {
            condition.withLock { held[thread] = index }
            do {
                try run("BEGIN", kind: .transaction)
            } catch {
                condition.withLock { held[thread] = nil }
                if Self.isConnectionLost(error) { discard(index) }
                release(index)
                throw error
            }
        }
        do {
            try begin()
        } catch  where Self.isConnectionLost(error) {
            // The server closed the connection since its last request: BEGIN once more on a new one.
            index = try acquire().index
            try begin()
        }
        defer {
            condition.withLock { held[thread] = nil }
            release(index)
        }
        do {
            let result = try body()
            try run("COMMIT", kind: .transaction)
            return result
        } catch {
            if Self.isConnectionLost(error) {
                // The server ended the session and so rolled the transaction back. A ROLLBACK sent on the
                // dying connection was seen to wait forever (its future never completed after the server's
                // FATAL 57P01 at `pg_ctl stop`), so the connection is dropped instead, unwaited, and its
                // slot gets a new one.
                discard(index)
            } else if condition.withLock({ connections[index].map { !$0.isClosed } ?? false }) {
                _ = try? run("ROLLBACK", kind: .transaction)
            }
            throw error
        }
    }

    /// Forgets the connection of a slot its thread holds, closing it without waiting (closing a connection
    /// the server is ending need not complete soon).
    private func discard(_ index: Int) {
        let connection = condition.withLock {
            let connection = connections[index]
            connections[index] = nil
            return connection
        }
        if let connection { Self.closeUnwaited(connection) }
    }

    /// Closes a connection without waiting, keeping it until it is closed (postgres-nio asserts that a
    /// connection is closed when it goes away).
    private static func closeUnwaited(_ connection: PostgresConnection) {
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// Closes the connections.
    func close() {
        let open = condition.withLock {
            let open = connections.compactMap { $0 }
            connections = Array(repeating: nil, count: size)
            return open
        }
        for connection in open { try? connection.close().wait() }
    }

    deinit {
        for connection in connections { try? connection?.close().wait() }
    }
}
