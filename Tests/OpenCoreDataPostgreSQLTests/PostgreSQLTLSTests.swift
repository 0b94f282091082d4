import Foundation
import OpenCoreData
import OpenCoreDataPostgreSQL
import Testing

/// TLS as the URL's `sslmode` asks, against a cluster of the test's own with `ssl=on` and a self-signed
/// certificate for 127.0.0.1, and against the shared server, which has no TLS.
@Suite(
    "PostgreSQL store TLS", .serialized, .tags(.slow),
    .enabled(if: PostgreSQLTestKit.enabled && PostgreSQLPrivateCluster.available, PostgreSQLPrivateCluster.reason))
struct PostgreSQLTLSTests {
    /// How many of the connections of application `name` use TLS, and how many there are, as `tls|all`.
    private func tlsUse(_ name: String, psql: (String) throws -> String) throws -> String {
        try psql(
            "SELECT count(*) FILTER (WHERE s.ssl) || '|' || count(*) FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.application_name = '\(name)'"
        )
    }

    /// Opens a store and saves and fetches through it.
    private func openAndUse(_ url: URL) throws -> NSPersistentStoreCoordinator {
        let coordinator = try PostgreSQLTestKit.open(url)
        let context = PostgreSQLTestKit.context(coordinator)
        try context.performAndWait { () throws -> Void in
            NSEntityDescription.insertNewObject(forEntityName: "Person", into: context).setValue("Tess", forKey: "name")
            try context.save()
            #expect(try context.count(for: NSFetchRequest<NSManagedObject>(entityName: "Person")) == 1)
        }
        return coordinator
    }

    @Test("require, verify-ca and verify-full with the server's certificate, prefer and allow use TLS; disable does not")
    func connects() throws {
        let cluster = try PostgreSQLPrivateCluster.start(tls: true)
        defer { cluster.destroy() }
        let certificate = try #require(cluster.certificate)
        let cases: [([String: String], String)] = [
            (["sslmode": "require"], "1|1"),
            (["sslmode": "verify-ca", "sslrootcert": certificate], "1|1"),
            (["sslmode": "verify-full", "sslrootcert": certificate], "1|1"),
            ([:], "1|1"),
            (["sslmode": "prefer"], "1|1"),
            (["sslmode": "allow"], "1|1"),
            (["sslmode": "disable"], "0|1"),
        ]
        for (items, expected) in cases {
            let name = PostgreSQLTestKit.applicationName("ocd_tls")
            var query = items
            query["application_name"] = name
            let coordinator = try openAndUse(try cluster.storeURL(query))
            #expect(try tlsUse(name) { try cluster.psql($0) } == expected, "\(items)")
            withExtendedLifetime(coordinator) {}
        }
    }

    @Test("verify-full and verify-ca without the server's certificate or with another one, and verify-full for another host, fail with a clear error")
    func refusesUnverified() throws {
        // The certificate names db.invalid only, not 127.0.0.1, which the URLs name.
        let cluster = try PostgreSQLPrivateCluster.start(tls: true, certificateName: "DNS:db.invalid")
        defer { cluster.destroy() }
        let certificate = try #require(cluster.certificate)
        let other = cluster.directory + "/other.crt"
        try HelperProcess.check(
            "/usr/bin/openssl",
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=db.invalid", "-addext", "subjectAltName=DNS:db.invalid",
                "-keyout", cluster.directory + "/other.key", "-out", other,
            ])
        let cases: [[String: String]] = [
            ["sslmode": "verify-full"], ["sslmode": "verify-ca"], ["sslmode": "verify-full", "sslrootcert": other],
            ["sslmode": "verify-ca", "sslrootcert": other], ["sslmode": "verify-full", "sslrootcert": certificate],
        ]
        for items in cases {
            let url = try cluster.storeURL(items)
            let error = try #require(throws: NSError.self, "\(items)") { _ = try PostgreSQLTestKit.open(url) }
            #expect(error.domain == NSCocoaErrorDomain)
            #expect(error.code == NSPersistentStoreOpenError, "\(items): \(error)")
            #expect(error.localizedDescription.contains("TLS/SSL handshake"), "\(items): \(error.localizedDescription)")
            #expect(error.userInfo[NSUnderlyingErrorKey] is NSError)
        }
        // verify-ca checks the authority, not the name.
        #expect(throws: Never.self) { _ = try openAndUse(try cluster.storeURL(["sslmode": "verify-ca", "sslrootcert": certificate])) }
        #expect(throws: Never.self) { _ = try openAndUse(try cluster.storeURL(["sslmode": "require"])) }
    }

    @Test("against a server without TLS, require fails saying the server does not support it; disable, allow and prefer connect in plain")
    func serverWithoutTLS() throws {
        let url = try PostgreSQLTestKit.newStoreURL()
        let error = try #require(throws: NSError.self) {
            _ = try PostgreSQLTestKit.open(try PostgreSQLTestKit.url(url, adding: ["sslmode": "require"]))
        }
        #expect(error.domain == NSCocoaErrorDomain)
        #expect(error.code == NSPersistentStoreOpenError)
        #expect(error.localizedDescription.contains("does not support TLS/SSL"), "\(error.localizedDescription)")
        #expect(error.localizedDescription.contains("sslmode=require"), "\(error.localizedDescription)")
        for mode in ["disable", "allow", "prefer"] {
            let name = PostgreSQLTestKit.applicationName("ocd_plain")
            let coordinator = try openAndUse(
                try PostgreSQLTestKit.url(try PostgreSQLTestKit.newStoreURL(), adding: ["sslmode": mode, "application_name": name]))
            #expect(try tlsUse(name) { try PostgreSQLTestKit.psql($0) } == "0|1", "\(mode)")
            withExtendedLifetime(coordinator) {}
        }
    }
}
