import Foundation
import OpenCoreData
import PostgresNIO

/// A store that keeps its objects in a PostgreSQL database, in Core Data's layout (Docs/PostgreSQL.md),
/// so that any number of processes on any number of machines share one object graph.
///
/// Add it with a `postgres://user:password@host:port/database` URL (a `schema` query item names the
/// PostgreSQL schema, `public` by default) after ``register()``:
///
/// ```swift
/// PostgreSQLStore.register()
/// try coordinator.addPersistentStore(type: .postgreSQL, at: URL(string: "postgres://app:secret@db.local/shop")!)
/// ```
///
/// Fetches are compiled to parameterized SQL, saves are one PostgreSQL transaction with optimistic
/// locking on `Z_OPT`, and primary keys come from `Z_PRIMARYKEY`, shared by every process. The store keeps
/// a pool of connections (``connectionPoolSizeKey``), opens again a connection the server closed, and
/// uses TLS as the URL's `sslmode` query item asks (`disable`, `allow`, `prefer` by default, `require`,
/// `verify-ca`, `verify-full`; `sslrootcert` names the authorities to trust).
// @unchecked Sendable: `state` is read and written only while holding `lock`; the connection keeps its own
// lock.
public final class PostgreSQLStore: NSIncrementalStore, @unchecked Sendable {
    /// What the store knows once open.
    struct Open {
        var location: PostgreSQLLocation
        var connection: PostgreSQLConnection
        var schema: PostgreSQLSchema
        var model: NSManagedObjectModel
    }

    /// A row a fetch read, kept until its object's fault fires, so that the fault needs no statement.
    struct FetchedRow {
        var values: [String: Any]
        var version: Int64
    }

    struct State {
        /// The location read from the URL the store was added with (the store's `url` then loses its
        /// password).
        var location: PostgreSQLLocation?
        var open: Open?
        /// The version of each object last handed to Core Data, which a save expects to find.
        var readVersions: [NSManagedObjectID: Int64] = [:]
        var fetchedRows: [NSManagedObjectID: FetchedRow] = [:]
        /// The batch each object of a batched fetch waits for, until one of the batch's faults fires
        /// (PostgreSQLFetchBatches.swift).
        var batches: [NSManagedObjectID: PostgreSQLFetchBatch] = [:]
    }

    let lock = NSLock()
    var state = State()

    /// The most rows kept for faults not yet fired; past it, the kept rows are dropped (their faults then
    /// read from the server).
    static let fetchedRowLimit = 100_000

    /// Registers the store class under ``PostgreSQLStoreType``, so that coordinators add stores of that
    /// type.
    public static func register() {
        NSPersistentStoreCoordinator.registerStoreClass(PostgreSQLStore.self, type: .postgreSQL)
    }

    /// The type of the store, ``PostgreSQLStoreType``.
    public override var type: String { PostgreSQLStoreType }

