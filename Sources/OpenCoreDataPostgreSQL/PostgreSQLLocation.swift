import Foundation
import OpenCoreData

/// Where a PostgreSQL store lives, read from its `postgres://user:password@host:port/database?schema=name`
/// URL, with its TLS settings (`sslmode`, `sslrootcert`) and the name its connections show the server
/// (`application_name`). The password is kept here only: the store's own URL, its errors and its log lines never carry it.
struct PostgreSQLLocation: Sendable, Equatable {
    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String
    var schema: String
    var tls = PostgreSQLTLSMode()
    /// The name the server shows for the store's connections (`pg_stat_activity.application_name`), from
    /// the `application_name` query item as in libpq's URLs; ``defaultApplicationName`` when absent.
    var applicationName = Self.defaultApplicationName

    /// The application name of a store whose URL names none.
    static let defaultApplicationName = "OpenCoreData"

    /// Reads a store URL; throws `NSPersistentStoreInvalidTypeError` naming what is wrong with it.
    init(url: URL) throws {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql"
        else {
            throw PostgreSQLErrors.badLocation("its URL must start with postgres://")
        }
        guard let host = components.host, !host.isEmpty else { throw PostgreSQLErrors.badLocation("its URL names no host") }
        guard let user = components.user, !user.isEmpty else { throw PostgreSQLErrors.badLocation("its URL names no user") }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgreSQLErrors.badLocation("its URL must name one database, as in postgres://user@host/database")
        }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw PostgreSQLErrors.badLocation("its port \(port) is out of range") }
        var schema = "public"
        var tls = PostgreSQLTLSMode()
        var applicationName = Self.defaultApplicationName
        for item in components.queryItems ?? [] {
            switch item.name {
            case "schema":
                guard let value = item.value, !value.isEmpty else { throw PostgreSQLErrors.badLocation("its schema query item is empty") }
                schema = value
            case "sslmode":
                guard let value = item.value, let mode = PostgreSQLTLSMode.Mode(rawValue: value) else {
                    let names = PostgreSQLTLSMode.Mode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw PostgreSQLErrors.badLocation("its sslmode must be one of \(names)")
                }
                tls.mode = mode
            case "sslrootcert":
                guard let value = item.value, !value.isEmpty else { throw PostgreSQLErrors.badLocation("its sslrootcert query item is empty") }
                tls.rootCertificate = value
            case "application_name":
                guard let value = item.value, !value.isEmpty else { throw PostgreSQLErrors.badLocation("its application_name query item is empty") }
                applicationName = value
            default:
                throw PostgreSQLErrors.badLocation("its URL has the unknown query item \(item.name)")
            }
        }
        self.host = host
        self.port = port
        self.user = user
        self.password = components.password?.removingPercentEncoding ?? components.password
        self.database = database.removingPercentEncoding ?? database
        self.schema = schema
        self.tls = tls
        self.applicationName = applicationName
    }

    /// The store's URL without its password.
    var redactedURL: URL {
        var components = URLComponents()
        components.scheme = "postgres"
        components.user = user
        components.host = host
        components.port = port
        components.path = "/" + database
        var items: [URLQueryItem] = []
        if schema != "public" { items.append(URLQueryItem(name: "schema", value: schema)) }
        if tls.mode != .prefer { items.append(URLQueryItem(name: "sslmode", value: tls.mode.rawValue)) }
        if let root = tls.rootCertificate { items.append(URLQueryItem(name: "sslrootcert", value: root)) }
        if applicationName != Self.defaultApplicationName { items.append(URLQueryItem(name: "application_name", value: applicationName)) }
        if !items.isEmpty { components.queryItems = items }
        return components.url ?? URL(string: "postgres://\(host)")!
    }

    /// How errors and log lines name the store: its URL without the password.
    var displayName: String { redactedURL.absoluteString }
}
