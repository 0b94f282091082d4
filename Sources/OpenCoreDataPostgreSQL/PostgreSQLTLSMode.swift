import Foundation
import PostgresNIO

/// How a store's connections use TLS, from the `sslmode` query item of its URL, in libpq's words:
/// `disable` never, `allow` and `prefer` (the default) when the server offers it, `require` always without
/// checking the server's certificate, `verify-ca` always with a certificate signed by a trusted
/// authority, `verify-full` also issued for the URL's host. The `sslrootcert` query item names a PEM file
/// of the authorities to trust; without it the system's are.
struct PostgreSQLTLSMode: Sendable, Equatable {
    enum Mode: String, Sendable, CaseIterable {
        case disable
        case allow
        case prefer
        case require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    var mode: Mode = .prefer
    /// The PEM file of the certificate authorities to trust.
    var rootCertificate: String?

    /// Whether the server's certificate must name the URL's host.
    var verifiesHost: Bool { mode == .verifyFull }

    /// Whether a host is an IPv4 or IPv6 address rather than a name.
    static func isIPAddress(_ host: String) -> Bool {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1
    }

    /// postgres-nio's TLS setting for the mode.
    func configuration(for location: PostgreSQLLocation) throws -> PostgresConnection.Configuration.TLS {
        if mode == .disable { return .disable }
        var tls = TLSConfiguration.makeClientConfiguration()
        switch mode {
        case .disable, .allow, .prefer, .require: tls.certificateVerification = .none
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        if let rootCertificate { tls.trustRoots = .file(rootCertificate) }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: tls)
        } catch {
            throw PostgreSQLErrors.badLocation(
                "its TLS settings cannot be used (sslmode=\(mode.rawValue)\(rootCertificate.map { ", sslrootcert=\($0)" } ?? "")): \(error)")
        }
        return mode == .allow || mode == .prefer ? .prefer(context) : .require(context)
    }
}
