import ArgumentParser
import OpenCoreData

#if canImport(OpenCoreDataPostgreSQL)
import OpenCoreDataPostgreSQL
#endif

/// Where `ocd demo` keeps its store: a SQLite file, memory, or a PostgreSQL server named by a
/// `postgres://` (or `postgresql://`) URL.
enum DemoStore {
    case sqlite(path: String)
    case inMemory
    case postgreSQL(URL)

    /// The store `--store` and `--in-memory` name; throws a `ValidationError` for a PostgreSQL URL this
    /// build of `ocd` cannot open (built with `OCD_WITHOUT_POSTGRESQL=1`) or cannot read.
    init(argument: String, inMemory: Bool) throws {
        if inMemory {
            self = .inMemory
            return
        }
        let lowered = argument.lowercased()
        guard lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") else {
            self = .sqlite(path: argument)
            return
        }
        #if canImport(OpenCoreDataPostgreSQL)
        guard let url = URL(string: argument) else {
            throw ValidationError("--store \(Self.redacted(argument)) is not a URL (postgres://user:password@host:port/database).")
        }
        self = .postgreSQL(url)
        #else
        throw ValidationError(
            "--store names a PostgreSQL server, but this ocd was built without the PostgreSQL store (OCD_WITHOUT_POSTGRESQL=1); rebuild without it, or give a SQLite file."
        )
        #endif
    }

    /// The description of the store to add.
    func description() -> NSPersistentStoreDescription {
        switch self {
        case .inMemory:
            let description = NSPersistentStoreDescription()
            description.type = NSInMemoryStoreType
            return description
        case .sqlite(let path):
            return NSPersistentStoreDescription(url: URL(fileURLWithPath: path))
        case .postgreSQL(let url):
            let description = NSPersistentStoreDescription(url: url)
            #if canImport(OpenCoreDataPostgreSQL)
            PostgreSQLStore.register()
            description.type = PostgreSQLStoreType
            #endif
            return description
        }
    }

    /// How the demo names the open store: "in memory", the SQLite file's path, or the server's URL
    /// without its password.
    func displayName(of store: NSPersistentStore?) -> String {
        switch self {
        case .inMemory: return "in memory"
        case .sqlite(let path): return store?.url?.path ?? path
        case .postgreSQL(let url): return store?.url?.absoluteString ?? Self.redacted(url.absoluteString)
        }
    }

    /// A URL's text without the password between `user:` and `@`.
    private static func redacted(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text.range(of: "@", range: scheme.upperBound..<text.endIndex),
            let colon = text.range(of: ":", range: scheme.upperBound..<at.lowerBound)
        else { return text }
        return String(text[..<colon.upperBound]) + "***" + String(text[at.lowerBound...])
    }
}
