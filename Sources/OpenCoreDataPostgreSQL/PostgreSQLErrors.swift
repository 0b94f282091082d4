import Foundation
import OpenCoreData
import PostgresNIO

/// The errors of the PostgreSQL store, in Core Data's domain and codes; each names the store by its URL
/// without the password, and the cause.
enum PostgreSQLErrors {
    /// A store URL the store cannot use.
    static func badLocation(_ problem: String) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreInvalidTypeError,
            userInfo: [NSLocalizedDescriptionKey: "The PostgreSQL store cannot be opened: \(problem)."])
    }

    /// A failure to open the store: the server is unreachable, refuses the credentials or the layout.
    static func open(_ location: PostgreSQLLocation, _ error: any Error) -> NSError {
        failure(NSPersistentStoreOpenError, "The PostgreSQL store at \(location.displayName) cannot be opened", error)
    }

    /// A fetch, fault or relationship read that failed at the server.
    static func operation(_ location: PostgreSQLLocation, _ error: any Error) -> NSError {
        failure(NSPersistentStoreOperationError, "The PostgreSQL store at \(location.displayName) cannot answer a request", error)
    }

    /// A save that failed and wrote nothing.
    static func save(_ location: PostgreSQLLocation, _ error: any Error) -> NSError {
        let bridged = error as NSError
        if bridged.domain == NSCocoaErrorDomain, bridged.code == NSManagedObjectMergeError { return bridged }
        return failure(NSPersistentStoreSaveError, "The PostgreSQL store at \(location.displayName) did not save; nothing was written", error)
    }

    /// A failure to give new objects permanent IDs, which a context asks for first when it saves: a save's
    /// error (134030), since the save then writes nothing.
    static func permanentIDs(_ location: PostgreSQLLocation, _ error: any Error) -> NSError {
        failure(
            NSPersistentStoreSaveError,
            "The PostgreSQL store at \(location.displayName) cannot give the new objects permanent IDs; nothing was written",
            error)
    }

    /// A save that found an object changed or deleted by another coordinator since the checks before it.
    static func conflict(_ location: PostgreSQLLocation, _ objectID: NSManagedObjectID) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSManagedObjectMergeError,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "The PostgreSQL store at \(location.displayName) did not save: \(objectID.uriRepresentation().absoluteString) was changed or deleted by another coordinator during the save; nothing was written."
            ])
    }

    /// Something the store cannot store or read, named.
    static func unsupported(_ location: PostgreSQLLocation, _ problem: String) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreOperationError,
            userInfo: [NSLocalizedDescriptionKey: "The PostgreSQL store at \(location.displayName): \(problem)."])
    }

    private static func failure(_ code: Int, _ what: String, _ error: any Error) -> NSError {
        let bridged = error as NSError
        if bridged.domain == NSCocoaErrorDomain { return bridged }
        return NSError(
            domain: NSCocoaErrorDomain, code: code,
            userInfo: [NSLocalizedDescriptionKey: "\(what): \(cause(of: error)).", NSUnderlyingErrorKey: error as NSError])
    }

    /// What went wrong, in words that never carry the password: the server's message and SQL state, or the
    /// kind of connection failure.
    static func cause(of error: any Error) -> String {
        if let error = error as? PSQLError {
            // The server answered the TLS request with "no": it has no TLS, which the URL's sslmode requires.
            if error.code == .sslUnsupported { return "the server does not support TLS/SSL connections, which the URL's sslmode requires" }
            if let message = error.serverInfo?[.message] {
                let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
                return "the server said \(message)\(state)"
            }
            if let underlying = error.underlying { return "\(error.code): \(describe(underlying))" }
            return "\(error.code)"
        }
        return describe(error)
    }

    private static func describe(_ error: any Error) -> String {
        if error is NIOSSLError || error is NIOSSLExtraError || error is BoringSSLError {
            return "the TLS/SSL handshake with the server failed (\(error))"
        }
        if let error = error as? IOError { return "cannot reach the server (\(error.description))" }
        if let error = error as? NIOConnectionError {
            return "cannot reach the server at \(error.host):\(error.port)"
        }
        if error is ChannelError { return "the connection to the server failed (\(error))" }
        return String(describing: error)
    }
}
