import Foundation
import Synchronization
import Testing

/// Helper processes (initdb, pg_ctl, psql, openssl) run so that they cannot hang a test: started with
/// `posix_spawn`, their input `/dev/null`, their output and errors written to files (never a pipe that
/// fills up or that a server they start keeps open), every other descriptor of the test process closed in
/// them, and waited for with `waitpid` on the calling thread, with no run loop and no Foundation `Process`.
enum HelperProcess {
    /// What a process did: its exit status (128 + the signal when a signal ended it), its output and its
    /// errors.
    struct Outcome {
        var status: Int32
        var output: String
        var errors: String
    }

    /// A process started and not yet waited for.
    struct Started {
        var pid: pid_t
        var log: String

        /// Asks the process to end (SIGTERM).
        func terminate() { kill(pid, SIGTERM) }

        /// Waits for the process to end; returns what it did.
        func wait() -> Outcome {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            let errors = (try? String(contentsOfFile: log + ".err", encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(atPath: log)
            try? FileManager.default.removeItem(atPath: log + ".err")
            return Outcome(status: exit, output: output, errors: errors)
        }
    }

    /// Starts `executable` with `arguments`, the test process's environment with `environment` over it,
    /// in `directory` (the test process's when nil).
    static func start(_ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil)
        throws -> Started
    {
        let log = NSTemporaryDirectory() + "ocd-helper-\(UUID().uuidString).log"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, log + ".err", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard Self.addCloseFrom(&actions, 3) == 0 else { throw POSIXError(.EINVAL) }
        if let directory { guard Self.addChdir(&actions, directory) == 0 else { throw POSIXError(.EINVAL) } }
        var merged = ProcessInfo.processInfo.environment
        merged.merge(environment) { _, new in new }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else {
            throw NSError(
                domain: NSPOSIXErrorDomain, code: Int(result),
                userInfo: [NSLocalizedDescriptionKey: "cannot start \(executable): \(String(cString: strerror(result)))"])
        }
        return Started(pid: pid, log: log)
    }

    // glibc's (2.34+) file actions that close every descriptor from one on and change the directory; the
    // Glibc module leaves them out (they need _GNU_SOURCE), so they are looked up by name.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, UnsafePointer<CChar>?) -> Int32
    private static let addCloseFrom = unsafeBitCast(
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np"), to: AddCloseFrom.self)
    private static let addChdir = unsafeBitCast(
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addchdir_np"), to: AddChdir.self)

    /// Runs a process to its end; returns what it did.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil) throws
        -> Outcome
    {
        try start(executable, arguments, environment: environment, directory: directory).wait()
    }

    /// Runs a process that must succeed; records an issue with its output and throws when it does not.
    @discardableResult
    static func check(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let outcome = try run(executable, arguments, environment: environment, directory: directory)
        guard outcome.status == 0 else {
            Issue.record(
                "\(executable) \(arguments.joined(separator: " ")) exited with \(outcome.status): \(outcome.output)\(outcome.errors)",
                sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return outcome.output
    }

    /// A TCP port on 127.0.0.1 that nothing listened on a moment ago.
    static func freePort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, length) == 0 && getsockname(socketFD, $0, &length) == 0 }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A PostgreSQL cluster of a test's own, for tests that stop or restart their server or need one with TLS,
/// so that the shared server of `Scripts/with-postgres.sh` never stops under other tests: initdb into a
/// temporary directory as `OPENCOREDATA_POSTGRES_RUN_AS`, the user `ocd` with a random password, a server on
/// a free port of 127.0.0.1 and a database `opencoredata`. Call ``destroy()`` when done.
struct PostgreSQLPrivateCluster: Sendable {
    let directory: String
    let port: Int
    let password: String
    /// The server's certificate (its own authority), when it has TLS.
    let certificate: String?
    private let bin: String
    private let runAs: String
    /// The server's `-c` settings, for each start.
    private let settings: String

    /// Whether the tests can start clusters: `Scripts/with-postgres.sh` says where pg_ctl is.
    static var available: Bool {
        ProcessInfo.processInfo.environment["OPENCOREDATA_POSTGRES_PGCTL"].map { !$0.isEmpty } ?? false
    }

    static let reason: Comment = "needs pg_ctl and initdb: run Scripts/with-postgres.sh swift test --filter OpenCoreDataPostgreSQLTests"

    /// Creates and starts a cluster; with `tls`, `ssl=on` and a self-signed certificate whose subject's
    /// common name and alternative name are `certificateName` (`IP:127.0.0.1` or `DNS:…`).
    static func start(tls: Bool = false, certificateName: String = "IP:127.0.0.1") throws -> PostgreSQLPrivateCluster {
        let environment = ProcessInfo.processInfo.environment
        let pgctl = try #require(environment["OPENCOREDATA_POSTGRES_PGCTL"], "OPENCOREDATA_POSTGRES_PGCTL is not set")
        let runAs = environment["OPENCOREDATA_POSTGRES_RUN_AS"] ?? ""
        let directory = NSTemporaryDirectory() + "ocd-cluster-" + UUID().uuidString.prefix(8).lowercased()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let password = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try Data((password + "\n").utf8).write(to: URL(fileURLWithPath: directory + "/password"))
        var certificate: String?
        if tls {
            try HelperProcess.check(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                    "/CN=" + String(certificateName.drop { $0 != ":" }.dropFirst()),
                    "-addext", "subjectAltName=" + certificateName, "-keyout", directory + "/server.key", "-out", directory + "/server.crt",
                ])
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory + "/server.key")
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory + "/server.crt")
            certificate = directory + "/server.crt"
        }
        if !runAs.isEmpty { try HelperProcess.check("/bin/chown", ["-R", runAs, directory]) }
        let port = try HelperProcess.freePort()
        var settings = ["listen_addresses=127.0.0.1", "port=\(port)", "unix_socket_directories=\(directory)", "fsync=off", "max_connections=30"]
        if tls { settings += ["ssl=on", "ssl_cert_file=\(directory)/server.crt", "ssl_key_file=\(directory)/server.key"] }
        let cluster = PostgreSQLPrivateCluster(
            directory: directory, port: port, password: password, certificate: certificate, bin: (pgctl as NSString).deletingLastPathComponent,
            runAs: runAs, settings: settings.map { "-c " + $0 }.joined(separator: " "))
        do {
            try cluster.server("initdb", ["-D", cluster.data, "-U", "ocd", "--pwfile=\(directory)/password", "-A", "scram-sha-256", "--no-sync"])
            try cluster.startAgain()
            try cluster.psql("CREATE DATABASE opencoredata", database: "postgres")
        } catch {
            cluster.destroy()
            throw error
        }
        return cluster
    }

    private var data: String { directory + "/data" }

    /// Runs one of the server's programs as the cluster's owner, from the cluster's directory.
    @discardableResult
    private func server(_ program: String, _ arguments: [String], checked: Bool = true) throws -> String {
        let (executable, arguments) =
            runAs.isEmpty ? (bin + "/" + program, arguments) : ("/usr/sbin/runuser", ["-u", runAs, "--", bin + "/" + program] + arguments)
        if checked { return try HelperProcess.check(executable, arguments, directory: directory) }
        return try HelperProcess.run(executable, arguments, directory: directory).output
    }

    /// A store URL of a new schema on the cluster, with more query items.
    func storeURL(_ items: [String: String] = [:], password: String? = nil) throws -> URL {
        var components = URLComponents()
        components.scheme = "postgres"
        components.user = "ocd"
        components.password = password ?? self.password
        components.host = "127.0.0.1"
        components.port = port
        components.path = "/opencoredata"
        components.queryItems =
            [URLQueryItem(name: "schema", value: "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""))]
            + items.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        return try #require(components.url)
    }

    /// Runs `psql` on a database of the cluster and returns its unaligned output.
    @discardableResult
    func psql(_ sql: String, database: String = "opencoredata") throws -> String {
        try HelperProcess.check(
            "/usr/bin/psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "ocd", "-d", database, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql],
            environment: ["PGPASSWORD": password]
        ).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts `psql` running `sql` as application `name` in the background; wait for it with
    /// ``HelperProcess/Started/wait()``.
    func psqlInBackground(_ sql: String, applicationName name: String) throws -> HelperProcess.Started {
        try HelperProcess.start(
            "/usr/bin/psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", "ocd", "-d", "opencoredata", "-X", "-A", "-t", "-c", sql],
            environment: ["PGPASSWORD": password, "PGAPPNAME": name])
    }

    /// Stops the server, ending its sessions (`-m fast`: their transactions roll back), or at once as in a
    /// crash (`-m immediate`: no session runs another statement, and the next start recovers).
    func stop(immediately: Bool = false) throws {
        try server("pg_ctl", ["-D", data, "-m", immediately ? "immediate" : "fast", "-w", "stop"])
    }

    /// Starts the stopped server again, with the settings it had.
    func startAgain() throws { try server("pg_ctl", ["-D", data, "-l", directory + "/server.log", "-w", "-o", settings, "start"]) }

    /// Restarts the server (`-m fast`).
    func restart() throws { try server("pg_ctl", ["-D", data, "-m", "fast", "-w", "restart"]) }

    /// Stops the server and removes the cluster's directory.
    func destroy() {
        _ = try? server("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"], checked: false)
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Work on threads of their own: requests that block (a fetch waiting for a lock at the server) must not
/// take the threads of Swift's cooperative pool, which the other tests run on.
final class TestThreads: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let count: Int

    /// Starts `body(0)` … `body(count - 1)`, each on a new thread.
    init(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        self.count = count
        for index in 0..<count {
            let done = done
            let thread = Thread {
                body(index)
                done.signal()
            }
            thread.start()
        }
    }

    /// Waits for every thread to end, at most `seconds`; returns whether they all did.
    func wait(seconds: Double) -> Bool {
        let deadline = DispatchTime.now() + seconds
        for _ in 0..<count where done.wait(timeout: deadline) == .timedOut { return false }
        return true
    }
}

/// Polls `condition` every 50 ms until it holds or `seconds` pass; returns whether it held.
func eventually(seconds: Double = 30, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.05)
    }
    return try condition()
}

extension PostgreSQLTestKit {
    /// `url` with more query items.
    static func url(_ url: URL, adding items: [String: String]) throws -> URL {
        var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        components.queryItems = (components.queryItems ?? []) + items.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        return try #require(components.url)
    }

    /// A name no other test's connections use, for a store's `application_name`.
    static func applicationName(_ prefix: String) -> String {
        prefix + "_" + UUID().uuidString.prefix(8).lowercased()
    }

    /// Starts `psql` on the shared server running `sql` as application `name` in the background.
    static func psqlInBackground(_ sql: String, applicationName name: String) throws -> HelperProcess.Started {
        try HelperProcess.start("/usr/bin/psql", [try server().absoluteString, "-X", "-A", "-t", "-c", sql], environment: ["PGAPPNAME": name])
    }
}

/// A value threads share, behind a lock (a class, so that escaping closures can hold it).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    /// Runs `body` on the value while holding the lock.
    func withLock<Result: Sendable>(_ body: (inout sending Value) -> Result) -> Result { mutex.withLock { body(&$0) } }
}