    /// The open store; throws when it is not open.
    func opened() throws -> Open {
        guard let open = lock.withLock({ state.open }) else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreOperationError,
                userInfo: [NSLocalizedDescriptionKey: "The PostgreSQL store is not open."])
        }
        return open
    }

    // MARK: Opening

    /// Connects to the server and reads the store's metadata, creating Core Data's tables in a new schema
    /// first; throws `NSPersistentStoreOpenError` naming the store and the cause when the server cannot be
    /// reached or refuses the credentials.
    public override func loadMetadata() throws {
        guard let url else { throw PostgreSQLErrors.badLocation("it has no URL") }
        let location = try lock.withLock({ state.location }) ?? PostgreSQLLocation(url: url)
        lock.withLock { state.location = location }
        // The store's URL never carries the password, so neither do descriptions and errors naming it.
        self.url = location.redactedURL
        guard let model = persistentStoreCoordinator?.managedObjectModel else {
            throw PostgreSQLErrors.badLocation("it has no coordinator")
        }
        let schema = try PostgreSQLSchema(model: model, schema: location.schema)
        let poolSize = try connectionPoolSize()
        let connection: PostgreSQLConnection
        do {
            let debugLog = persistentStoreCoordinator?.sqlDebugLog ?? SQLDebugLog.process
            connection = try PostgreSQLConnection(location: location, size: poolSize, debugLog: debugLog)
            debugLog?.post(.annotation, "CoreData: annotation: Connecting to PostgreSQL store at \(location.displayName)")
        } catch {
            throw PostgreSQLErrors.open(location, error)
        }
        let metadata: [String: Any]
        do {
            metadata = try connection.transaction { try PostgreSQLLayout.prepare(schema, model: model, on: connection) }
        } catch {
            connection.close()
            throw PostgreSQLErrors.open(location, error)
        }
        lock.withLock {
            state.open?.connection.close()
            state = State(location: location, open: Open(location: location, connection: connection, schema: schema, model: model))
        }
        self.metadata = metadata
    }

    // MARK: Requests

    /// Answers a fetch request or saves a save request.
    public override func execute(_ request: NSPersistentStoreRequest, with context: NSManagedObjectContext?) throws -> Any {
        let open = try opened()
        if let changes = request as? NSSaveChangesRequest {
            do {
                try save(changes, open)
            } catch {
                throw PostgreSQLErrors.save(open.location, error)
            }
            return [Any]()
        }
        guard let fetch = request as? NSFetchRequest<NSFetchRequestResult> else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSPersistentStoreUnsupportedRequestTypeError,
                userInfo: [
                    NSLocalizedDescriptionKey: "The PostgreSQL store at \(open.location.displayName) does not execute \(Swift.type(of: request))."
                ])
        }
        do {
            return try PostgreSQLFetch(store: self, open: open, request: fetch, context: context).run()
        } catch {
            throw PostgreSQLErrors.operation(open.location, error)
        }
    }

    /// The values and version of one object, from the row its fetch read or from the server.
    public override func newValuesForObject(with objectID: NSManagedObjectID, with context: NSManagedObjectContext) throws -> NSIncrementalStoreNode {
        let open = try opened()
        if let node = keptNode(for: objectID) { return node }
        let row: FetchedRow?
        do {
            // The first fault of a batch to fire reads the whole batch's rows.
            if try readBatch(containing: objectID, open: open), let node = keptNode(for: objectID) { return node }
            row = try PostgreSQLFetch.row(of: objectID, store: self, open: open)
        } catch {
            throw PostgreSQLErrors.operation(open.location, error)
        }
        guard let row else {
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSManagedObjectReferentialIntegrityError,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "The PostgreSQL store at \(open.location.displayName) has no object \(objectID.uriRepresentation().absoluteString)."
                ])
        }
        lock.withLock { state.readVersions[objectID] = row.version }
        return NSIncrementalStoreNode(objectID: objectID, withValues: row.values, version: UInt64(row.version))
    }

    /// The node of an object from the row a fetch read and kept, which it then forgets.
    private func keptNode(for objectID: NSManagedObjectID) -> NSIncrementalStoreNode? {
        guard let row = lock.withLock({ state.fetchedRows.removeValue(forKey: objectID) }) else { return nil }
        lock.withLock { state.readVersions[objectID] = row.version }
        return NSIncrementalStoreNode(objectID: objectID, withValues: row.values, version: UInt64(row.version))
    }

    /// The destinations of a relationship: IDs for a to-many relationship, an ID or `NSNull` for a to-one.
    public override func newValue(
        forRelationship relationship: NSRelationshipDescription, forObjectWith objectID: NSManagedObjectID,
        with context: NSManagedObjectContext?
    ) throws -> Any {
        let open = try opened()
        do {
            return try PostgreSQLFetch.destinations(of: relationship, from: objectID, store: self, open: open)
        } catch {
            throw PostgreSQLErrors.operation(open.location, error)
        }
    }

    /// Permanent IDs for new objects, from `Z_PRIMARYKEY`: one statement per root entity, whose keys no
    /// other process is given. A failure at the server is `NSPersistentStoreSaveError` (134030), as the
    /// save that asks for the IDs fails by it.
    public override func obtainPermanentIDs(for array: [NSManagedObject]) throws -> [NSManagedObjectID] {
        let open = try opened()
        var byRoot: [String: [Int]] = [:]
        for (index, object) in array.enumerated() {
            byRoot[open.schema.roots[object.entity.name ?? ""] ?? "", default: []].append(index)
        }
        var ids = [NSManagedObjectID?](repeating: nil, count: array.count)
        do {
            for (root, indexes) in byRoot.sorted(by: { $0.key < $1.key }) {
                var binds = PostgresBindings()
                binds.append(Int64(indexes.count))
                binds.append(Int32(open.schema.entityNumbers[root] ?? 0))
                let result = try open.connection.run(
                    "UPDATE \(open.schema.qualified("Z_PRIMARYKEY")) SET \"Z_MAX\" = \"Z_MAX\" + $1 WHERE \"Z_ENT\" = $2 RETURNING \"Z_MAX\"",
                    binds)
                guard let cell = result.rows.first?.first else {
                    throw PostgreSQLErrors.unsupported(open.location, "Z_PRIMARYKEY has no row for the entity \(root)")
                }
                let last = try cell.decode(Int64.self)
                for (offset, index) in indexes.enumerated() {
                    let key = last - Int64(indexes.count) + Int64(offset) + 1
                    ids[index] = newObjectID(for: array[index].entity, referenceObject: NSNumber(value: key))
                }
            }
        } catch {
            throw PostgreSQLErrors.permanentIDs(open.location, error)
        }
        return ids.compactMap { $0 }
    }

    /// Forgets the rows kept for objects no context holds any more.
    public override func managedObjectContextDidUnregisterObjects(with objectIDs: [NSManagedObjectID]) {
        lock.withLock {
            for id in objectIDs {
                state.fetchedRows[id] = nil
                state.batches[id] = nil
            }
        }
    }

    /// Keeps the rows a fetch read for the faults of its objects.
    func keep(_ rows: [NSManagedObjectID: FetchedRow]) {
        lock.withLock {
            if state.fetchedRows.count + rows.count > Self.fetchedRowLimit { state.fetchedRows = [:] }
            state.fetchedRows.merge(rows) { _, new in new }
        }
    }

    /// The key of one of the store's object IDs.
    func key(of objectID: NSManagedObjectID) throws -> Int64 {
        if let key = referenceObject(for: objectID) as? NSNumber { return key.int64Value }
        throw NSError(
            domain: NSCocoaErrorDomain, code: NSManagedObjectReferentialIntegrityError,
            userInfo: [NSLocalizedDescriptionKey: "\(objectID.uriRepresentation().absoluteString) is not an object of a PostgreSQL store."])
    }

    deinit {
        lock.withLock { state.open?.connection.close() }
    }
}
