import GRDB

/// Opening a SQLite store: creating the file when nothing is there, checking an existing file without
/// changing it, then connecting with the options' pragmas.
extension SQLiteStore {
    /// Opens the file for the model (see ``NSPersistentStore/_open(model:)``).
    func openStore(model: NSManagedObjectModel) throws {
        let url = fileURL
        let configuration = configurationName == "PF_DEFAULT_CONFIGURATION_NAME" ? nil : configurationName
        let schema = try SQLiteSchema(model: model, configurationName: configuration)
        let pragmas = try Self.pragmas(from: options, url: url)
        _sqlDebugLog = resolvedSQLDebugLog()
        _sqlDebugLog?.write(.annotation, "CoreData: annotation: Connecting to sqlite database file at \"\(url.path)\"")
        var isDirectory: ObjCBool = false
        // The metadata of the store in the file; nil while there is none (no file, or an empty database:
        // a destroyed store, a zero-length file), where a store is created.
        var existing: SQLiteStoreMetadata?
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw SQLiteStoreFileAccess.fileError(
                    NSFileReadCorruptFileError, url,
                    "The store path \(url.path) is a directory, not a SQLite file.")
            }
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                throw SQLiteStoreFileAccess.fileError(
                    NSFileReadNoPermissionError, url,
                    "The store file \(url.path) cannot be read (permission denied).")
            }
            // A read-only store must be a store: reading it the strict way throws what is missing.
            existing =
                isReadOnly
                ? try SQLiteStoreMetadata.read(fromStoreAt: url)
                : try SQLiteStoreMetadata.readUnlessEmpty(fromStoreAt: url)
        } else if isReadOnly {
            throw SQLiteStoreFileAccess.fileError(
                NSFileReadNoSuchFileError, url,
                "There is no store file at \(url.path) to open read-only.")
        }
        if existing == nil {
            let directory = url.deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            } catch {
                throw SQLiteStoreFileAccess.fileError(
                    NSFileWriteNoPermissionError, url,
                    "Cannot create the directory \(directory.path) for the store file \(url.path).")
            }
            let outcome = try SQLiteStoreCreation.createStoreUnlessPresent(
                at: url, model: model, configurationName: configuration,
                sqlDebugLog: _sqlDebugLog)
            switch outcome {
            case .created(let metadata): _setLoadedMetadata(metadata.dictionary)
            case .foundStore: existing = try SQLiteStoreMetadata.read(fromStoreAt: url)
            }
        }
        if var metadata = existing {
            if try !checkCompatibility(metadata, schema: schema, model: model, configuration: configuration) {
                metadata = try SQLiteStoreMetadata.read(fromStoreAt: url)
            }
            _setLoadedMetadata(metadata.dictionary)
        }
        _database = try connect(url: url, pragmas: pragmas)
        let journalMode = try? _database?.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        _files = SQLiteStoreFiles(url: url, wal: journalMode?.lowercased() == "wal")
        _triggerMaintainedColumns = try _database?.read { try SQLiteDerivedAttributeTriggers.maintainedColumns(in: $0) } ?? [:]
        prepareLookups(schema: schema, model: model)
        _schema = schema
        _compiler = SQLiteFetchCompiler(schema: schema, model: model, storeIdentifier: identifier)
        _model = model
        try openHistory(schema: schema, model: model)
        if !isReadOnly, let database = _database {
            if PersistentStoreOptions.bool(options?[NSSQLiteAnalyzeOption]) == true {
                try SQLiteStoreFileAccess.run(url) { try database.writeWithoutTransaction { try $0.execute(sql: "ANALYZE") } }
            }
            if PersistentStoreOptions.bool(options?[NSSQLiteManualVacuumOption]) == true {
                try SQLiteStoreFileAccess.run(url) { try database.vacuum() }
            }
        }
        try startRemoteChangeNotifications()
    }

    /// Checks an existing store against the model: the store type, then the entity version hashes; when
    /// the hashes differ, the store is still accepted if its tables, columns, indexes and entity numbers
    /// are exactly those the model implies (a change that does not touch the layout, such as a renamed
    /// version hash modifier or a changed default value).
    ///
    /// Returns `false` when the store was incompatible and has been migrated (see
    /// ``migrateOnOpenIfAsked(metadata:model:configuration:)``).
    ///
    /// - Throws: ``NSPersistentStoreIncompatibleVersionHashError`` naming the file and the differences.
    private func checkCompatibility(
        _ metadata: SQLiteStoreMetadata, schema: SQLiteSchema,
        model: NSManagedObjectModel, configuration: String?
    ) throws -> Bool {
        let url = fileURL
        let dictionary = metadata.dictionary
        if let type = dictionary[NSStoreTypeKey] as? String, type != NSSQLiteStoreType {
            throw SQLiteStoreFileAccess.fileError(
                NSPersistentStoreTypeMismatchError, url,
                "The store file \(url.path) records the store type \"\(type)\", not \(NSSQLiteStoreType).")
        }
        if PersistentStoreOptions.bool(options?[NSIgnorePersistentStoreVersioningOption]) == true { return true }
        if model.isConfiguration(withName: configuration, compatibleWithStoreMetadata: dictionary) { return true }
        let differences = try schema.differences(inStoreAt: url)
        if differences.isEmpty { return true }
        if try migrateOnOpenIfAsked(metadata: metadata, model: model, configuration: configuration) { return false }
        let listed = differences.prefix(5).map(\.description).joined(separator: "; ")
        let message = "The model used to open the store at \(url.path) is incompatible with the one used to create it (\(listed))."
        throw NSError(
            domain: NSCocoaErrorDomain, code: NSPersistentStoreIncompatibleVersionHashError,
            userInfo: [
                NSLocalizedDescriptionKey: message,
                NSFilePathErrorKey: url.path,
                NSURLErrorKey: url,
                "metadata": dictionary,
            ])
    }

    /// Connects to the file: a WAL `DatabasePool`, or a `DatabaseQueue` when read-only or when the
    /// pragmas ask for another journal mode. Every connection gets the SQL functions (those of compiled
    /// fetches and those Apple's derived-attribute triggers call), the busy timeout
    /// and the pragmas (with ``defaultSynchronousMode`` unless they name a `synchronous` mode).
    private func connect(url: URL, pragmas: [(String, String)]) throws -> any DatabaseWriter {
        var configuration = Configuration()
        configuration.label = "OpenCoreData.SQLiteStore"
        configuration.readonly = isReadOnly
        let timeout = PersistentStoreOptions.double(options?[NSPersistentStoreTimeoutOption]) ?? 240
        configuration.busyMode = .timeout(timeout)
        var named = pragmas.filter { $0.0.lowercased() != "journal_mode" }
        if !named.contains(where: { $0.0.lowercased() == "synchronous" }) {
            named.append(("synchronous", Self.defaultSynchronousMode))
        }
        let perConnection = named
        let journalMode = pragmas.first { $0.0.lowercased() == "journal_mode" }?.1.uppercased() ?? "WAL"
        let sqlDebugLog = _sqlDebugLog
        let derivedValueReports = _derivedValueReports
        configuration.prepareDatabase { db in
            sqlDebugLog?.trace(db)
            SQLiteFunctions.register(in: db)
            SQLiteDerivedAttributeTriggers.register(in: db, reports: derivedValueReports)
            for (name, value) in perConnection {
                try db.execute(sql: "PRAGMA \(name) = \(value)")
            }
        }
        return try SQLiteStoreFileAccess.run(url) {
            if isReadOnly {
                return try DatabaseQueue(path: url.path, configuration: configuration)
            }
            if journalMode == "WAL" {
                let pool = try DatabasePool(path: url.path, configuration: configuration)
                // Setting up WAL, GRDB sets `synchronous = NORMAL` on the writer after the connection's own
                // preparation: the store's setting is made again so that it wins.
                try pool.writeWithoutTransaction { db in
                    for (name, value) in perConnection { try db.execute(sql: "PRAGMA \(name) = \(value)") }
                }
                return pool
            }
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = \(journalMode)") }
            return queue
        }
    }

    /// The `synchronous` mode of a store whose ``NSSQLitePragmasOption`` names none: `FULL`, in WAL and
    /// rollback journal modes alike, so that a save that returned survives a power cut as well as a
    /// crash of the process (SQLite syncs the write-ahead log, or the journal and the file, before a
    /// commit returns). `NORMAL` (`["synchronous": "NORMAL"]`) saves one sync per save in WAL mode; a
    /// power cut may then undo the last saves, though never tear one (see `Docs/Reliability.md`).
    static let defaultSynchronousMode = "FULL"

    /// The pragmas of ``NSSQLitePragmasOption`` as (name, SQL value) pairs.
    ///
    /// - Throws: ``NSPersistentStoreOperationError`` naming the pragma when a name is not an identifier
    ///   or a value is neither a number nor a simple word (values are spliced into `PRAGMA` statements,
    ///   which take no bound parameters).
    static func pragmas(from options: [AnyHashable: Any]?, url: URL) throws -> [(String, String)] {
        guard let raw = options?[NSSQLitePragmasOption] else { return [] }
        var pairs: [(String, Any)] = []
        if let dictionary = raw as? [String: Any] {
            pairs = dictionary.map { ($0.key, $0.value) }
        } else if let dictionary = raw as? NSDictionary {
            for (key, value) in dictionary {
                guard let key = key as? String else { continue }
                pairs.append((key, value))
            }
        } else {
            throw SQLiteStoreFileAccess.fileError(
                NSPersistentStoreOperationError, url,
                "The NSSQLitePragmasOption of the store at \(url.path) is not a dictionary.")
        }
        let identifier = { (text: String) in
            !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        }
        return try pairs.sorted { $0.0 < $1.0 }.map { name, value in
            guard identifier(name) else {
                throw SQLiteStoreFileAccess.fileError(
                    NSPersistentStoreOperationError, url,
                    "The SQLite pragma name \"\(name)\" for the store at \(url.path) is not valid.")
            }
            let text: String
            switch value {
            case let number as NSNumber: text = number.stringValue
            case let string as String: text = string
            default: text = String(describing: value)
            }
            let numeric = Double(text) != nil
            guard numeric || identifier(text) else {
                throw SQLiteStoreFileAccess.fileError(
                    NSPersistentStoreOperationError, url,
                    "The value \"\(text)\" of SQLite pragma \(name) for the store at \(url.path) is not valid.")
            }
            return (name, text)
        }
    }
}
